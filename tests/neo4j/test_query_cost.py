"""No N+1 on Neo4j: the Cypher a request costs is bounded by its depth, not by how many results it has."""

from __future__ import annotations

from fastapi.testclient import TestClient

from kg.api.app import create_app
from kg.service import KGService

from helpers import ROOT, SAMPLES
from neo4j_support import neo4j_settings

HEAVY = (ROOT / "graphql" / "operations" / "heavy_paper_page.graphql").read_text(encoding="utf-8")


def test_queries_per_request_do_not_grow_with_results(neo4j_store, tmp_path, extractor):
    settings = neo4j_settings(tmp_path)
    svc = KGService(neo4j_store, settings, extractor=extractor)
    svc.ingest([SAMPLES])
    costs = {}
    with TestClient(create_app(svc)) as client:
        for n in (2, 10, 39):
            before = neo4j_store.queries_run
            body = client.post("/graphql", json={"query": HEAVY, "variables": {"n": n}}).json()
            assert "errors" not in body and len(body["data"]["papers"]["edges"]) == n
            costs[n] = neo4j_store.queries_run - before
    # One statement per relation in the query (fewer when a level has nothing to load), plus
    # the page and its count: the same bound however many papers come back. (Not always the same
    # number: DataLoader batches are cut by event-loop ticks, and on a busy machine a level's
    # loads can land in two ticks. With N+1 loading, 39 papers would cost hundreds.)
    relations_in_query = 16
    assert all(cost <= relations_in_query + 2 for cost in costs.values()), costs
