"""The seed papers link to the wider literature: each has a key concept that ICLR or ICML 2024 papers have too."""

from __future__ import annotations

import pytest
from fastapi.testclient import TestClient

from kg.api.app import create_app
from kg.config import Settings
from kg.service import KGService
from kg.store.base import PaperFilter
from kg.store.embedded import EmbeddedStore

from helpers import SAMPLES, need_shared

pytestmark = pytest.mark.slow

QUERY = "query($id: ID!) { paper(id: $id) { title concepts { id papers(first: 100) { edges { node { id } } } } } }"


def test_every_seed_paper_shares_a_key_concept_with_iclr_or_icml_2024(tmp_path, extractor):
    conferences = [need_shared("papers-iclr2024.jsonl"), need_shared("papers-icml2024.jsonl")]
    settings = Settings(KG_DATA_DIR=tmp_path / "kg-data")
    svc = KGService(EmbeddedStore(settings.data_dir), settings, extractor=extractor)
    svc.ingest(sorted(SAMPLES.glob("*.txt")))
    seeds = {p.id for p in svc.store.find_papers(PaperFilter(), 0, 10_000).items}
    svc.ingest(conferences)
    assert len(seeds) >= 30
    with TestClient(create_app(svc)) as client:
        lonely = []
        for pid in sorted(seeds):
            paper = client.post("/graphql", json={"query": QUERY, "variables": {"id": pid}}).json()["data"]["paper"]
            others = {e["node"]["id"] for c in paper["concepts"] for e in c["papers"]["edges"]} - seeds
            if not others:
                lonely.append(paper["title"])
    assert lonely == []
