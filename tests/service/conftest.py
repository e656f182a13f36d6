"""The service tests' stores: an empty one of each kind, as many as a test asks for."""

from __future__ import annotations

import pytest

from kg.config import Settings
from kg.service import KGService
from kg.store.embedded import EmbeddedStore


@pytest.fixture(params=["embedded", "neo4j"])
def make_service(request, tmp_path, extractor):
    """``make(**env)``: a service on an empty store of this kind (each call starts from nothing); ``using``
    gives it another extractor than the session's."""
    made = []

    def make(using=None, **env):
        for svc in made:
            svc.close()
        if request.param == "neo4j":
            import os

            from kg.store.neo4j.store import Neo4jStore
            from neo4j_support import TEST_URI_VAR, wipe

            wipe(request.getfixturevalue("neo4j_driver"))
            settings = Settings(NEO4J_URI=os.environ[TEST_URI_VAR], KG_DATA_DIR=tmp_path / "unused", **env)
            store = Neo4jStore.from_settings(settings)
        else:
            settings = Settings(KG_DATA_DIR=tmp_path / f"kg-data-{len(made)}", **env)
            store = EmbeddedStore(settings.data_dir)
        svc = KGService(store, settings, extractor=using or extractor)
        made.append(svc)
        return svc

    yield make
    for svc in made:
        svc.close()
