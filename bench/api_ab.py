"""A/B: two versions of kg on the same Neo4j, taking turns, for a change to the API's read path.

    python bench/api_ab.py --base REV [--workdir W] [--ops abcde] [--rounds 6] [--json out.json]

The API benchmark (``bench/api.py``) compares kg with @neo4j/graphql; between two of its runs the
machine's speed drifts by 20% or more, so a change of a few percent to kg's own read path is not
seen there. This checks out ``REV`` (any git revision) into a temporary worktree, starts
``kg serve`` from it and from this checkout on one Neo4j (``bench/api.py``'s, kept in ``--workdir``:
ICLR + ICML 2024), and loads both with the same requests, the two taking turns every round
(concurrency 16). Reported per operation and version: req/s (median and each round), p99 and CPU
ms per request (server plus Neo4j), as ``bench/api.py`` measures them.
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import api as B  # noqa: E402  (bench/api.py: its Neo4j, requests and load runs)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--base", required=True, help="the git revision to compare this checkout with")
    parser.add_argument("--data", type=Path, default=B.DEFAULT_DATA)
    parser.add_argument("--workdir", type=Path, default=None, help="bench/api.py's workdir (its Neo4j is reused)")
    parser.add_argument("--ops", default="abcde")
    parser.add_argument("--rounds", type=int, default=6)
    parser.add_argument("--duration", type=float, default=5.0)
    parser.add_argument("--json", type=Path)
    args = parser.parse_args()
    args.requests, args.workers, args.embedded_workers = 50, 1, 2
    workdir = args.workdir or Path(tempfile.mkdtemp(prefix="kg-bench-api-"))
    workdir.mkdir(parents=True, exist_ok=True)
    setup = B.prepare(args, workdir)
    base = Path(tempfile.mkdtemp(prefix="kg-ab-")) / "base"
    subprocess.run(
        ["git", "-C", str(B.ROOT), "worktree", "add", "--detach", str(base), args.base], check=True, capture_output=True
    )
    trees = {f"base {args.base}": base, "this checkout": B.ROOT}
    procs: dict[str, subprocess.Popen] = {}
    urls: dict[str, str] = {}
    try:
        for name, tree in trees.items():
            port = B.free_port()
            procs[name] = subprocess.Popen(  # `python -m` from the tree: that tree's kg
                [*B.KG, "serve", "--port", str(port), "--workers", "1"],
                cwd=tree,
                env=setup["neo_env"],
                stdout=subprocess.DEVNULL,
                stderr=subprocess.DEVNULL,
            )
            urls[name] = f"http://127.0.0.1:{port}/graphql"
        for name in trees:
            B.wait_http(urls[name].replace("/graphql", "/healthz"), procs[name])
        neo4j_pid = int((setup["neo_dir"] / "kg-neo4j.pid").read_text().split()[0])
        params = B.sample(setup["uri"], args.requests)
        results = {}
        for op in args.ops:
            bodies = [json.dumps({"query": B.KG_QUERIES[op], "variables": B.kg_variables(op, p)}) for p in params[op]]
            pids = {n: [procs[n].pid, neo4j_pid] for n in urls}
            for name, run in B.interleaved(urls, {n: bodies for n in urls}, 16, args, pids, workdir).items():
                results[f"{op}/{name}"] = run
                print(
                    f"{op} {name:24} {run['req_s']:8.1f} req/s {run['req_s_by_round']} p99 {run['p99_ms']} ms cpu {run['cpu_ms_per_req']} ms"
                )
        if args.json:
            args.json.write_text(json.dumps(results, indent=2) + "\n")
    finally:
        B.stop_all(procs.values())
        subprocess.run(["git", "-C", str(B.ROOT), "worktree", "remove", "--force", str(base)], check=False, capture_output=True)


if __name__ == "__main__":
    main()
