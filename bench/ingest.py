"""Ingest benchmark: a conference file into the embedded store and into Neo4j.

    python bench/ingest.py ../shared/data/papers-iclr2024.jsonl [--neo4j bolt://127.0.0.1:7687] [--json out.json]

Against Neo4j it WIPES the database it is given (use a throw-away server from
`kg neo4j start --data .kg/bench-neo4j --port 7691`). It also reports the Cypher
statements the heaviest contract query costs at 10 and at 100 papers.
Targets (issue 2 and 3): embedded under 120 s, Neo4j under 60 s for ICLR 2024 on 2 cores.
"""

from __future__ import annotations

import argparse
import json
import sys
import tempfile
import time
from pathlib import Path

from fastapi.testclient import TestClient

from kg.api.app import create_app
from kg.config import Settings
from kg.service import KGService
from kg.store.embedded import EmbeddedStore

HEAVY = (Path(__file__).resolve().parent.parent / "graphql" / "operations" / "heavy_paper_page.graphql").read_text(encoding="utf-8")


def run(svc: KGService, path: Path) -> dict:
    started = time.perf_counter()
    summary = svc.ingest([path])
    seconds = time.perf_counter() - started
    s = summary.after
    return {"seconds": round(seconds, 1), "papers": s.papers, "authors": s.authors, "concepts": s.concepts,
            "coauthor_pairs": s.coauthor_edges, "shares_concept_pairs": s.shared_concept_edges,
            "edges_per_paper": round(2 * s.shared_concept_edges / max(s.papers, 1), 1)}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("path", type=Path)
    parser.add_argument("--neo4j", help="Bolt URI of a throw-away Neo4j (it is wiped)")
    parser.add_argument("--json", type=Path)
    args = parser.parse_args()
    results = {}
    with tempfile.TemporaryDirectory() as tmp:
        settings = Settings(KG_DATA_DIR=Path(tmp) / "kg-data")
        results["embedded"] = run(KGService(EmbeddedStore(settings.data_dir), settings), args.path)
    print("embedded:", results["embedded"], file=sys.stderr)
    if args.neo4j:
        from kg.store.neo4j.migrate import apply_migrations
        from kg.store.neo4j.store import Neo4jStore

        settings = Settings(NEO4J_URI=args.neo4j)
        store = Neo4jStore.from_settings(settings)
        with store.driver.session(database=settings.neo4j_database) as session:
            session.run("MATCH (n) WHERE NOT n:KgMigration CALL (n) { DETACH DELETE n } IN TRANSACTIONS OF 5000 ROWS").consume()
        apply_migrations(store.driver, settings.neo4j_database)
        svc = KGService(store, settings)
        results["neo4j"] = run(svc, args.path)
        with TestClient(create_app(svc)) as client:
            for n in (10, 100):
                before = store.queries_run
                client.post("/graphql", json={"query": HEAVY, "variables": {"n": n}}).raise_for_status()
                results["neo4j"][f"cypher_per_heavy_request_{n}"] = store.queries_run - before
        store.close()
        print("neo4j:", results["neo4j"], file=sys.stderr)
    print(json.dumps(results, indent=2))
    if args.json:
        args.json.write_text(json.dumps(results, indent=2) + "\n")


if __name__ == "__main__":
    main()
