"""The documentation builds as a site with no broken link (``mkdocs build --strict``), and the README stays short."""

from __future__ import annotations

import os
import subprocess
import sys

from helpers import ROOT


def test_the_docs_build_strictly(tmp_path):
    env = {**os.environ, "NO_MKDOCS_2_WARNING": "1"}
    done = subprocess.run(
        [sys.executable, "-m", "mkdocs", "build", "--strict", "-q", "-d", str(tmp_path / "site")],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert done.returncode == 0, done.stdout + done.stderr
    assert (tmp_path / "site" / "people" / "index.html").exists()


def test_the_readme_fits_on_a_screen_and_links_only_to_what_exists():
    import re

    text = (ROOT / "README.md").read_text()
    assert len(text.splitlines()) <= 200
    links = [t for t in re.findall(r"\]\(([^)#]+)\)", text) if not t.startswith("http")]
    assert links and all((ROOT / t).exists() for t in links), [t for t in links if not (ROOT / t).exists()]
    assert not re.search(r"\b(issue|wave)s?\b", text + "".join(p.read_text() for p in (ROOT / "docs").glob("*.md")), re.I)
