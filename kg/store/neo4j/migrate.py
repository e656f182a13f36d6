"""Versioned Cypher migrations: ``migrations/V0001__name.cypher``, applied in order, once.

Each applied version is recorded in the database as ``(:KgMigration {version,
name, checksum, applied_at})``. A changed or missing file that was already
applied stops everything: migrations are append-only.
"""

from __future__ import annotations

import hashlib
import re
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

from neo4j import Driver

from kg.errors import MigrationError
from kg.store.neo4j import queries as cypher

__all__ = ["Migration", "load_migrations", "pending_migrations", "apply_migrations", "ensure_current", "default_migrations_dir"]

_NAME = re.compile(r"^V(\d{4})__([a-z0-9_]+)\.cypher$")


@dataclass(frozen=True)
class Migration:
    version: int
    name: str
    path: Path
    checksum: str
    statements: tuple[str, ...]


def default_migrations_dir() -> Path:
    """The migrations kg ships (``kg/store/neo4j/migrations``; ``migrations/`` in a checkout links there). Another
    folder (``KG_MIGRATIONS_DIR``) comes from the settings, through ``Neo4jStore.migrations_dir``."""
    return Path(__file__).resolve().parent / "migrations"


def _statements(text: str) -> tuple[str, ...]:
    body = "\n".join(line for line in text.splitlines() if not line.strip().startswith("//"))
    return tuple(s.strip() for s in body.split(";") if s.strip())


def load_migrations(directory: Path | None = None) -> list[Migration]:
    directory = directory or default_migrations_dir()
    if not directory.is_dir():
        raise MigrationError(f"no migrations folder at {directory}")
    found = []
    for path in sorted(directory.glob("*.cypher")):
        m = _NAME.match(path.name)
        if not m:
            raise MigrationError(f"{path}: migration files are named V0001__what_it_does.cypher")
        text = path.read_text(encoding="utf-8")
        found.append(Migration(int(m.group(1)), m.group(2), path, hashlib.sha256(text.encode()).hexdigest(), _statements(text)))
    versions = [m.version for m in found]
    if versions != list(range(1, len(found) + 1)):
        raise MigrationError(f"{directory}: migration versions must run 1, 2, 3… without gaps, found {versions}")
    return found


def _applied(driver: Driver, database: str) -> dict[int, tuple[str, str]]:
    records, _, _ = driver.execute_query(cypher.APPLIED_MIGRATIONS, database_=database)
    return {r["version"]: (r["name"], r["checksum"]) for r in records}


def pending_migrations(driver: Driver, database: str, migrations: list[Migration]) -> list[Migration]:
    """The migrations still to apply; raises when an applied one was changed or removed."""
    applied = _applied(driver, database)
    by_version = {m.version: m for m in migrations}
    for version, (name, checksum) in sorted(applied.items()):
        m = by_version.get(version)
        if m is None:
            raise MigrationError(f"the database has migration V{version:04d}__{name}, which is not in the migrations folder")
        if m.checksum != checksum:
            raise MigrationError(f"{m.path.name} changed after it was applied (checksum differs); add a new migration instead")
    return [m for m in migrations if m.version not in applied]


def apply_migrations(driver: Driver, database: str, directory: Path | None = None) -> list[Migration]:
    """Apply pending migrations in order; returns what was applied (empty the second time)."""
    todo = pending_migrations(driver, database, load_migrations(directory))
    for m in todo:
        with driver.session(database=database) as session:
            for statement in m.statements:
                session.run(statement).consume()  # schema commands run in their own transaction
            session.run(cypher.RECORD_MIGRATION, version=m.version, name=m.name, checksum=m.checksum).consume()
        with driver.session(database=database) as session:
            session.run(cypher.AWAIT_INDEXES).consume()
    return todo


@lru_cache(maxsize=8)
def _shipped(directory: Path) -> tuple[Migration, ...]:
    """The migration files, read and hashed once per process (``/healthz`` checks them on every call)."""
    return tuple(load_migrations(directory))


def ensure_current(driver: Driver, database: str, directory: Path | None = None) -> None:
    """Raise MigrationError unless every migration is applied."""
    todo = pending_migrations(driver, database, list(_shipped(directory or default_migrations_dir())))
    if todo:
        names = ", ".join(m.path.name for m in todo)
        raise MigrationError(f"the Neo4j database is behind its migrations ({names} pending): run `kg migrate`")
