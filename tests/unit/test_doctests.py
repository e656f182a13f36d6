"""The examples in kg's docstrings run, module by module (pytest's --doctest-modules would also
import every tests/**/conftest.py as a module, and those share one name)."""

from __future__ import annotations

import doctest
import importlib
import importlib.util
import pkgutil
from pathlib import Path

import pytest

import kg


def _has_examples(name: str) -> bool:
    origin = importlib.util.find_spec(name).origin
    return origin is not None and origin.endswith(".py") and ">>> " in Path(origin).read_text(encoding="utf-8")


# Only the modules that hold examples: a module without any would make a test that cannot fail.
MODULES = sorted(m.name for m in pkgutil.walk_packages(kg.__path__, "kg.") if _has_examples(m.name))


@pytest.mark.parametrize("name", MODULES)
def test_docstring_examples(name):
    module = importlib.import_module(name)
    result = doctest.testmod(module, optionflags=doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE)
    assert result.attempted > 0, f"{name} shows `>>> ` but doctest found no example in it"
    assert result.failed == 0, f"{result.failed} of {result.attempted} examples failed in {name}"


def test_the_examples_are_there():
    attempted = sum(doctest.testmod(importlib.import_module(n)).attempted for n in MODULES)
    assert attempted >= 20
