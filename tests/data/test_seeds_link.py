"""The seed papers link to the wider literature: each has a key concept that ICLR or ICML 2024 papers have too."""

from __future__ import annotations

import shutil

import pytest
from fastapi.testclient import TestClient

from kg.api.app import create_app
from kg.config import Settings
from kg.graph.identity import paper_id
from kg.readers import read_path
from kg.service import KGService
from kg.store.embedded import EmbeddedStore

from helpers import SAMPLES, need_shared

pytestmark = pytest.mark.slow

QUERY = "query($id: ID!) { paper(id: $id) { title concepts { id papers(first: 100) { edges { node { id } } } } } }"


def test_every_seed_paper_shares_a_key_concept_with_iclr_or_icml_2024(iclr_embedded, tmp_path, extractor):
    """Over a copy of the session's ICLR 2024 store (one ICLR ingest per store and run), with ICML 2024 added."""
    _, iclr, _ = iclr_embedded
    settings = Settings(KG_DATA_DIR=tmp_path / "kg-data")
    shutil.copytree(iclr.settings.data_dir, settings.data_dir)
    svc = KGService(EmbeddedStore(settings.data_dir), settings, extractor=extractor)
    listings = sorted(SAMPLES.glob("*.txt"))
    svc.ingest(listings)
    seeds = {paper_id(r) for path in listings for r in read_path(path)}
    svc.ingest([need_shared("papers-icml2024.jsonl")])
    assert len(seeds) >= 30 and not seeds - set(svc.store.existing_papers(sorted(seeds)))
    with TestClient(create_app(svc)) as client:
        lonely = []
        for pid in sorted(seeds):
            paper = client.post("/graphql", json={"query": QUERY, "variables": {"id": pid}}).json()["data"]["paper"]
            others = {e["node"]["id"] for c in paper["concepts"] for e in c["papers"]["edges"]} - seeds
            if not others:
                lonely.append(paper["title"])
    assert lonely == []
