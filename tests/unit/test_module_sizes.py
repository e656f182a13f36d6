"""Small rooms (issue 12): no module of kg/ over 300 lines, no function over 50."""

from __future__ import annotations

import ast

from helpers import ROOT


def test_modules_and_functions_stay_small():
    too_long = []
    for path in sorted((ROOT / "kg").rglob("*.py")):
        source = path.read_text(encoding="utf-8")
        name = path.relative_to(ROOT)
        if len(source.splitlines()) > 300:
            too_long.append(f"{name}: {len(source.splitlines())} lines")
        for node in ast.walk(ast.parse(source)):
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)) and node.end_lineno - node.lineno >= 50:
                too_long.append(f"{name}:{node.lineno} {node.name}: {node.end_lineno - node.lineno + 1} lines")
    assert too_long == []
