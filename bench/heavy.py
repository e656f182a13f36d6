"""Heavy requests beside health checks (issue 34): each query the probe found, on both stores.

    python bench/heavy.py [--data ../shared/data] [--workdir DIR] [--json out.json]

ICLR 2024 is ingested into a fresh embedded store and a fresh Neo4j (`kg neo4j start`); each is
served by `kg serve` (one process, the default `KG_REQUEST_DEADLINE` of 10 s). Every query below is
sent on its own (the busiest *Yang Liu* for the networks) while a second client asks `/healthz` every 50 ms. For each: the seconds until
it was answered, how (data, or the error that stopped it), the worst `/healthz` wait meanwhile,
and the server's peak resident memory (VmHWM) after it.

Then fairness: normal clients (wrk, concurrency 16, over operations a, c, d and e of
`bench/api.py`) for `--duration` seconds alone, then again while one abusive client loops the
heaviest query that passes the limits (`ABUSER`, forty co-author networks), each in turn on the
same server. Normal throughput and p99 with and without the abuser, and what the abuser got.

Then the determined abuser (issue 63): eight loops of thirty aliased `network(depth: 2)` each, from another
address (127.0.0.2) and with a new `X-Forwarded-For` in every request, beside the same normal clients.

Targets (issues 34 and 63): every query answered or stopped within the deadline plus 1 s, and no answer
over `KG_MAX_ANSWER_BYTES`; `/healthz` never waits more than 100 ms; beside the abuser (one or eight,
spoofing), normal clients keep >= 50% of their throughput and p99 <= 2x.
"""

from __future__ import annotations

import argparse
import json
import threading
import time
from pathlib import Path

import httpx

from api import DEFAULT_DATA, KG, KG_QUERIES, free_port, kg, kg_variables, load, sample, wait_http  # the API bench's helpers

QUERIES = {
    "network in network (depth 3)": '{ author(id: "$ID") { network(depth: 3) { nodes { network(depth: 3) { totalNodes } } } } }',
    "network in co-authors in network": '{ author(id: "$ID") { network(depth: 3) { nodes { coauthors { author { network(depth: 3) { totalNodes } } } } } } }',
    "inner network(depth: 1), looped by the abuser": "{ authors(first: 100) { edges { node { network(depth: 1) { totalNodes } } } } }",
    "forty networks of depth 3 (within the limits)": "{ authors(first: 40) { edges { node { network(depth: 3) { totalNodes communities } } } } }",
    "co-authors four deep": '{ author(id: "$ID") { coauthors { author { coauthors { author { coauthors { author { coauthors { author { name } } } } } } } } } }',
    "papers of co-authors' co-authors (within the limits)": '{ author(id: "$ID") { papers { authors { papers { authors { papers { id title abstract } } } } } } }',
}
SPOOFERS = 8  # the determined abuser's loops
SPOOF_FROM = "127.0.0.2"  # another loopback address: the normal clients come from 127.0.0.1


ABUSER = "{ authors(first: 40) { edges { node { network(depth: 2) { totalNodes communities } } } } }"
ABUSER_KEY = "abuser"  # the abuser's X-API-Key (the servers get KG_API_KEYS=abuser): one address, two clients


def abuse_loop(url: str, stop: threading.Event, seen: list, headers: dict) -> None:
    with httpx.Client(timeout=120, headers=headers) as client:
        while not stop.is_set():
            started = time.perf_counter()
            response = client.post(url, json={"query": ABUSER})
            seen.append((response.status_code, time.perf_counter() - started))


def spoof_loop(url: str, stop: threading.Event, seen: list, query: str) -> None:
    """One of the determined abuser's loops: from another address, a new X-Forwarded-For in every request."""
    import random

    transport = httpx.HTTPTransport(local_address=SPOOF_FROM)
    with httpx.Client(timeout=120, transport=transport) as client:
        while not stop.is_set():
            started = time.perf_counter()
            forged = f"{random.randrange(1, 224)}.{random.randrange(256)}.{random.randrange(256)}.{random.randrange(1, 255)}"
            headers = {"X-Forwarded-For": forged, "X-Real-IP": forged, "Forwarded": f"for={forged}"}
            response = client.post(url, json={"query": query}, headers=headers)
            seen.append((response.status_code, time.perf_counter() - started))


def spoofing_query(authors: list[str]) -> str:
    """Thirty aliased co-author networks of depth 2, of the busiest authors."""
    return (
        "{ "
        + " ".join(f'a{i}: author(id: "{a}") {{ network(depth: 2) {{ totalNodes }} }}' for i, a in enumerate(authors[:30]))
        + " }"
    )


def fairness(url: str, bodies: list[str], duration: float, pid: int, workdir: Path, abuser_headers: dict, loops=None) -> dict:
    alone = load(url, bodies, 16, duration, [pid], workdir)
    stop, seen = threading.Event(), []
    threads = [
        threading.Thread(target=abuse_loop, args=(url, stop, seen, abuser_headers), daemon=True)
        if loops is None
        else threading.Thread(target=spoof_loop, args=(url, stop, seen, loops), daemon=True)
        for _ in range(1 if loops is None else SPOOFERS)
    ]
    for thread in threads:
        thread.start()
    try:
        beside = load(url, bodies, 16, duration, [pid], workdir)
    finally:
        stop.set()
        for thread in threads:
            thread.join(180)
    statuses: dict[int, int] = {}
    for status, _ in seen:
        statuses[status] = statuses.get(status, 0) + 1
    return {
        "alone": alone,
        "beside_abuser": beside,
        "throughput_kept": round(beside["req_s"] / max(alone["req_s"], 0.1), 2),
        "p99_ratio": round(beside["p99_ms"] / max(alone["p99_ms"], 0.1), 2),
        "abuser": {
            "requests": len(seen),
            "statuses": statuses,
            "seconds_answered": round(sum(t for st, t in seen if st == 200), 1),
        },
    }


def peak_rss_mb(pid: int) -> float:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmHWM:"):
            return round(int(line.split()[1]) / 1024, 1)
    return 0.0


def run_one(url: str, query: str) -> dict:
    health = url.replace("/graphql", "/healthz")
    stop, waits = threading.Event(), []

    def poll() -> None:
        with httpx.Client(timeout=120) as client:
            while not stop.is_set():
                started = time.perf_counter()
                client.get(health)
                waits.append(time.perf_counter() - started)
                time.sleep(0.05)

    poller = threading.Thread(target=poll, daemon=True)
    poller.start()
    started = time.perf_counter()
    with httpx.Client(timeout=600) as client:
        response = client.post(url, json={"query": query})
    seconds = time.perf_counter() - started
    stop.set()
    poller.join(120)
    body = response.json() if response.headers.get("content-type", "").startswith("application/") else {}
    errors = [e["message"] for e in body.get("errors") or []]
    outcome = errors[0][:90] if errors else f"HTTP {response.status_code}, data"
    return {
        "seconds": round(seconds, 2),
        "outcome": outcome,
        "bytes": len(response.content),
        "healthz_worst_ms": round(1000 * max(waits, default=0.0), 1),
        "healthz_checks": len(waits),
    }


def serve_and_measure(env: dict, bodies: list[str], duration: float, workdir: Path) -> dict:
    import subprocess

    port = free_port()
    proc = subprocess.Popen([*KG, "serve", "--port", str(port)], env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        url = f"http://127.0.0.1:{port}/graphql"
        wait_http(url.replace("/graphql", "/healthz"), proc)
        httpx.post(url, json={"query": "{ stats { papers } }"}, timeout=120)  # warm
        people = httpx.post(url, json={"query": '{ people(name: "yang liu") { author { id } paperCount } }'}, timeout=120).json()
        person = max(people["data"]["people"], key=lambda p: p["paperCount"])["author"]["id"]  # the busiest Yang Liu
        out = {}
        for name, query in QUERIES.items():
            out[name] = {**run_one(url, query.replace("$ID", person)), "peak_rss_mb": peak_rss_mb(proc.pid)}
            print(
                f"  {name:<48} {out[name]['seconds']:>7} s  healthz worst {out[name]['healthz_worst_ms']:>7} ms  "
                f"RSS {out[name]['peak_rss_mb']} MB  {out[name]['outcome']}",
                flush=True,
            )
        if duration > 0:
            headers = {"X-API-Key": ABUSER_KEY} if ABUSER_KEY else {}
            out["fairness"] = fairness(url, bodies, duration, proc.pid, workdir, headers)
            print(f"  fairness: {json.dumps(out['fairness'])}", flush=True)
            busiest = httpx.post(url, json={"query": "{ authors(first: 30) { edges { node { id } } } }"}, timeout=120).json()
            ids = [e["node"]["id"] for e in busiest["data"]["authors"]["edges"]]
            out["spoofing"] = fairness(url, bodies, duration, proc.pid, workdir, {}, spoofing_query(ids))
            print(f"  eight spoofing abusers: {json.dumps(out['spoofing'])}", flush=True)
        return out
    finally:
        proc.terminate()
        proc.wait(30)


def main() -> None:
    import os
    import tempfile

    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--data", type=Path, default=DEFAULT_DATA)
    parser.add_argument("--workdir", type=Path, default=None, help="keep the loaded stores here and reuse them")
    parser.add_argument("--duration", type=float, default=20.0, help="seconds of each fairness run (0: skip them)")
    parser.add_argument("--stores", default="embedded,neo4j", help="which stores to measure (comma-separated)")
    parser.add_argument("--json", type=Path)
    args = parser.parse_args()
    workdir = args.workdir or Path(tempfile.mkdtemp(prefix="kg-heavy-"))
    workdir.mkdir(parents=True, exist_ok=True)
    base = {k: v for k, v in os.environ.items() if not k.startswith(("NEO4J_", "KG_"))}
    uri = kg("neo4j", "start", "--port", str(free_port()), "--data", str(workdir / "neo4j"), env=base).strip().splitlines()[-1]
    keys = {"KG_API_KEYS": ABUSER_KEY}
    envs = {"embedded": base | keys | {"KG_DATA_DIR": str(workdir / "embedded")}, "neo4j": base | keys | {"NEO4J_URI": uri}}
    kg("migrate", env=envs["neo4j"])  # a reused workdir gets the migrations kg gained since
    if not (workdir / "loaded").exists():
        for env in envs.values():
            kg("ingest", str(args.data / "papers-iclr2024.jsonl"), env=env)
        (workdir / "loaded").write_text("ok")
    params = sample(uri, 50)
    bodies = [json.dumps({"query": KG_QUERIES[op], "variables": kg_variables(op, p)}) for op in "acde" for p in params[op]]
    results = {}
    try:
        for name, env in envs.items():
            if name not in args.stores.split(","):
                continue
            print(name, flush=True)
            results[name] = serve_and_measure(env, bodies, args.duration, workdir)
    finally:
        kg("neo4j", "stop", "--data", str(workdir / "neo4j"), env=base, check=False)
    if args.json:
        args.json.write_text(json.dumps(results, indent=2) + "\n")


if __name__ == "__main__":
    main()
