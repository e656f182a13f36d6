"""`kg search | paper | related | author | concept | path`: answers without a server, on both stores."""

from __future__ import annotations

import json
import os

import pytest
from click.testing import CliRunner

from kg.cli import main
from kg.config import get_settings
from kg.store.base import PaperFilter

from helpers import SAMPLES

COMMANDS = [
    ("search", "sharpness minimization", "--first", "3"),
    ("paper", "hf6032a1a499e7934"),
    ("related", "hf6032a1a499e7934", "--first", "5"),
    ("author", "Wei LIN"),
    ("concept", "SAM", "--first", "5"),
    ("path", "Wei Lin", "Hong Xu"),
    ("author", "lin wei"),
]


def run(env: dict, *args: str, as_json: bool = True):
    get_settings.cache_clear()
    try:
        result = CliRunner().invoke(main, [*args, *(["--json"] if as_json else [])], env=env, catch_exceptions=False)
    finally:
        get_settings.cache_clear()
    return result


def embedded_env(svc) -> dict:
    return {"KG_DATA_DIR": str(svc.settings.data_dir), "NEO4J_URI": None}


def test_answers_read_like_the_api(seeded_embedded):
    env = embedded_env(seeded_embedded)
    search = json.loads(run(env, "search", "sharpness minimization").output)
    assert search["hits"][0]["paper"]["id"] == "hf6032a1a499e7934"
    card = json.loads(run(env, "paper", "hf6032a1a499e7934").output)
    assert "sharpness aware minimization" in {c["key"] for c in card["concepts"]}
    for pid in ("hf6032a1a499e7934", *minor_mentioners(seeded_embedded)):  # the API's concepts(first:) after the key ones
        card = json.loads(run(env, "paper", pid).output)
        [every] = seeded_embedded.store.concepts_of_papers([pid], 100)
        assert [c["key"] for c in card["concepts"] + card["also_named"]] == [c.key for c in every]
        assert ("also named: " in run(env, "paper", pid, as_json=False).output) == bool(card["also_named"])
    related = json.loads(run(env, "related", "hf6032a1a499e7934").output)["related"]
    expected = seeded_embedded.store.related_papers(["hf6032a1a499e7934"], 10)[0]
    assert [r["paper"]["id"] for r in related] == [r.paper_id for r in expected]
    assert all(r["shared"] for r in related)
    assert [r["reasons"] for r in related] == api_reasons(seeded_embedded, "hf6032a1a499e7934")  # one answer, both ways
    assert all(r["reasons"][0].startswith("both about ") for r in related)
    author = json.loads(run(env, "author", "Wei LIN").output)
    assert author["author"]["name"] == "Wei Lin" and {c["name"] for c in author["coauthors"]} >= {"Hong Xu"}
    concept = json.loads(run(env, "concept", "SAM").output)
    assert concept["concept"]["name"] == "sharpness-aware minimization" and concept["broader"] == "optimization method"
    path = json.loads(run(env, "path", "Wei Lin", "Hong Xu").output)["path"]
    assert [a["name"] for a in path] == ["Wei Lin", "Hong Xu"]


def minor_mentioners(service) -> list[str]:
    """Papers that name concepts below their key ones (the seeds have some)."""
    ids = [p.id for p in service.store.find_papers(PaperFilter(), 0, 100).items]
    found = [
        pid
        for pid, key, every in zip(ids, service.store.concepts_of_papers(ids), service.store.concepts_of_papers(ids, 100))
        if len(every) > len(key)
    ]
    assert found
    return found[:2]


def api_reasons(service, paper_id: str) -> list[list[str]]:
    from fastapi.testclient import TestClient

    from kg.api.app import create_app

    query = "query($id: ID!) { paper(id: $id) { related(first: 10) { reasons } } }"
    with TestClient(create_app(service)) as client:
        body = client.post("/graphql", json={"query": query, "variables": {"id": paper_id}}).json()
    return [r["reasons"] for r in body["data"]["paper"]["related"]]


def test_a_near_miss_name_gets_suggestions(seeded_embedded):
    result = run(embedded_env(seeded_embedded), "author", "lin wei", as_json=False)
    assert result.exit_code == 1
    assert "are you looking for: Wei Lin" in result.output


def test_tables_by_default(seeded_embedded):
    out = run(embedded_env(seeded_embedded), "related", "hf6032a1a499e7934", as_json=False).output
    assert out.splitlines()[0].split() == ["score", "id", "title", "shared", "concepts", "citations"]
    missing = run(embedded_env(seeded_embedded), "paper", "no-such-id", as_json=False)
    assert missing.exit_code == 1 and "error: no paper with id 'no-such-id'" in missing.output


@pytest.fixture
def seeded_neo4j_env(neo4j_driver, tmp_path, extractor) -> dict:
    """The seeds in the test Neo4j; the environment that points kg at it."""
    from kg.service import KGService
    from kg.store.neo4j.store import Neo4jStore

    from neo4j_support import TEST_URI_VAR, neo4j_settings, wipe

    wipe(neo4j_driver)
    settings = neo4j_settings(tmp_path)
    with KGService(Neo4jStore.from_settings(settings), settings, extractor=extractor) as service:
        service.ingest([SAMPLES])
    return {"NEO4J_URI": os.environ[TEST_URI_VAR], "KG_DATA_DIR": str(tmp_path / "unused")}


@pytest.mark.neo4j
def test_neo4j_gives_the_same_answers(seeded_embedded, seeded_neo4j_env):
    neo = seeded_neo4j_env
    for args in COMMANDS:
        ours, theirs = run(embedded_env(seeded_embedded), *args), run(neo, *args)
        assert ours.exit_code == theirs.exit_code
        mine, other = json.loads(ours.output or "null"), json.loads(theirs.output or "null")
        if args[0] == "search":  # full-text scores are each engine's own (BM25 here, Lucene there); the hits agree
            mine, other = ([h["paper"] for h in x["hits"]] for x in (mine, other))
        assert mine == other, args


def export_counts(env: dict, out, *args: str) -> tuple[int, int]:
    import networkx as nx

    result = run(env, "export", "--format", "graphml", "-o", str(out), *args, as_json=False)
    assert result.exit_code == 0, result.output
    graph = nx.read_graphml(out)
    said = result.output.split()
    assert (int(said[0]), int(said[2])) == (graph.number_of_nodes(), graph.number_of_edges())
    return graph.number_of_nodes(), graph.number_of_edges()


def test_export_loads_back_into_networkx(seeded_embedded, tmp_path):
    env = embedded_env(seeded_embedded)
    s = seeded_embedded.stats()
    nodes, edges = export_counts(env, tmp_path / "all.graphml")
    assert nodes >= s.papers + s.authors + s.concepts and edges >= s.coauthor_edges + s.shared_concept_edges
    assert export_counts(env, tmp_path / "wei.graphml", "--author", "Wei Lin", "--depth", "2") == (5, 10)
    for fmt in ("gexf", "json", "csv"):
        assert run(env, "export", "--format", fmt, "-o", str(tmp_path / f"all.{fmt}"), as_json=False).exit_code == 0
    assert (tmp_path / "all.nodes.csv").exists()


@pytest.mark.neo4j
def test_export_is_the_same_from_neo4j(seeded_embedded, seeded_neo4j_env, tmp_path):
    neo = seeded_neo4j_env
    for args in ((), ("--author", "Wei Lin", "--depth", "2"), ("--concept", "federated learning")):
        ours = export_counts(embedded_env(seeded_embedded), tmp_path / "e.graphml", *args)
        assert export_counts(neo, tmp_path / "n.graphml", *args) == ours, args
