"""The GraphQL-over-HTTP specification's own server audits (npm `graphql-http`) against a live `kg serve`.

`.ci/run` installs the pinned audit package (`npm ci --prefix tests/http_audit`).
Every audit must pass: an error or a warning fails the test, on each store.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess

import httpx
import pytest

from kg.api.graphql.http import GRAPHQL_RESPONSE_JSON

from helpers import IN_CI, ROOT, SAMPLES, kg_serving

AUDIT = ROOT / "tests" / "http_audit"


def audit(url: str) -> tuple[dict, list[dict]]:
    if shutil.which("node") is None or not (AUDIT / "node_modules" / "graphql-http").is_dir():
        message = "graphql-http is not installed: run npm ci --prefix tests/http_audit"
        if IN_CI:
            pytest.fail(message)
        pytest.skip(message)
    done = subprocess.run(["node", str(AUDIT / "audit.mjs"), url], capture_output=True, text=True, timeout=180)
    rows = [json.loads(line) for line in done.stdout.splitlines() if line.strip()]
    assert rows and "summary" in rows[-1], done.stdout + done.stderr
    return rows[-1]["summary"], [r for r in rows[:-1] if r["status"] in ("warn", "error")]


def check_store(base: str) -> None:
    summary, failing = audit(f"{base}/graphql")
    assert not failing, failing
    assert summary["audits"] >= 50 and summary["error"] == summary["warn"] == 0


def test_the_spec_audit_passes_on_the_embedded_store(seeded_embedded):
    with kg_serving({"KG_DATA_DIR": str(seeded_embedded.settings.data_dir)}) as base:
        check_store(base)
        # the two media types, side by side
        bad = {"query": "{ nope }"}
        legacy = httpx.post(f"{base}/graphql", json=bad, headers={"accept": "application/json"})
        modern = httpx.post(f"{base}/graphql", json=bad, headers={"accept": GRAPHQL_RESPONSE_JSON})
        assert legacy.status_code == 200 and legacy.headers["content-type"].startswith("application/json")
        assert "data" in legacy.json()
        assert modern.status_code == 400 and modern.headers["content-type"].startswith(GRAPHQL_RESPONSE_JSON)
        assert "data" not in modern.json() and modern.json()["errors"]


@pytest.mark.neo4j
def test_the_spec_audit_passes_on_neo4j(neo4j_driver, tmp_path, extractor):
    from kg.service import KGService
    from kg.store.neo4j.store import Neo4jStore

    from neo4j_support import TEST_URI_VAR, neo4j_settings, wipe

    wipe(neo4j_driver)
    settings = neo4j_settings(tmp_path)
    service = KGService(Neo4jStore.from_settings(settings), settings, extractor=extractor)
    service.ingest([SAMPLES])
    service.store.close()
    with kg_serving({"NEO4J_URI": os.environ[TEST_URI_VAR]}) as base:
        check_store(base)


def test_an_execution_error_keeps_its_data_under_the_new_media_type(gql):
    """Only requests that fail before execution get 400; a field error is a normal 200 response."""
    response = gql.http.post(
        "/graphql",
        json={"query": '{ stats { papers } author(name: "wei lin") { network(depth: 9) { nodes { id } } } }'},
        headers={"accept": GRAPHQL_RESPONSE_JSON},
    )
    assert response.status_code == 200 and response.headers["content-type"].startswith(GRAPHQL_RESPONSE_JSON)
    body = response.json()
    assert body["data"]["stats"]["papers"] == 39 and body["data"]["author"] is None and body["errors"]
