"""The development page's layout section names every module and package of kg/, and nothing that is gone."""

from __future__ import annotations

import re

from helpers import ROOT


def _layout() -> str:
    text = (ROOT / "docs" / "development.md").read_text()
    return text.split("## Layout\n```", 1)[1].split("```", 1)[0]


def test_every_module_of_kg_is_in_the_readme_layout():
    layout = _layout()
    package = ROOT / "kg"
    missing = [
        str(path.relative_to(ROOT))
        for path in sorted(package.rglob("*.py"))
        if path.name != "__init__.py" and "static" not in path.parts and not re.search(rf"\b{re.escape(path.stem)}\b", layout)
    ]
    assert missing == [], f"not in the README's layout: {missing}"


def test_the_layout_names_no_file_that_is_gone():
    layout = _layout()
    named = set(re.findall(r"\b(kg/[\w/]+\.py)\b", layout))
    assert named and all((ROOT / path).exists() for path in named), sorted(p for p in named if not (ROOT / p).exists())
