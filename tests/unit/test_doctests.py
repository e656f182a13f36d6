"""The examples in kg's docstrings run, module by module (pytest's --doctest-modules would also
import every tests/**/conftest.py as a module, and those share one name)."""

from __future__ import annotations

import doctest
import importlib
import pkgutil

import pytest

import kg

MODULES = sorted(m.name for m in pkgutil.walk_packages(kg.__path__, "kg."))


@pytest.mark.parametrize("name", MODULES)
def test_docstring_examples(name):
    module = importlib.import_module(name)
    result = doctest.testmod(module, optionflags=doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE)
    assert result.failed == 0, f"{result.failed} of {result.attempted} examples failed in {name}"


def test_the_examples_are_there():
    attempted = sum(doctest.testmod(importlib.import_module(n)).attempted for n in MODULES)
    assert attempted >= 20
