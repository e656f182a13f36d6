"""The store fixture: the same contract runs on every backend."""

from __future__ import annotations

import pytest

from contract_data import contract_batch
from kg.store.embedded import EmbeddedStore

BACKENDS = ["embedded", "neo4j"]


@pytest.fixture(params=BACKENDS)
def empty_store(request, tmp_path):
    if request.param == "neo4j":
        yield request.getfixturevalue("neo4j_store")
        return
    store = EmbeddedStore(tmp_path / "kg-data")
    yield store
    store.close()


@pytest.fixture
def store(empty_store):
    empty_store.apply(contract_batch())
    return empty_store
