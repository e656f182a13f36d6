"""Explorer at scale (issue 9): the most prolific author's page and autocomplete on a big store.

    python bench/explorer.py --data-dir DIR [--neo4j bolt://…] [--runs 5] [--json out.json]

DIR is an embedded store (e.g. the one `bench/ingest.py --workdir W` leaves in
W/kg-data-embedded, the 95,000-paper corpus); with --neo4j the same is measured
on that database. It starts `kg serve`, opens /author/<the author with most
papers> in headless Chromium (Debian's, through Playwright) and reads, from the
browser's performance timeline, the time from navigation start to the moment the
network is drawn and the side panel filled (the page's `kg-ready` mark). Target:
≤ 2 s. It also times `suggest` for 30 prefixes over HTTP on loopback (an upper
bound of the server time; target ≤ 100 ms).
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import statistics
import sys
import time
from pathlib import Path
from urllib.parse import quote

import httpx

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tests"))

PREFIXES = ["s", "sa", "sam", "rob", "robot", "siegw", "graph n", "diffusion", "reinforcement le", "large language",
            "wei", "wei l", "zhang", "transformer", "neural", "opt", "optim", "first-order", "slam", "vision",
            "3d", "point cl", "contrastive", "federated", "bayes", "kernel", "policy gr", "causal", "yann", "hinton"]


def _post(base: str, query: str, **variables) -> dict:
    body = httpx.post(f"{base}/graphql", json={"query": query, "variables": variables}, timeout=120).json()
    if body.get("errors"):
        raise SystemExit(body["errors"])
    return body["data"]


def measure(base: str, runs: int) -> dict:
    from playwright.sync_api import sync_playwright

    top = _post(base, "{ authors(first: 1) { edges { node { id name paperCount } } } }")["authors"]["edges"][0]["node"]
    path = f"/author/{quote(top['id'])}"
    started = time.perf_counter()
    while True:  # the server's warm-up builds the autocomplete index in the background; wait for it
        body = httpx.post(f"{base}/graphql", json={"query": '{ suggest(prefix: "a") { id } }'}, timeout=120).json()
        if not body.get("errors"):
            break
        if time.perf_counter() - started > 300:
            raise SystemExit(body["errors"])
    warm_s = time.perf_counter() - started
    _post(base, "query($n: String!) { author(name: $n) { network(depth: 2, first: 150) { totalNodes } } }", n=top["id"])
    timings = []
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=shutil.which("chromium"), args=["--no-sandbox"])
        for _ in range(runs):
            page = browser.new_page(viewport={"width": 1280, "height": 800})
            page.goto(base + path)
            page.wait_for_function("document.body.dataset.ready === '1'", timeout=60_000)
            ready = page.evaluate("name => performance.getEntriesByName(name)[0].startTime", f"kg-ready:{path}")
            nodes = page.evaluate("[kgExplorer.graph.order, kgExplorer.graph.size]")
            timings.append(ready)
            page.close()
        browser.close()
    suggest = []
    for prefix in PREFIXES:
        started = time.perf_counter()
        _post(base, "query($p: String!) { suggest(prefix: $p, first: 5) { kind id } }", p=prefix)
        suggest.append((time.perf_counter() - started) * 1000)
    return {
        "author": top, "drawn_nodes_edges": nodes, "warm_up_wait_s": round(warm_s, 1),
        "page_ready_ms": {"median": round(statistics.median(timings)), "max": round(max(timings)), "runs": [round(t) for t in timings]},
        "suggest_ms": {"median": round(statistics.median(suggest), 1), "p90": round(sorted(suggest)[int(0.9 * len(suggest))], 1),
                       "max": round(max(suggest), 1)},
    }


def main() -> None:
    from helpers import kg_serving

    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--data-dir", type=Path, required=True)
    parser.add_argument("--neo4j")
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--json", type=Path)
    args = parser.parse_args()
    results = {}
    targets = [("embedded", {"KG_DATA_DIR": str(args.data_dir)})]
    if args.neo4j:
        targets.append(("neo4j", {"KG_DATA_DIR": str(args.data_dir), "NEO4J_URI": args.neo4j}))
    for name, env in targets:
        os.environ.pop("NEO4J_URI", None)
        with kg_serving(env, timeout=600) as base:
            results[name] = measure(base, args.runs)
        print(name, results[name], file=sys.stderr)
    print(json.dumps(results, indent=2))
    if args.json:
        args.json.write_text(json.dumps(results, indent=2) + "\n")


if __name__ == "__main__":
    main()
