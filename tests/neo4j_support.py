"""Reaching the test Neo4j server: KG_TEST_NEO4J_URI (set by .ci/run after `kg neo4j start`).

Tests use their own variable so that they never wipe the database NEO4J_URI names.
Under CI=true a missing or unreachable server fails the test instead of skipping it.
"""

from __future__ import annotations

import os

import pytest

from helpers import IN_CI

TEST_URI_VAR = "KG_TEST_NEO4J_URI"


def auth_for(uri: str) -> tuple[str, str]:
    """The credentials kg itself would use for this URI (the generated password of a `kg neo4j start` server)."""
    from kg.config import Settings
    from kg.store.neo4j.local_server import neo4j_auth

    return neo4j_auth(Settings(neo4j_uri=uri))


def neo4j_driver_or_skip():
    from neo4j import GraphDatabase

    uri = os.environ.get(TEST_URI_VAR)
    if not uri:
        message = f"{TEST_URI_VAR} is not set: start one with `kg neo4j start --port 7690 --data .kg/test-neo4j`"
        if IN_CI:
            pytest.fail(message)
        pytest.skip(message)
    driver = GraphDatabase.driver(uri, auth=auth_for(uri), notifications_min_severity="OFF")
    try:
        driver.verify_connectivity()
    except Exception as exc:  # any failure to connect is the same verdict here
        driver.close()
        if IN_CI:
            pytest.fail(f"Neo4j at {uri} is unreachable under CI: {exc}")
        pytest.skip(f"Neo4j at {uri} is unreachable: {exc}")
    return driver


def wipe(driver, database: str = "neo4j") -> None:
    """Delete all graph data, keeping schema and the migration records."""
    with driver.session(database=database) as session:
        # CALL … IN TRANSACTIONS only runs in an auto-commit transaction (session.run).
        session.run("MATCH (n) WHERE NOT n:KgMigration CALL (n) { DETACH DELETE n } IN TRANSACTIONS OF 5000 ROWS").consume()


def neo4j_settings(tmp_path):
    """Settings that point kg at the test server."""
    from kg.config import Settings

    return Settings(NEO4J_URI=os.environ[TEST_URI_VAR], KG_DATA_DIR=tmp_path / "unused")
