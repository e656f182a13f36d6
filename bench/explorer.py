"""Explorer at scale: the first page (the field map), the most prolific author's page, the most common
concept's page, the most cited paper's page and its citation view, rising concepts and autocomplete
on a big store.

    python bench/explorer.py --data-dir DIR [--neo4j bolt://…] [--runs 5] [--json out.json]
    python bench/explorer.py --citations FILE   # write citations-dev.json.gz as kg records with references

DIR is an embedded store (e.g. the one `bench/ingest.py --workdir W` leaves in
W/kg-data-embedded, the 95,000-paper corpus); with --neo4j the same is measured
on that database. It starts `kg serve`, opens /author/<the author with most
papers> in headless Chromium (Debian's, through Playwright) and reads, from the
browser's performance timeline, the time from navigation start to the moment the
network is drawn and the side panel filled (the page's `kg-ready` mark). Target:
≤ 2 s. The same for `/` (the field map; targets: ≤ 1.0 s embedded, ≤ 1.5 s Neo4j) and for
/concept/<the concept with most papers> (≤ 1.0 s embedded), and for /paper/<the paper most cited in
its sources> and its citation view (`?view=citations`, ≤ 1 s each, issue 64; `--paper ID` picks another):
each the median of `--runs` loads after one warm-up load. `--citations FILE` writes the 6,545
papers of `citations-dev.json.gz` with their 7,660 links as references, to ingest (`kg ingest FILE`)
and measure as a store where citations matter. It also times `suggest` for 30 prefixes and `trendingConcepts` (five
calls after a first) over HTTP on loopback (upper bounds of the server time; targets ≤ 100 ms
and ≤ 300 ms).
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

PREFIXES = [
    "s",
    "sa",
    "sam",
    "rob",
    "robot",
    "siegw",
    "graph n",
    "diffusion",
    "reinforcement le",
    "large language",
    "wei",
    "wei l",
    "zhang",
    "transformer",
    "neural",
    "opt",
    "optim",
    "first-order",
    "slam",
    "vision",
    "3d",
    "point cl",
    "contrastive",
    "federated",
    "bayes",
    "kernel",
    "policy gr",
    "causal",
    "yann",
    "hinton",
]


WARMED = '{ suggest(prefix: "a") { id } fieldMap { links { source } } trendingConcepts(first: 1) { score } }'


def _post(base: str, query: str, **variables) -> dict:
    body = httpx.post(f"{base}/graphql", json={"query": query, "variables": variables}, timeout=120).json()
    if body.get("errors"):
        raise SystemExit(body["errors"])
    return body["data"]


MOST_CITED = "{ papers(first: 1, orderBy: CITATIONS) { edges { node { id } } } }"


def citation_records(out: Path) -> None:
    """citations-dev.json.gz as kg JSON Lines: arXiv id, title, abstract, the year the id gives, references."""
    import gzip

    from kg.training.related import arxiv_year

    with gzip.open(ROOT.parent / "shared" / "data" / "citations-dev.json.gz", "rt", encoding="utf-8") as handle:
        found = json.load(handle)
    cites: dict[str, list[str]] = {}
    for citing, cited in found["edges"]:
        cites.setdefault(citing, []).append(cited)
    with out.open("w", encoding="utf-8") as sink:
        for p in found["papers"]:
            arxiv = p["id"].rsplit("v", 1)[0]
            refs = [{"arxiv_id": c.rsplit("v", 1)[0]} for c in cites.get(p["id"], ())]
            row = {"id": f"arxiv:{arxiv}", "arxiv_id": arxiv, "title": p["title"], "abstract": p["abstract"]}
            sink.write(json.dumps(row | {"year": arxiv_year(p["id"]), "references": refs}) + "\n")
    top, n = max(((c, sum(c in v for v in cites.values())) for c in {c for v in cites.values() for c in v}), key=lambda x: x[1])
    print(f"most cited: arxiv:{top.rsplit('v', 1)[0]} ({n} papers here cite it); time it with --paper", file=sys.stderr)


def most_cited(base: str) -> str:
    """The paper with the highest citation count its sources give."""
    return _post(base, MOST_CITED)["papers"]["edges"][0]["node"]["id"]


def measure(base: str, runs: int, paper: str | None = None) -> dict:
    from playwright.sync_api import sync_playwright

    edges = _post(base, "{ authors(first: 1) { edges { node { id name paperCount } } } }")["authors"]["edges"]
    top = edges[0]["node"] if edges else None  # a store of records without bylines (citations-dev) has no author page
    started = time.perf_counter()
    while True:  # the server's warm-up builds the autocomplete index, the field map and the trends in the background
        answer = httpx.post(f"{base}/graphql", json={"query": WARMED}, timeout=120)
        body = answer.json()
        if answer.status_code == 200 and not body.get("errors"):
            break
        if time.perf_counter() - started > 600:
            raise SystemExit(body["errors"])
        time.sleep(int(answer.headers.get("retry-after", 2)))  # asking again at once would spend this client's budget
    warm_s = time.perf_counter() - started
    if top:
        _post(base, "query($n: String!) { author(name: $n) { network(depth: 2, first: 150) { totalNodes } } }", n=top["id"])
    concept = _post(base, "{ concepts(first: 1) { edges { node { id name paperCount } } } }")["concepts"]["edges"][0]["node"]
    paper = _post(base, "query($id: ID!) { paper(id: $id) { id } }", id=paper)["paper"]["id"] if paper else most_cited(base)
    cited = _post(base, "query($id: ID!) { paper(id: $id) { id title citedByCount references { key } } }", id=paper)["paper"]
    pages = {
        "home": "/",
        **({"author": f"/author/{quote(top['id'])}"} if top else {}),
        "concept": f"/concept/{quote(concept['id'])}",
        "paper": f"/paper/{quote(paper)}",
        "citations": f"/paper/{quote(paper)}?view=citations",
    }
    ready: dict[str, list[float]] = {}
    drawn = {}
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=shutil.which("chromium"), args=["--no-sandbox"])
        for name, at in pages.items():
            ready[name] = []
            for run in range(runs + 1):  # the first load warms the server's caches, and is not counted
                page = browser.new_page(viewport={"width": 1280, "height": 800})
                page.goto(base + at)
                page.wait_for_selector(
                    "body[data-ready='1']", state="attached", timeout=120_000
                )  # no eval: the page's CSP forbids it
                if run:
                    mark = f"kg-ready:{at.split('?')[0]}"  # the page marks its path, without the query
                    ready[name].append(page.evaluate("name => performance.getEntriesByName(name)[0].startTime", mark))
                drawn[name] = page.evaluate(
                    "[kgExplorer.graph ? kgExplorer.graph.order : 0, kgExplorer.graph ? kgExplorer.graph.size : 0]"
                )
                page.close()
        browser.close()
    trending = []
    for _ in range(6):
        started = time.perf_counter()
        _post(base, "{ trendingConcepts(first: 10) { score concept { id name } timeline { year papers } } }")
        trending.append((time.perf_counter() - started) * 1000)
    suggest = []
    for prefix in PREFIXES:
        started = time.perf_counter()
        _post(base, "query($p: String!) { suggest(prefix: $p, first: 5) { kind id } }", p=prefix)
        suggest.append((time.perf_counter() - started) * 1000)
    timings = ready.get("author", [])
    return {
        "author": top,
        "concept": concept,
        "paper": {
            "id": cited["id"],
            "title": cited["title"],
            "cited_by": cited["citedByCount"],
            "references": len(cited["references"]),
        },
        "drawn_nodes_edges": drawn.get("author"),
        "warm_up_wait_s": round(warm_s, 1),
        "page_ready_ms": {  # the author page
            "median": round(statistics.median(timings)),
            "max": round(max(timings)),
            "runs": [round(t) for t in timings],
        }
        if timings
        else None,
        "pages_ready_ms": {
            name: {
                "median": round(statistics.median(t)),
                "max": round(max(t)),
                "runs": [round(x) for x in t],
                "drawn_nodes_edges": drawn[name],
            }
            for name, t in ready.items()
        },
        "trending_ms": {"first": round(trending[0], 1), "median_after": round(statistics.median(trending[1:]), 1)},
        "suggest_ms": {
            "median": round(statistics.median(suggest), 1),
            "p90": round(sorted(suggest)[int(0.9 * len(suggest))], 1),
            "max": round(max(suggest), 1),
        },
    }


def main() -> None:
    from helpers import kg_serving

    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--data-dir", type=Path)
    parser.add_argument("--paper", help="the paper whose page and citation view are timed (default: the most cited)")
    parser.add_argument("--citations", type=Path, help="write citations-dev.json.gz as kg records to this file, and stop")
    parser.add_argument("--neo4j")
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--json", type=Path)
    args = parser.parse_args()
    if args.citations:
        citation_records(args.citations)
        return
    if not args.data_dir:
        parser.error("--data-dir is needed")
    results = {}
    # One client loads every page again and again: it measures speed, not fair sharing, so its budget is large.
    common = {"KG_DATA_DIR": str(args.data_dir), "KG_CLIENT_HEAVY_SECONDS": "3600"}
    targets = [("embedded", common)]
    if args.neo4j:
        targets.append(("neo4j", {**common, "NEO4J_URI": args.neo4j}))
    for name, env in targets:
        os.environ.pop("NEO4J_URI", None)
        with kg_serving(env, timeout=600) as base:
            results[name] = measure(base, args.runs, args.paper)
        print(name, results[name], file=sys.stderr)
    print(json.dumps(results, indent=2))
    if args.json:
        args.json.write_text(json.dumps(results, indent=2) + "\n")


if __name__ == "__main__":
    main()
