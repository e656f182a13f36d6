"""What the pages and the endpoint refuse or add: a non-string operationName, FastAPI's own pages, framing."""

from __future__ import annotations

import pytest
from fastapi.testclient import TestClient

from kg.api.app import create_app
from kg.service import KGService


@pytest.fixture(scope="module")
def client(seeded_embedded):
    with TestClient(create_app(seeded_embedded)) as c:
        yield c


@pytest.mark.parametrize("name", [{"x": 1}, ["a"], 3])
def test_a_non_string_operation_name_is_a_bad_request(client, name):
    r = client.post("/graphql", json={"query": "{ stats { papers } }", "operationName": name})
    assert r.status_code == 400 and "operationName must be a string or null" in r.text


def test_fastapis_own_pages_are_off_unless_configured(client, seeded_embedded):
    for path in ("/docs", "/redoc", "/openapi.json"):
        assert client.get(path).status_code == 404
    settings = seeded_embedded.settings.model_copy(update={"openapi": True})
    with TestClient(create_app(KGService(seeded_embedded.store, settings))) as on:
        assert on.get("/openapi.json").status_code == 200


def test_pages_send_a_content_security_policy_and_refuse_framing(client):
    for path, accept in (("/", "text/html"), ("/author/wei%20lin", "text/html"), ("/graphql", "text/html")):
        r = client.get(path, headers={"accept": accept})
        policy = r.headers["content-security-policy"]
        assert r.status_code == 200 and r.headers["x-frame-options"] == "DENY"
        assert "frame-ancestors 'none'" in policy and "default-src 'self'" in policy and "unsafe-eval" not in policy
    assert "'sha256-" in client.get("/graphql", headers={"accept": "text/html"}).headers["content-security-policy"]
    api = client.post("/graphql", json={"query": "{ stats { papers } }"})
    assert "content-security-policy" not in api.headers  # JSON answers need none
