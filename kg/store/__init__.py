"""Stores: one interface (``base.Store``), an embedded networkx store and a Neo4j store."""

from __future__ import annotations

from kg.config import Settings
from kg.store.base import PaperFilter, Store

__all__ = ["Store", "PaperFilter", "open_store"]


def open_store(settings: Settings) -> Store:
    """The store the settings select: Neo4j when ``NEO4J_URI`` is set, else embedded."""
    if settings.neo4j_uri:
        from kg.store.neo4j.store import Neo4jStore

        return Neo4jStore.from_settings(settings)
    from kg.store.embedded import EmbeddedStore

    return EmbeddedStore(settings.data_dir)
