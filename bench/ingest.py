"""Ingest benchmark (issue 10): a whole corpus into the embedded store and into a local Neo4j.

    python bench/ingest.py [FILE] [--workdir DIR] [--stores embedded,neo4j] [--neo4j bolt://…] [--json out.json]

FILE defaults to ../shared/data/papers-paperlists.jsonl.gz (95,177 papers). Each
store gets a fresh folder (or database), and `kg ingest FILE` runs as a user runs
it. The benchmark samples the memory of the ingest with its worker processes
(summed PSS: pages a forked worker shares with the ingest count once) and, apart,
of the Neo4j server. It then reports:

- wall time, papers/s and peak memory (PSS) of each ingest (targets: ≤ 30 min and ≤ 4 GB each);
- the stats of both stores, which must be identical, beside an independent count
  of the file's papers, authorships and distinct author names;
- answers of both stores to the contract's queries for a sample of papers and authors;
- how long the embedded `kg serve` takes to answer /healthz on that store (target ≤ 10 s);
- the heavy contract query (graphql/operations/heavy_paper_page.graphql) on each store
  (median of 5, after a warm-up), to compare with its latency on ICLR 2024 (`--file` it alone);
- adding a 100-paper file (target ≤ 30 s on each store).

Without --neo4j it starts a throw-away server with `kg neo4j start` in the work folder.
"""

from __future__ import annotations

import argparse
import gzip
import itertools
import json
import os
import re
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

import httpx

ROOT = Path(__file__).resolve().parent.parent
DATA = ROOT.parent / "shared" / "data"
HEAVY = (ROOT / "graphql" / "operations" / "heavy_paper_page.graphql").read_text(encoding="utf-8")
sys.path.insert(0, str(ROOT / "tests"))

from kg.ingest import STAGES  # noqa: E402


def _tree_rss(pid: int) -> int:
    """Memory of a process and all its descendants: the sum of their proportional set sizes (PSS).

    PSS splits each shared page among the processes that map it, so the extraction
    workers (forked from the ingest) are not counted again for the pages they share
    with it, as a sum of RSS would.
    """
    total, todo = 0, [pid]
    while todo:
        p = todo.pop()
        try:
            with open(f"/proc/{p}/smaps_rollup") as handle:
                for line in handle:
                    if line.startswith("Pss:"):
                        total += int(line.split()[1]) * 1024
            for tid in os.listdir(f"/proc/{p}/task"):
                with open(f"/proc/{p}/task/{tid}/children") as handle:
                    todo.extend(int(c) for c in handle.read().split())
        except (FileNotFoundError, ProcessLookupError):
            continue
    return total


class Sampler:
    """Peak RSS of process trees, sampled every 0.2 s in a thread."""

    def __init__(self, pids: dict[str, int]) -> None:
        self.pids, self.peak = pids, {name: 0 for name in pids}
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, daemon=True)
        self._thread.start()

    def _run(self) -> None:
        while not self._stop.is_set():
            for name, pid in self.pids.items():
                self.peak[name] = max(self.peak[name], _tree_rss(pid))
            time.sleep(0.2)

    def stop(self) -> dict[str, int]:
        self._stop.set()
        self._thread.join()
        return self.peak


def _env(store: str, data_dir: Path, uri: str | None) -> dict[str, str]:
    env = dict(os.environ, KG_DATA_DIR=str(data_dir))
    env.pop("NEO4J_URI", None)
    if store == "neo4j":
        env["NEO4J_URI"] = uri
    return env


def _kg(*args: str, env: dict[str, str], log: Path | None = None, watch: dict[str, int] | None = None) -> dict:
    started = time.perf_counter()
    out = log.open("w") if log else subprocess.DEVNULL
    proc = subprocess.Popen([sys.executable, "-m", "kg.cli", *args], env=env, stdout=out, stderr=subprocess.STDOUT)
    sampler = Sampler({"kg": proc.pid, **(watch or {})})
    code = proc.wait()
    peak = sampler.stop()
    if code:
        raise SystemExit(f"kg {' '.join(args)} failed ({code}); see {log}")
    return {"seconds": round(time.perf_counter() - started, 1), **{f"peak_pss_{k}_mb": round(v / 2**20) for k, v in peak.items()}}


CHUNK_LINE = re.compile(r"chunk of (\d+) records, (\d+) new papers \(store had (\d+)\): ([\d.]+)s; (.*)$")


def chunk_stages(log: Path) -> list[dict]:
    """Each committed chunk's time and where it went, from `kg ingest -v`'s lines: how the cost grows with the store."""
    chunks = []
    for line in log.read_text(encoding="utf-8").splitlines():
        if m := CHUNK_LINE.search(line):
            stages = dict(part.rsplit(" ", 1) for part in m[5].split(", "))
            chunks.append(
                {"records": int(m[1]), "new": int(m[2]), "store_had": int(m[3]), "seconds": float(m[4])}
                | {k: float(v.rstrip("s")) for k, v in stages.items()}
            )
    return chunks


def independent_count(path: Path) -> dict:
    """Counted straight from the file, without kg: distinct paper ids, authorships, author names (case/space-folded)."""
    opener = gzip.open if path.suffix == ".gz" else open
    ids, authorships, names = set(), 0, set()
    with opener(path, "rt", encoding="utf-8") as handle:
        for line in handle:
            if not line.strip():
                continue
            obj = json.loads(line)
            if obj["id"] in ids:
                continue
            ids.add(obj["id"])
            folded = {" ".join(a.split()).casefold() for a in obj.get("authors") or [] if a.strip()}
            authorships += len(folded)
            names |= folded
    return {"papers": len(ids), "authorships": authorships, "author_names": len(names)}


def _stats(env: dict[str, str]) -> dict:
    out = subprocess.run([sys.executable, "-m", "kg.cli", "stats"], env=env, capture_output=True, text=True, check=True).stdout
    return {line[:22].strip(): int(line[22:]) for line in out.splitlines() if line.strip()}


def _serve(env: dict[str, str]):
    from helpers import kg_serving

    overrides = {k: v for k, v in env.items() if k in ("KG_DATA_DIR", "NEO4J_URI")}
    return kg_serving(overrides, timeout=600)


def _post(base: str, query: str, variables: dict | None = None) -> dict:
    r = httpx.post(f"{base}/graphql", json={"query": query, "variables": variables or {}}, timeout=120)
    r.raise_for_status()
    body = r.json()
    if body.get("errors"):
        raise SystemExit(f"GraphQL errors: {body['errors']}")
    return body["data"]


SAMPLE_PAPER = """query($id: ID!) { paper(id: $id) { id label venue year citations
  authors { name } areas { path } concepts { name } related(first: 5) { score paper { id } sharedConcepts { name } } } }"""
SAMPLE_AUTHOR = """query($name: String!) { people(name: $name) { paperCount hint author { id name paperCount
  papers { id } coauthors { jointPapers author { name } } } } }"""


def sample_answers(base: str, paper_ids: list[str], names: list[str]) -> list:
    return [_post(base, SAMPLE_PAPER, {"id": i}) for i in paper_ids] + [_post(base, SAMPLE_AUTHOR, {"name": n}) for n in names]


def heavy_latency(base: str, n: int = 10, runs: int = 5) -> float:
    _post(base, HEAVY, {"n": n})
    times = []
    for _ in range(runs):
        started = time.perf_counter()
        _post(base, HEAVY, {"n": n})
        times.append(time.perf_counter() - started)
    return round(statistics.median(times) * 1000, 1)


def _sample(path: Path, k: int = 25) -> tuple[list[str], list[str]]:
    """Every 1000th paper id (the first k) and the authors of the first papers."""
    opener = gzip.open if path.suffix == ".gz" else open
    ids, names = [], []
    with opener(path, "rt", encoding="utf-8") as handle:
        for i, line in enumerate(handle):
            if i % 1000 == 0 and len(ids) < k:
                obj = json.loads(line)
                ids.append(obj["id"])
                names.extend(obj["authors"][:1])
    return ids, names[:k]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("path", type=Path, nargs="?", default=DATA / "papers-paperlists.jsonl.gz")
    parser.add_argument("--workdir", type=Path, help="where stores and logs go (default: a temporary folder)")
    parser.add_argument("--stores", default="embedded,neo4j")
    parser.add_argument("--neo4j", help="Bolt URI of a throw-away Neo4j (it is wiped); default: start one")
    parser.add_argument(
        "--extra", type=Path, default=DATA / "papers-iclr2024.jsonl", help="the first 100 papers of it are added at the end"
    )
    parser.add_argument("--json", type=Path)
    args = parser.parse_args()
    work = args.workdir or Path(tempfile.mkdtemp(prefix="kg-bench-ingest-"))
    work.mkdir(parents=True, exist_ok=True)
    stores = args.stores.split(",")
    extra = work / "extra-100.jsonl"
    with args.extra.open(encoding="utf-8") as handle:
        extra.write_text("".join(itertools.islice(handle, 100)), encoding="utf-8")

    uri, neo4j_pid, started_here = args.neo4j, None, False
    if "neo4j" in stores and not uri:
        out = subprocess.run(
            [sys.executable, "-m", "kg.cli", "neo4j", "start", "--port", "7697", "--data", str(work / "neo4j")],
            capture_output=True,
            text=True,
            check=True,
        ).stdout
        uri, started_here = out.strip().splitlines()[-1], True
    if "neo4j" in stores:
        pid_file = work / "neo4j" / "kg-neo4j.pid"
        neo4j_pid = int(pid_file.read_text().split()[0]) if pid_file.exists() else None
        from neo4j import GraphDatabase
        from neo4j_support import auth_for, wipe

        driver = GraphDatabase.driver(uri, auth=auth_for(uri))
        wipe(driver)
        driver.close()
        subprocess.run([sys.executable, "-m", "kg.cli", "migrate"], env=_env("neo4j", work / "unused", uri), check=True)

    results: dict = {"file": args.path.name, "independent_count": independent_count(args.path)}
    print("independent count:", results["independent_count"], file=sys.stderr)
    ids, names = _sample(args.path)
    answers = {}
    try:
        for store in stores:
            env = _env(store, work / f"kg-data-{store}", uri)
            watch = {"neo4j": neo4j_pid} if store == "neo4j" and neo4j_pid else {}
            r = _kg("ingest", "-v", str(args.path), env=env, log=work / f"ingest-{store}.log", watch=watch)
            r["chunks"] = chunk_stages(work / f"ingest-{store}.log")
            r["stage_seconds"] = {k: round(sum(c[k] for c in r["chunks"]), 1) for k in ("seconds", *STAGES)}
            r["stats"] = _stats(env)
            r["papers_per_s"] = round(r["stats"]["papers"] / r["seconds"], 1)
            print(f"{store} ingest:", r, file=sys.stderr)
            started = time.perf_counter()
            with _serve(env) as base:
                r["serve_ready_s"] = round(time.perf_counter() - started, 1)
                r["heavy_query_ms"] = heavy_latency(base)
                answers[store] = sample_answers(base, ids, names)
            r["add_100"] = _kg("ingest", "-v", str(extra), env=env, log=work / f"add-{store}.log")
            r["add_100"]["chunks"] = chunk_stages(work / f"add-{store}.log")
            print(f"{store} after:", r, file=sys.stderr)
            results[store] = r
    finally:
        if started_here:
            subprocess.run([sys.executable, "-m", "kg.cli", "neo4j", "stop", "--data", str(work / "neo4j")], capture_output=True)
    if len(answers) == 2:
        a, b = answers.values()
        results["same_answers"] = f"{sum(x == y for x, y in zip(a, b))}/{len(a)}"
        results["same_stats"] = results["embedded"]["stats"] == results["neo4j"]["stats"]
    print(json.dumps(results, indent=2))
    if args.json:
        args.json.write_text(json.dumps(results, indent=2) + "\n")


if __name__ == "__main__":
    main()
