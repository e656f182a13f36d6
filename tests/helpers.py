"""Paths and small helpers shared by tests (importable as `helpers`)."""

from __future__ import annotations

import gzip
import json
import os
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
SAMPLES = ROOT / "samples"
SHARED_DATA = ROOT.parent / "shared" / "data"
IN_CI = os.environ.get("CI", "").lower() in {"1", "true", "yes"}


def need_shared(name: str) -> Path:
    """A file of ../shared/data; under CI a missing file fails, elsewhere it skips."""
    path = SHARED_DATA / name
    if not path.exists():
        if IN_CI:
            pytest.fail(f"{path} is missing under CI")
        pytest.skip(f"{path} is not here (a clone without ../shared)")
    return path


def free_port() -> int:
    """A loopback port nobody listens on right now."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@contextmanager
def kg_serving(env_overrides: dict[str, str], *args: str, timeout: float = 60) -> Iterator[str]:
    """`kg serve` as a user runs it, in its own process on a free loopback port; yields the base URL."""
    import httpx

    port = free_port()
    env = dict(os.environ, **env_overrides)
    if "NEO4J_URI" not in env_overrides:
        env.pop("NEO4J_URI", None)
    proc = subprocess.Popen(
        [sys.executable, "-m", "kg.cli", "serve", "--port", str(port), *args],
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
    )
    base = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + timeout
        while True:
            try:
                if httpx.get(f"{base}/healthz", timeout=1).status_code == 200:
                    break
            except httpx.TransportError:
                pass
            assert proc.poll() is None, proc.stdout.read().decode()
            assert time.monotonic() < deadline, "server did not come up"
            time.sleep(0.2)
        yield base
    finally:
        proc.terminate()
        proc.wait(timeout=10)


def first_answer(
    url: str, proc: subprocess.Popen, *, timeout: float, output=lambda proc: proc.stdout.read().decode(), pause: float = 0.3
):
    """The first HTTP answer at ``url`` from a server ``proc`` is starting (any status); fails if it exits or times out."""
    import httpx

    deadline = time.monotonic() + timeout
    while True:
        try:
            return httpx.get(url, timeout=10)
        except httpx.TransportError:
            assert proc.poll() is None, output(proc)
            assert time.monotonic() < deadline, f"{url} did not answer within {timeout:.0f}s"
            time.sleep(pause)


def write_jsonl(path, rows, *, raw_lines=()):
    """Records as a JSON Lines file (gzipped for a .gz name), then raw lines as they are."""
    text = "".join(json.dumps(r) + "\n" for r in rows) + "".join(line + "\n" for line in raw_lines)
    if path.suffix == ".gz":
        with gzip.open(path, "wt", encoding="utf-8") as handle:
            handle.write(text)
    else:
        path.write_text(text, encoding="utf-8")
    return path


def paper(i, **fields):
    """A small synthetic record; every one has 'Shared Person' on its byline."""
    row = {
        "id": f"p{i}",
        "title": f"Paper {i} on graph neural networks",
        "authors": [f"Author {i}", "Shared Person"],
        "abstract": f"We study graph neural networks for molecule number {i}. Message passing helps.",
        "keywords": [],
    }
    return row | fields


# -- the whole graph, for checks: read past the store interface (nothing in kg needs these) ---------
ALL_SHARED = "MATCH (p:Paper)-[r:SHARES_CONCEPT]->(q:Paper) RETURN p.id AS p, q.id AS q, r.score AS score, r.concepts AS concepts"
CONCEPT_POSTINGS = "MATCH (p:Paper) OPTIONAL MATCH (p)-[:MENTIONS]->(c:Concept) RETURN p.id AS id, collect(c.key) AS keys"


def _cypher(store, query: str) -> list:
    with store.driver.session(database=store.database) as session:
        return list(session.run(query))


def shared_edges(store) -> dict:
    """Every shares-concept edge of a store: (lower id, higher id) -> (score, shared concept keys)."""
    if hasattr(store, "driver"):
        return {(r["p"], r["q"]): (r["score"], tuple(r["concepts"])) for r in _cypher(store, ALL_SHARED)}
    g = store.graph
    return {
        (g.nodes[u]["id"], g.nodes[v]["id"]): (d["score"], tuple(d["concepts"]))
        for u, v, d in g.edges(data=True)
        if d["type"] == "SHARES_CONCEPT"
    }


def concept_postings(store) -> dict:
    """Paper id -> the concept keys it mentions, for every paper of a store."""
    if hasattr(store, "driver"):
        return {r["id"]: list(r["keys"]) for r in _cypher(store, CONCEPT_POSTINGS)}
    g = store.graph
    return {
        d["id"]: [g.nodes[m]["key"] for m, e in g.succ[n].items() if e["type"] == "MENTIONS"]
        for n, d in g.nodes(data=True)
        if d["kind"] == "paper"
    }


class GraphQLClient:
    """A GraphQL client over a Starlette TestClient: ``gql(query)`` is the data, ``gql.errors(query)`` the messages."""

    def __init__(self, client) -> None:
        self.http = client

    def raw(self, query: str, variables: dict | None = None):
        return self.http.post("/graphql", json={"query": query, "variables": variables or {}})

    def __call__(self, query: str, variables: dict | None = None) -> dict:
        response = self.raw(query, variables)
        assert response.status_code == 200, response.text
        body = response.json()
        assert "errors" not in body, body["errors"]
        return body["data"]

    def errors(self, query: str, variables: dict | None = None) -> list[str]:
        response = self.raw(query, variables)
        assert response.status_code in (200, 400), response.text
        body = response.json()
        assert body.get("errors"), body
        return [e["message"] for e in body["errors"]]


def member(i: int) -> str:
    """A name of its own for each number: 'Member Aaab' for 1 (digits on a byline are footnote marks, not names)."""
    return "Member " + "".join(chr(97 + int(d)) for d in f"{i:04d}").title()
