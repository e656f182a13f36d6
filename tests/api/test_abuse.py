"""Hostile requests (issue 8's probe): each is refused with a clear message, fast, and leaks nothing."""

from __future__ import annotations

import logging
from pathlib import Path

import pytest
from fastapi.testclient import TestClient

from kg.api.app import create_app
from kg.config import Settings
from kg.service import KGService
from kg.store.embedded import EmbeddedStore

CHAIN = "{papers(first:100){edges{node{authors{papers{authors{papers{authors{papers{abstract}}}}}}}}}}"


def test_the_93_byte_chain_is_refused_before_it_runs(gql):
    response = gql.raw(CHAIN)
    body = response.json()
    assert body["data"] is None  # refused in validation: no field was resolved
    [error] = body["errors"]
    assert "too expensive" in error["message"] and "limit" in error["message"]


def test_many_aliases_are_refused(gql):
    query = "{" + " ".join(f"a{i}: stats {{ papers }}" for i in range(200)) + "}"
    assert any("aliases" in m for m in gql.errors(query))


def test_too_many_tokens_are_refused(gql):
    query = "{ stats { " + " ".join(["papers"] * 6_000) + " } }"
    assert any("token" in m.lower() for m in gql.errors(query))


def test_the_example_operations_stay_within_the_limits(gql):
    from helpers import ROOT

    for path in sorted((ROOT / "graphql" / "operations").glob("*.graphql")):
        response = gql.raw(path.read_text(encoding="utf-8"))
        errors = response.json().get("errors") or []
        assert not [e for e in errors if "too expensive" in e["message"] or "aliases" in e["message"]], path.name


def test_a_body_that_is_not_an_object_is_a_400_not_a_500(gql):
    for body in (b"null", b'"hello"', b"[1, 2]", b"42"):
        response = gql.http.post("/graphql", content=body, headers={"content-type": "application/json"})
        assert response.status_code == 400, (body, response.text)
        assert "JSON object" in response.text


def test_two_operations_need_an_operation_name(gql):
    doc = "query A { stats { papers } } query B { stats { authors } }"
    assert any("operationName" in m for m in gql.errors(doc))
    response = gql.http.post("/graphql", json={"query": doc, "operationName": "B"})
    assert response.json()["data"] == {"stats": {"authors": 206}}


def test_a_malformed_cursor_is_not_echoed_whole(gql):
    cursor = "x" * 50_000
    [message] = gql.errors("query($c: String) { papers(after: $c) { totalCount } }", {"c": cursor})
    assert "malformed cursor" in message and len(message) < 300


def test_a_huge_body_is_refused(gql):
    query = "{ stats { papers } }" + " " * 2_000_000
    response = gql.http.post("/graphql", json={"query": query})
    assert response.status_code == 413


def test_an_unknown_host_is_refused(gql):
    response = gql.http.post("/graphql", json={"query": "{ stats { papers } }"}, headers={"host": "evil.example"})
    assert response.status_code == 400


def test_a_cross_site_request_is_refused(gql):
    response = gql.http.get("/graphql", params={"query": "{ stats { papers } }"}, headers={"sec-fetch-site": "cross-site"})
    assert response.status_code == 403
    same = gql.http.get("/graphql", params={"query": "{ stats { papers } }"}, headers={"sec-fetch-site": "same-origin"})
    assert same.status_code == 200


def test_an_unreadable_store_leaks_no_path(tmp_path):
    data = tmp_path / "secret-place" / "kg-data"
    data.mkdir(parents=True)
    (data / "graph.json.gz").write_bytes(b"not gzip at all")
    settings = Settings(KG_DATA_DIR=data)
    with TestClient(create_app(KGService(EmbeddedStore(data), settings))) as client:
        health = client.get("/healthz")
        body = client.post("/graphql", json={"query": "{ stats { papers } }"}).text
    assert health.status_code == 503
    for text in (health.text, body):
        assert "secret-place" not in text and str(Path(tmp_path)) not in text


def test_validation_errors_log_no_traceback(gql, caplog):
    with caplog.at_level(logging.DEBUG):
        gql.errors("{ nope }")
    assert not [r for r in caplog.records if r.exc_info and "nope" in r.getMessage()]
    assert "Traceback" not in caplog.text


@pytest.mark.parametrize("words", [2_000])
def test_a_long_text_filter_is_refused_on_both_stores_alike(gql, words):
    text = " ".join(f"w{i}" for i in range(words))
    [message] = gql.errors("query($t: String) { papers(filter: {text: $t}) { totalCount } }", {"t": text})
    assert "words" in message
    [message] = gql.errors("query($t: String!) { search(query: $t) { score } }", {"t": text})
    assert "words" in message


def test_a_body_that_is_not_utf8_or_nested_too_deeply_is_a_400(gql):
    deep = "[" * 2000 + "]" * 2000
    bodies = [
        b'{"query": "{ stats { papers } }", "x": "\xff\xfe"}',
        ('{"query": "{ stats { papers } }", "variables": {"a": ' + deep + "}}").encode(),
        ('{"query": "{ stats { papers } }", "extensions": {"a": ' + deep + "}}").encode(),
        deep.encode(),
    ]
    for body in bodies:
        response = gql.http.post("/graphql", content=body, headers={"content-type": "application/json"})
        assert response.status_code == 400, (body[:40], response.status_code, response.text[:200])
    response = gql.http.get("/graphql", params={"query": "{ stats { papers } }", "variables": '{"a": ' + deep + "}"})
    assert response.status_code == 400


def test_an_ipv6_loopback_host_is_trusted_and_every_answer_says_nosniff(gql):
    response = gql.http.post("/graphql", json={"query": "{ stats { papers } }"}, headers={"host": "[::1]:8000"})
    assert response.status_code == 200 and response.headers["x-content-type-options"] == "nosniff"
    assert gql.http.get("/healthz").headers["x-content-type-options"] == "nosniff"
    assert gql.http.post("/graphql", json={"query": "{ stats { papers } }"}, headers={"host": "[::2]:8000"}).status_code == 400


def test_an_answer_past_the_cap_is_stopped_with_an_error_whichever_way_it_is_answered(seeded_embedded):
    from helpers import GraphQLClient

    settings = Settings(KG_DATA_DIR=seeded_embedded.settings.data_dir, KG_MAX_ANSWER_BYTES=20_000)
    service = KGService(EmbeddedStore(settings.data_dir), settings, extractor=seeded_embedded.extractor)
    planned = "{ papers(first: 100) { edges { node { id abstract authors { name } } } } }"
    by_resolvers = "{ papers(first: 100) { edges { node { id abstract sources { id } } } } }"  # no plan covers sources
    with TestClient(create_app(service)) as client:
        gql = GraphQLClient(client)
        for query in (planned, by_resolvers):
            response = gql.raw(query)
            assert response.status_code == 200 and len(response.content) < 20_000
            [error] = response.json()["errors"]
            assert "larger than 20,000 bytes (KG_MAX_ANSWER_BYTES)" in error["message"], error
        assert len(gql("{ papers(first: 3) { edges { node { id abstract } } } }")["papers"]["edges"]) == 3


def test_a_90_kb_name_is_refused_at_once(gql):
    import time

    name = "Wei " * 23_000
    query = (
        "query($n: String!) { "
        + " ".join(f'p{i}: collaborationPath(from: $n, to: "Wei Lin") {{ name }}' for i in range(30))
        + " }"
    )
    started = time.perf_counter()
    messages = gql.errors(query, {"n": name})
    assert time.perf_counter() - started < 2.0
    assert messages and all("at most 300 characters" in m for m in messages)
