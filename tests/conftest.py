"""Shared fixtures: the spaCy-backed extractor (loaded once), seed data, stores."""

from __future__ import annotations

import atexit
import os
import shutil
import tempfile

import pytest

# Starlette's TestClient sends `Host: testserver`; the API refuses hosts it does not trust.
os.environ.setdefault("KG_ALLOWED_HOSTS", "127.0.0.1,localhost,::1,testserver")
# The embedded store's default folder is the per-user data folder: tests never touch the real one.
os.environ["XDG_DATA_HOME"] = tempfile.mkdtemp(prefix="kg-tests-xdg-")
atexit.register(shutil.rmtree, os.environ["XDG_DATA_HOME"], ignore_errors=True)

from kg.config import Settings
from kg.extract.pipeline import ConceptExtractor
from kg.service import KGService
from kg.store.embedded import EmbeddedStore

from helpers import SAMPLES

# -- running on two workers (pytest -n 2, as .ci/run does) ---------------------------------------
# Files whose session fixtures are costly run on one worker, so the fixture is built once: the ICLR
# 2024 store (iclr_embedded) is shared by these.
SHARED_SCOPES = {
    "tests/api/test_explorer.py": "iclr",
    "tests/data/test_iclr2024.py": "iclr",
    "tests/data/test_seeds_link.py": "iclr",
}
# The longest work first, so that no worker is left with a long file at the end while the other idles.
LONG_FIRST = ("tests/spark/", "iclr", "tests/test_first_hour.py", "tests/neo4j/test_local_server.py")


def _scope(nodeid: str) -> str:
    path = nodeid.split("::", 1)[0]
    return SHARED_SCOPES.get(path, path)


def _rank(nodeid: str) -> int:
    scope = _scope(nodeid)
    return next((i for i, long in enumerate(LONG_FIRST) if scope.startswith(long)), len(LONG_FIRST))


def pytest_configure(config):
    """Each worker of ``pytest -n N`` gets a Neo4j server of its own (KG_TEST_NEO4J_URIS, comma-separated):
    the Neo4j tests wipe their database."""
    worker, uris = os.environ.get("PYTEST_XDIST_WORKER"), os.environ.get("KG_TEST_NEO4J_URIS")
    workers = getattr(config.option, "numprocesses", None)
    if not worker and workers and workers != 1 and not uris and os.environ.get("KG_TEST_NEO4J_URI"):
        raise pytest.UsageError("pytest -n N needs a Neo4j per worker: KG_TEST_NEO4J_URIS=bolt://…,bolt://… (see .ci/run)")
    if worker and uris:
        found = [u for u in uris.split(",") if u]
        os.environ["KG_TEST_NEO4J_URI"] = found[int(worker.removeprefix("gw")) % len(found)]


def pytest_collection_modifyitems(items):
    items.sort(key=lambda item: _rank(item.nodeid))  # stable: a file's tests keep their order


@pytest.hookimpl(optionalhook=True)
def pytest_xdist_make_scheduler(config, log):
    """Whole files (and SHARED_SCOPES) to a worker, in the order collected (the longest first)."""
    from xdist.scheduler import LoadScopeScheduling

    class Files(LoadScopeScheduling):
        def _split_scope(self, nodeid: str) -> str:
            return _scope(nodeid)

    return Files(config, log)


@pytest.fixture(scope="session")
def extractor() -> ConceptExtractor:
    return ConceptExtractor.load(top_n=Settings().concepts_per_paper)  # what a service builds


@pytest.fixture
def settings(tmp_path) -> Settings:
    return Settings(KG_DATA_DIR=tmp_path / "kg-data")


@pytest.fixture
def service(settings, extractor) -> KGService:
    return KGService(EmbeddedStore(settings.data_dir), settings, extractor=extractor)


@pytest.fixture(scope="session")
def seeded_embedded(tmp_path_factory, extractor) -> KGService:
    """An embedded store holding the two seed listings (read-only for tests)."""
    settings = Settings(KG_DATA_DIR=tmp_path_factory.mktemp("seeded") / "kg-data")
    svc = KGService(EmbeddedStore(settings.data_dir), settings, extractor=extractor)
    svc.ingest([SAMPLES])
    return svc


@pytest.fixture(scope="session")
def iclr_embedded(tmp_path_factory, extractor):
    """ICLR 2024 in an embedded store, ingested once per run: (the file's rows, service, ingest summary)."""
    import json

    from helpers import need_shared

    path = need_shared("papers-iclr2024.jsonl")
    rows = [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line.strip()]
    settings = Settings(KG_DATA_DIR=tmp_path_factory.mktemp("iclr") / "kg-data")
    svc = KGService(EmbeddedStore(settings.data_dir), settings, extractor=extractor)
    summary = svc.ingest([path])
    return rows, svc, summary


@pytest.fixture(scope="session")
def neo4j_driver():
    """A driver to the test Neo4j with migrations applied (fails under CI when unreachable)."""
    from kg.store.neo4j.migrate import apply_migrations
    from neo4j_support import neo4j_driver_or_skip

    driver = neo4j_driver_or_skip()
    apply_migrations(driver, "neo4j")
    yield driver
    driver.close()


@pytest.fixture
def neo4j_store(neo4j_driver, tmp_path):
    """An empty Neo4j store (the test database is wiped first)."""
    from kg.store.neo4j.store import Neo4jStore
    from neo4j_support import neo4j_settings, wipe

    wipe(neo4j_driver)
    store = Neo4jStore.from_settings(neo4j_settings(tmp_path))
    yield store
    store.close()
