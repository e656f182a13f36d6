"""Spark ingest benchmark (issue 13): the scale corpus on local[1] and local[2], and a sizing table.

    python bench/spark.py [FILE] [--masters local[1],local[2]] [--workdir DIR] [--neo4j] [--json out.json]

FILE defaults to ../shared/data/papers-paperlists.jsonl.gz (95,177 papers). Each master runs
`kg ingest --engine spark --output parquet` over the whole file in a fresh Spark session (the
Parquet tables go to the work folder: the engine's own cost, without a database's). With
--neo4j, one more run with the last master writes into a throw-away local Neo4j through the
connector, and its time is reported apart.

It reports wall time, papers/s and papers per core-second for each master, the speed-up from
the first to the second, and a projection for 2.4 M papers (arXiv's size) on 8, 32 and 128
cores. The projection is the measured per-core rate times the cores, times the parallel
efficiency measured here from 1 to 2 cores, held constant: a first-order estimate, not a
measurement of a cluster.
"""

from __future__ import annotations

import argparse
import json
import re
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
DEFAULT_FILE = ROOT.parent / "shared" / "data" / "papers-paperlists.jsonl.gz"
PROJECT_PAPERS = 2_400_000


def _cores(master: str) -> int:
    found = re.fullmatch(r"local\[(\d+)\]", master)
    if not found:
        raise SystemExit(f"--masters takes local[N] masters, not {master!r}")
    return int(found.group(1))


def run_once(path: Path, master: str, workdir: Path, env_extra: dict[str, str], output: str) -> dict:
    stages = workdir / f"stages-{_cores(master)}-{output}"
    shutil.rmtree(stages, ignore_errors=True)
    cmd = [sys.executable, "-m", "kg.cli", "ingest", "--engine", "spark", "--master", master, "--output", output, str(path)]
    if output == "parquet":
        cmd[-1:-1] = ["--stages", str(stages)]
    env = dict(__import__("os").environ, **env_extra)
    started = time.perf_counter()
    done = subprocess.run(cmd, capture_output=True, text=True, env=env, cwd=workdir)
    seconds = time.perf_counter() - started
    if done.returncode != 0:
        raise SystemExit(f"{' '.join(cmd)} failed:\n{done.stdout[-3000:]}\n{done.stderr[-3000:]}")
    papers = int(re.search(r"(\d+) papers,", done.stdout).group(1))
    print(done.stdout.strip(), flush=True)
    return {
        "master": master,
        "cores": _cores(master),
        "output": output,
        "seconds": round(seconds, 1),
        "papers": papers,
        "papers_per_s": round(papers / seconds, 2),
        "papers_per_core_s": round(papers / seconds / _cores(master), 2),
        "summary": done.stdout.strip().splitlines(),
    }


def projection(runs: list[dict]) -> list[dict]:
    one, two = runs[0], runs[1]
    efficiency = (two["papers_per_s"] / one["papers_per_s"]) / (two["cores"] / one["cores"])
    rate = one["papers_per_core_s"]
    return [
        {"cores": n, "efficiency": round(efficiency, 2), "hours": round(PROJECT_PAPERS / (rate * n * efficiency) / 3600, 2)}
        for n in (8, 32, 128)
    ]


def _neo4j_env(workdir: Path) -> tuple[dict[str, str], Path]:
    data = workdir / "neo4j"
    out = subprocess.run(
        [sys.executable, "-m", "kg.cli", "neo4j", "start", "--port", "7699", "--data", str(data)],
        capture_output=True,
        text=True,
        check=True,
    )
    uri = out.stdout.strip().splitlines()[-1]
    return {"NEO4J_URI": uri}, data


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("file", nargs="?", type=Path, default=DEFAULT_FILE)
    parser.add_argument("--masters", default="local[1],local[2]")
    parser.add_argument("--workdir", type=Path)
    parser.add_argument("--neo4j", action="store_true", help="also time a load into a throw-away local Neo4j")
    parser.add_argument("--json", type=Path)
    args = parser.parse_args()
    workdir = args.workdir or Path(tempfile.mkdtemp(prefix="kg-bench-spark-"))
    workdir.mkdir(parents=True, exist_ok=True)
    masters = args.masters.split(",")
    runs = [run_once(args.file.resolve(), m, workdir, {}, "parquet") for m in masters]
    result = {"file": args.file.name, "runs": runs}
    if len(runs) >= 2:
        result["speedup"] = round(runs[1]["papers_per_s"] / runs[0]["papers_per_s"], 2)
        result["projection_2_4M"] = projection(runs)
    if args.neo4j:
        env, data = _neo4j_env(workdir)
        try:
            result["neo4j_run"] = run_once(args.file.resolve(), masters[-1], workdir, env, "neo4j")
        finally:
            subprocess.run([sys.executable, "-m", "kg.cli", "neo4j", "stop", "--data", str(data)], capture_output=True)
    print("| master | wall | papers/s | papers per core-second |\n|---|---|---|---|")
    for r in runs + ([result["neo4j_run"]] if "neo4j_run" in result else []):
        print(
            f"| {r['master']} ({r['output']}) | {r['seconds']:.0f} s | {r['papers_per_s']:.1f} | {r['papers_per_core_s']:.1f} |"
        )
    if "speedup" in result:
        print(f"\nspeed-up {masters[0]} -> {masters[1]}: {result['speedup']}x")
        print("\n| cores | projected hours for 2.4 M papers |\n|---|---|")
        for p in result["projection_2_4M"]:
            print(f"| {p['cores']} | {p['hours']} (efficiency {p['efficiency']}) |")
    if args.json:
        args.json.write_text(json.dumps(result, indent=2) + "\n")


if __name__ == "__main__":
    main()
