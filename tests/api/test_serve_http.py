"""`kg serve` as a user runs it: a real server process on a loopback port."""

from __future__ import annotations

import httpx

from helpers import kg_serving


def test_kg_serve_answers_graphql_over_http(seeded_embedded):
    with kg_serving({"KG_DATA_DIR": str(seeded_embedded.settings.data_dir)}) as base:
        r = httpx.post(f"{base}/graphql", json={"query": '{ stats { papers } author(name: "wei lin") { name } }'}, timeout=10)
        assert r.status_code == 200
        assert r.json()["data"] == {"stats": {"papers": 39}, "author": {"name": "Wei Lin"}}


def test_kg_serve_with_worker_processes(seeded_embedded):
    with kg_serving({"KG_DATA_DIR": str(seeded_embedded.settings.data_dir)}, "--workers", "2") as base:
        for _ in range(4):
            r = httpx.post(f"{base}/graphql", json={"query": "{ stats { papers } }"}, timeout=10)
            assert r.json()["data"] == {"stats": {"papers": 39}}
