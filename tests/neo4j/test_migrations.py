"""`kg migrate`: versioned, recorded with checksums, refuses edited files, no-op the second time."""

from __future__ import annotations

import os
import subprocess
import sys

import pytest

from kg.errors import MigrationError
from kg.store.neo4j.migrate import apply_migrations, ensure_current, load_migrations, pending_migrations

from neo4j_support import TEST_URI_VAR

TEST_INDEX = "kg_test_migration_index"


@pytest.fixture
def fresh_records(neo4j_driver):
    """Forget the applied migrations for one test, then restore the real ones."""
    neo4j_driver.execute_query("MATCH (m:KgMigration) DELETE m")
    yield neo4j_driver
    neo4j_driver.execute_query("MATCH (m:KgMigration) DELETE m")
    neo4j_driver.execute_query(f"DROP INDEX {TEST_INDEX} IF EXISTS")
    apply_migrations(neo4j_driver, "neo4j")


def write(folder, name, text):
    (folder / name).write_text(text, encoding="utf-8")


def test_apply_in_order_then_no_op(fresh_records, tmp_path):
    write(
        tmp_path,
        "V0001__first.cypher",
        f"// a test index\nCREATE INDEX {TEST_INDEX} IF NOT EXISTS FOR (n:KgTestThing) ON (n.x);\n",
    )
    applied = apply_migrations(fresh_records, "neo4j", tmp_path)
    assert [m.name for m in applied] == ["first"]
    assert apply_migrations(fresh_records, "neo4j", tmp_path) == []
    ensure_current(fresh_records, "neo4j", tmp_path)
    records, _, _ = fresh_records.execute_query("SHOW INDEXES YIELD name WHERE name = $n RETURN name", n=TEST_INDEX)
    assert len(records) == 1


def test_behind_and_changed_are_refused(fresh_records, tmp_path):
    write(tmp_path, "V0001__first.cypher", f"CREATE INDEX {TEST_INDEX} IF NOT EXISTS FOR (n:KgTestThing) ON (n.x);")
    apply_migrations(fresh_records, "neo4j", tmp_path)
    write(tmp_path, "V0002__second.cypher", "RETURN 1;")
    with pytest.raises(MigrationError, match="run `kg migrate`"):
        ensure_current(fresh_records, "neo4j", tmp_path)
    write(tmp_path, "V0001__first.cypher", f"CREATE INDEX {TEST_INDEX} IF NOT EXISTS FOR (n:KgTestThing) ON (n.y);")
    with pytest.raises(MigrationError, match="changed after it was applied"):
        pending_migrations(fresh_records, "neo4j", load_migrations(tmp_path))


def test_bad_file_names_and_gaps(tmp_path):
    write(tmp_path, "V0002__gap.cypher", "RETURN 1;")
    with pytest.raises(MigrationError, match="without gaps"):
        load_migrations(tmp_path)
    write(tmp_path, "create-things.cypher", "RETURN 1;")
    with pytest.raises(MigrationError, match="named V0001__"):
        load_migrations(tmp_path)


def test_ingest_and_serve_refuse_a_database_that_is_behind(fresh_records, tmp_path, extractor):
    from kg.service import KGService
    from kg.store.neo4j.store import Neo4jStore
    from neo4j_support import neo4j_settings

    settings = neo4j_settings(tmp_path)
    svc = KGService(Neo4jStore.from_settings(settings), settings, extractor=extractor)
    try:
        with pytest.raises(MigrationError, match="run `kg migrate`"):
            svc.ingest([tmp_path])
        with pytest.raises(MigrationError):
            svc.store.check()
    finally:
        svc.store.close()


def test_kg_migrate_command_twice(fresh_records, tmp_path):
    env = dict(os.environ, NEO4J_URI=os.environ[TEST_URI_VAR])
    first = subprocess.run([sys.executable, "-m", "kg.cli", "migrate"], env=env, capture_output=True, text=True, timeout=120)
    assert first.returncode == 0, first.stderr
    assert "applied V0001__constraints.cypher" in first.stdout and "applied V0002__fulltext_and_indexes.cypher" in first.stdout
    second = subprocess.run([sys.executable, "-m", "kg.cli", "migrate"], env=env, capture_output=True, text=True, timeout=120)
    assert second.returncode == 0 and "up to date" in second.stdout


def test_another_migrations_folder_comes_from_the_settings(tmp_path):
    """KG_MIGRATIONS_DIR reaches the store through the settings made at the entry point (nothing below reads them)."""
    from kg.config import Settings
    from kg.store.neo4j.store import Neo4jStore

    store = Neo4jStore.from_settings(Settings(NEO4J_URI="bolt://127.0.0.1:1", KG_MIGRATIONS_DIR=tmp_path))
    try:
        assert store.migrations_dir == tmp_path
    finally:
        store.close()
