"""`kg serve` as a user runs it: a real server process on a loopback port."""

from __future__ import annotations

import os
import subprocess
import sys
import time

import httpx

from helpers import free_port



def test_kg_serve_answers_graphql_over_http(seeded_embedded):
    port = free_port()
    env = dict(os.environ, KG_DATA_DIR=str(seeded_embedded.settings.data_dir))
    env.pop("NEO4J_URI", None)
    proc = subprocess.Popen([sys.executable, "-m", "kg.cli", "serve", "--port", str(port)], env=env,
                            stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
    try:
        base = f"http://127.0.0.1:{port}"
        deadline = time.monotonic() + 30
        while True:
            try:
                if httpx.get(f"{base}/healthz", timeout=1).status_code == 200:
                    break
            except httpx.TransportError:
                pass
            assert proc.poll() is None, proc.stdout.read().decode()
            assert time.monotonic() < deadline, "server did not come up"
            time.sleep(0.2)
        r = httpx.post(f"{base}/graphql", json={"query": '{ stats { papers } author(name: "wei lin") { name } }'}, timeout=10)
        assert r.status_code == 200
        assert r.json()["data"] == {"stats": {"papers": 39}, "author": {"name": "Wei Lin"}}
    finally:
        proc.terminate()
        proc.wait(timeout=10)
