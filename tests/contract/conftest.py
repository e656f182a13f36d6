"""The store fixture: the same contract runs on every backend."""

from __future__ import annotations

import pytest

from contract_data import contract_batch
from kg.store.embedded import EmbeddedStore

BACKENDS = ["embedded"]


def make_store(kind: str, tmp_path, request):
    if kind == "embedded":
        return EmbeddedStore(tmp_path / "kg-data")
    raise AssertionError(kind)


@pytest.fixture(params=BACKENDS)
def empty_store(request, tmp_path):
    store = make_store(request.param, tmp_path, request)
    yield store
    store.close()


@pytest.fixture
def store(empty_store):
    empty_store.apply(contract_batch())
    return empty_store
