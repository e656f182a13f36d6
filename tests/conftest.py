"""Shared fixtures: the spaCy-backed extractor (loaded once), seed data, stores."""

from __future__ import annotations

import pytest

from kg.config import Settings
from kg.extract.pipeline import ConceptExtractor
from kg.service import KGService
from kg.store.embedded import EmbeddedStore

from helpers import SAMPLES


@pytest.fixture(scope="session")
def extractor() -> ConceptExtractor:
    return ConceptExtractor.load()


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
