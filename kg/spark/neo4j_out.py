"""The tables into Neo4j through the Neo4j Connector for Apache Spark: keyed merges on the
documented model, nodes before relationships, relationships from one partition (no deadlocks
between writers locking the same nodes).

Only a first load: the database must hold no papers. The co-author and affiliation counts
are totals here, and the connector's keyed merge sets a property, it cannot add to one; an
incremental load goes through ``kg ingest``. A failed load removes what it wrote, so the
database is left empty, as it was.
"""

from __future__ import annotations

from typing import Any

from kg.config import Settings
from kg.errors import StoreError
from kg.spark.tables import NODES, RELATIONSHIPS

__all__ = ["write_neo4j", "prepare_empty_database"]

_FORMAT = "org.neo4j.spark.DataSource"
_WIPE = "MATCH (n) WHERE NOT n:KgMigration CALL (n) { DETACH DELETE n } IN TRANSACTIONS OF 10000 ROWS"


def _options(settings: Settings) -> dict[str, str]:
    from kg.store.neo4j.local_server import neo4j_auth

    user, password = neo4j_auth(settings)
    return {
        "url": settings.neo4j_uri or "",
        "database": settings.neo4j_database,
        "authentication.basic.username": user,
        "authentication.basic.password": password,
        "batch.size": str(settings.neo4j_batch_size * 5),
    }


def prepare_empty_database(settings: Settings) -> None:
    """Apply kg's migrations (constraints and indexes) and check that no paper is stored yet."""
    from kg.service import KGService
    from kg.store.neo4j.store import Neo4jStore

    if not settings.neo4j_uri:
        raise StoreError("the Spark engine writes to Neo4j: set NEO4J_URI (or write Parquet with --output parquet)")
    with KGService(Neo4jStore.from_settings(settings), settings) as service:
        service.migrate()
        papers = service.stats().papers
    if papers:
        raise StoreError(
            f"the database at {settings.neo4j_uri} holds {papers} papers; the Spark engine makes a "
            "first load into an empty database (add to a graph with `kg ingest`)"
        )


def _wipe(settings: Settings) -> None:
    from kg.store.neo4j.store import Neo4jStore

    store = Neo4jStore.from_settings(settings)
    try:
        with store.driver.session(database=store.database) as session:
            session.run(_WIPE).consume()  # CALL … IN TRANSACTIONS needs an auto-commit transaction
    finally:
        store.close()


def _write_nodes(frame, label: str, key: str, options: dict[str, str]) -> None:
    (
        frame.write.format(_FORMAT)
        .mode("Overwrite")
        .options(**options)
        .option("labels", f":{label}")
        .option("node.keys", key)
        .save()
    )


def _write_relationships(frame, spec, options: dict[str, str]) -> None:
    rel_type, (s_label, s_col, s_key), (t_label, t_col, t_key) = spec
    properties = [c for c in frame.columns if c not in (s_col, t_col)]
    writer = (
        frame.coalesce(1)
        .write.format(_FORMAT)
        .mode("Overwrite")
        .options(**options)
        .option("relationship", rel_type)
        .option("relationship.save.strategy", "keys")
        .option("relationship.source.labels", f":{s_label}")
        .option("relationship.source.save.mode", "Match")
        .option("relationship.source.node.keys", f"{s_col}:{s_key}")
        .option("relationship.target.labels", f":{t_label}")
        .option("relationship.target.save.mode", "Match")
        .option("relationship.target.node.keys", f"{t_col}:{t_key}")
    )
    if properties:
        writer = writer.option("relationship.properties", ",".join(properties))
    writer.save()


def write_neo4j(frames: dict[str, Any], settings: Settings) -> None:
    """Every table, nodes first; on failure the database is emptied again."""
    options = _options(settings)
    try:
        for name, (label, key) in NODES.items():
            _write_nodes(frames[name], label, key, options)
        for name, spec in RELATIONSHIPS.items():
            _write_relationships(frames[name], spec, options)
    except Exception as exc:
        _wipe(settings)
        raise StoreError(f"writing to Neo4j through the Spark connector failed, and what it wrote was removed: {exc}") from exc
