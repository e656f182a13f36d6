"""API benchmark: kg on Neo4j, kg embedded, and @neo4j/graphql on the same Neo4j, side by side in one run.

    python bench/api.py [--data ../shared/data] [--workdir DIR] [--duration 5] [--rounds 3] [--json bench/results-api.json]

What it does, on this machine:
1. starts a throw-away Neo4j (`kg neo4j start`), migrates it and ingests ICLR 2024 + ICML 2024
   into it and into an embedded store (kept in --workdir: a second run reuses them);
2. installs the peer (`../shared/peers/neo4j-graphql`, @neo4j/graphql 7.6.3 on Apollo) with npm
   into the workdir and starts it on that Neo4j; starts `kg serve` on each store;
3. for five operations, 50 varied requests each, checks that the three servers give the same
   answers (after putting both schemas' shapes into one form; unordered lists compared sorted);
4. loads each server with `wrk` (apt) at concurrency 1 and 16, cycling through the 50 requests,
   and reports req/s, p50, p99, errors (non-2xx, socket errors, GraphQL errors) and CPU ms per
   request of the server process plus the Neo4j process (read from /proc). Each cell is
   `--rounds` (3) runs of `--duration` (5) seconds per server, the servers taking turns in a
   rotated order, and reports the medians: on a shared machine whose speed drifts, a single run
   per server in sequence compared the servers at different speeds;
5. abuse: on each kg server, `--mix-duration` (60) seconds at concurrency 32 over all five
   operations' requests, once alone and once while another client keeps sending abusive
   requests (the 93-byte nested chain, 100 aliases of a heavy field, a 200 KB body, a
   2,000-word text filter). Reports the mix's errors and p99 in both runs, and what happened to
   every abusive request.

Operations: (a) a paper with authors, concepts and areas; (b) an author with co-authors, joint
papers and their papers; (c) a concept's first 10 papers with authors; (d) a page of 20 papers
with authors and concepts; (e) a paper's 10 related papers with shared concepts; (f) an author by name (a name one person bears), with co-authors,
joint papers and each co-author's papers (issue 65).
Targets (issue 8): on every operation kg on Neo4j at least as good as the peer (CPU per request,
req/s at 16, p99) and kg embedded at least 2x the peer's req/s; under abuse, zero errors in the
mix, every abusive request refused or cut off, and the mix's p99 within 2x of its p99 alone.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import re
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

import httpx

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tests"))
DEFAULT_DATA = ROOT.parent / "shared" / "data"
PEER_SOURCE = ROOT.parent / "shared" / "peers" / "neo4j-graphql"
KG = [sys.executable, "-m", "kg.cli"]
CLK = os.sysconf("SC_CLK_TCK")

MENTIONS_PROPERTIES = "Mentions @relationshipProperties { weight: Float, minor: Boolean }"
KG_QUERIES = {
    "a": "query($id: ID!) { paper(id: $id) { id title authors { name } concepts { id } areas { path } } }",
    "b": "query($id: ID!) { author(id: $id) { name coauthors { jointPapers author { name } } papers { id } } }",
    "c": "query($name: String!) { concept(name: $name) { papers(first: 10) { edges { node { id authors { name } } } } } }",
    "d": "query($after: String) { papers(first: 20, after: $after) { edges { node { id authors { name } concepts { id } } } } }",
    "e": "query($id: ID!) { paper(id: $id) { related(first: 10) { score paper { id } sharedConcepts { id } } } }",
    "f": "query($name: String!) { author(name: $name) { id name coauthors { jointPapers author { name papers { id } } } } }",
}
PEER_QUERIES = {
    "a": "query($id: ID!) { papers(where: {id: {eq: $id}}) { id title authorsConnection(sort: [{edge: {position: ASC}}]) "
    "{ edges { node { name } } } conceptsConnection(where: {edge: {minor: {eq: false}}}) { edges { node { key } } } "
    "areas { path } } }",
    "b": "query($key: String!) { authors(where: {key: {eq: $key}}) { name coauthorsConnection { edges { properties { papers } "
    "node { name } } } papers { id } } }",
    "c": "query($key: String!) { concepts(where: {key: {eq: $key}}) { papersConnection(first: 10, sort: [{edge: {weight: DESC}}, "
    "{node: {id: ASC}}]) { edges { node { id authorsConnection(sort: [{edge: {position: ASC}}]) { edges { node { name } } } } } } } }",
    "d": "query($offset: Int!) { papers(limit: 20, offset: $offset, sort: [{id: ASC}]) { id "
    "authorsConnection(sort: [{edge: {position: ASC}}]) { edges { node { name } } } "
    "conceptsConnection(where: {edge: {minor: {eq: false}}}) { edges { node { key } } } } }",
    "e": "query($id: ID!) { papers(where: {id: {eq: $id}}) { relatedConnection(first: 10, sort: [{edge: {score: DESC}}, "
    "{node: {id: ASC}}]) { edges { properties { score concepts } node { id } } } } }",
    "f": "query($key: String!) { authors(where: {key: {eq: $key}}) { key name coauthorsConnection(sort: [{edge: {papers: DESC}}]) "
    "{ edges { properties { papers } node { name papers(sort: [{id: ASC}]) { id } } } } } }",
}
OPS = "abcdef"


# -- one form for both schemas' answers -----------------------------------------------------------
def norm_kg(op: str, data: dict):
    if op == "a":
        p = data["paper"]
        return (
            p["id"],
            p["title"],
            [a["name"] for a in p["authors"]],
            sorted(c["id"] for c in p["concepts"]),
            sorted(a["path"] for a in p["areas"]),
        )
    if op == "b":
        a = data["author"]
        return (
            a["name"],
            sorted((c["author"]["name"], c["jointPapers"]) for c in a["coauthors"]),
            sorted(p["id"] for p in a["papers"]),
        )
    if op == "c":
        return [(e["node"]["id"], [a["name"] for a in e["node"]["authors"]]) for e in data["concept"]["papers"]["edges"]]
    if op == "d":
        return [
            (e["node"]["id"], [a["name"] for a in e["node"]["authors"]], sorted(c["id"] for c in e["node"]["concepts"]))
            for e in data["papers"]["edges"]
        ]
    if op == "f":
        a = data["author"]
        return (
            a["id"],
            a["name"],
            sorted(
                (c["author"]["name"], c["jointPapers"], sorted(p["id"] for p in c["author"]["papers"])) for c in a["coauthors"]
            ),
        )
    return sorted(
        (r["paper"]["id"], round(r["score"], 4), sorted(c["id"] for c in r["sharedConcepts"])) for r in data["paper"]["related"]
    )


def norm_peer(op: str, data: dict):
    names = lambda conn: [e["node"]["name"] for e in conn["edges"]]  # noqa: E731
    if op == "a":
        [p] = data["papers"]
        return (
            p["id"],
            p["title"],
            names(p["authorsConnection"]),
            sorted(e["node"]["key"] for e in p["conceptsConnection"]["edges"]),
            sorted(a["path"] for a in p["areas"]),
        )
    if op == "b":
        [a] = data["authors"]
        return (
            a["name"],
            sorted((e["node"]["name"], e["properties"]["papers"]) for e in a["coauthorsConnection"]["edges"]),
            sorted(p["id"] for p in a["papers"]),
        )
    if op == "c":
        [c] = data["concepts"]
        return [(e["node"]["id"], names(e["node"]["authorsConnection"])) for e in c["papersConnection"]["edges"]]
    if op == "f":
        [a] = data["authors"]
        return (
            a["key"],
            a["name"],
            sorted(
                (e["node"]["name"], e["properties"]["papers"], [p["id"] for p in e["node"]["papers"]])
                for e in a["coauthorsConnection"]["edges"]
            ),
        )
    if op == "d":
        return [
            (p["id"], names(p["authorsConnection"]), sorted(e["node"]["key"] for e in p["conceptsConnection"]["edges"]))
            for p in data["papers"]
        ]
    [p] = data["papers"]
    return sorted(
        (e["node"]["id"], round(e["properties"]["score"], 4), sorted(e["properties"]["concepts"]))
        for e in p["relatedConnection"]["edges"]
    )


# -- processes ------------------------------------------------------------------------------------
def peer_env(uri: str) -> dict:
    """What the peer needs to log in (the same user and password kg uses; `kg neo4j env` prints them)."""
    from neo4j_support import auth_for

    user, password = auth_for(uri)
    return {"NEO4J_URI": uri, "NEO4J_USERNAME": user, "NEO4J_PASSWORD": password}


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def kg(*args: str, env: dict, check: bool = True) -> str:
    done = subprocess.run([*KG, *args], env=env, capture_output=True, text=True)
    if check and done.returncode != 0:
        raise SystemExit(f"kg {' '.join(args)} failed:\n{done.stderr}")
    return done.stdout


def wait_http(url: str, proc: subprocess.Popen, timeout: float = 120) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            raise SystemExit(f"{proc.args} exited with {proc.returncode}")
        try:
            httpx.get(url, timeout=2)
            return
        except httpx.TransportError:
            time.sleep(0.5)
    raise SystemExit(f"{url} did not answer within {timeout:.0f}s")


def cpu_seconds(pid: int) -> float:
    """utime + stime of the process and its live descendants (the workers of `kg serve --workers N`)."""
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except FileNotFoundError:
        return 0.0
    children = [int(c) for task in Path(f"/proc/{pid}/task").iterdir() for c in (task / "children").read_text().split()]
    return (int(fields[11]) + int(fields[12])) / CLK + sum(cpu_seconds(c) for c in children)


# -- load --------------------------------------------------------------------------------------------
_LUA = """
local bodies = %s
local i = 0
errs = 0
local threads = {}
function setup(thread) table.insert(threads, thread) end
function init(args) i = math.random(#bodies) end
request = function()
  i = i %% #bodies + 1
  return wrk.format("POST", nil, {["Content-Type"] = "application/json"}, bodies[i])
end
response = function(status, headers, body)
  if status ~= 200 or string.find(body, '"errors"', 1, true) then errs = errs + 1 end
end
done = function(summary, latency, requests)
  local e = 0
  for _, t in ipairs(threads) do e = e + t:get("errs") end
  io.write(string.format("KG_BENCH %%d %%d %%d %%d %%d\\n", summary.requests, e, latency:percentile(50), latency:percentile(99),
    summary.errors.connect + summary.errors.read + summary.errors.write + summary.errors.timeout + summary.errors.status))
end
"""


def lua_string(text: str) -> str:
    return "[==[" + text + "]==]"


def load(url: str, bodies: list[str], concurrency: int, duration: float, pids: list[int], workdir: Path) -> dict:
    script = workdir / "load.lua"
    script.write_text(_LUA % ("{" + ",".join(lua_string(b) for b in bodies) + "}"))
    before = sum(cpu_seconds(p) for p in pids)
    out = subprocess.run(
        ["wrk", f"-t{min(concurrency, 2)}", f"-c{concurrency}", f"-d{duration:g}s", "--timeout", "10s", "-s", str(script), url],
        capture_output=True,
        text=True,
        check=True,
    ).stdout
    cpu = sum(cpu_seconds(p) for p in pids) - before
    requests, gql_errors, p50, p99, socket_errors = map(int, re.search(r"KG_BENCH (\d+) (\d+) (\d+) (\d+) (\d+)", out).groups())
    return {
        "req_s": round(requests / duration, 1),
        "p50_ms": round(p50 / 1000, 1),
        "p99_ms": round(p99 / 1000, 1),
        "errors": gql_errors + socket_errors,
        "graphql_or_http_errors": gql_errors,
        "socket_errors": socket_errors,
        "cpu_ms_per_req": round(1000 * cpu / max(requests, 1), 2),
        "requests": requests,
    }


def interleaved(urls: dict, bodies: dict, concurrency: int, args, pids: dict, workdir: Path) -> dict:
    """Each server loaded in turn, ``--rounds`` times, the order rotated every round, so that a slow
    spell of a shared machine falls on every server alike. Per server: the median over the rounds
    of req/s, p50, p99 and CPU per request; errors and requests summed over all rounds."""
    names = list(urls)
    runs: dict[str, list[dict]] = {name: [] for name in names}
    for r in range(args.rounds):
        for name in names[r % len(names) :] + names[: r % len(names)]:
            runs[name].append(load(urls[name], bodies[name], concurrency, args.duration, pids[name], workdir))
    out = {}
    for name, rs in runs.items():
        median = {k: sorted(x[k] for x in rs)[len(rs) // 2] for k in ("req_s", "p50_ms", "p99_ms", "cpu_ms_per_req")}
        summed = {k: sum(x[k] for x in rs) for k in ("errors", "graphql_or_http_errors", "socket_errors", "requests")}
        out[name] = median | summed | {"req_s_by_round": [x["req_s"] for x in rs]}
    return out


# -- abuse -------------------------------------------------------------------------------------------
ABUSE = {
    "93-byte chain": {"query": "{papers(first:100){edges{node{authors{papers{authors{papers{authors{papers{abstract}}}}}}}}}}"},
    "100 aliases": {
        "query": "{"
        + " ".join(f"a{i}: papers(first: 100) {{ edges {{ node {{ authors {{ papers {{ id }} }} }} }} }}" for i in range(100))
        + "}"
    },
    "200 KB body": {"query": "{ stats { papers } }", "variables": {"pad": "x" * 200_000}},
    "2,000-word text filter": {
        "query": "query($t: String!) { papers(filter: {text: $t}) { totalCount } }",
        "variables": {"t": " ".join(f"word{i}" for i in range(2_000))},
    },
    # issue 34's probe (bench/heavy.py times each one alone, with /healthz beside it)
    "network in network": {
        "query": "{ authors(first: 1) { edges { node { network(depth: 3) { nodes { network(depth: 3) { totalNodes } } } } } } }"
    },
    "network in co-authors in network": {
        "query": "{ authors(first: 1) { edges { node { network(depth: 3) { nodes { coauthors { author { "
        "network(depth: 3) { totalNodes } } } } } } } } }"
    },
    "a hundred networks": {"query": "{ authors(first: 100) { edges { node { network(depth: 1) { totalNodes } } } } }"},
    "co-authors four deep": {
        "query": "{ authors(first: 1) { edges { node { coauthors { author { coauthors { author { coauthors { author { "
        "coauthors { author { name } } } } } } } } } } } }"
    },
}


def abuse_while(url: str, stop: threading.Event, seen: list) -> None:
    """Send the abusive requests in turn until ``stop``; record (name, status, refused, seconds)."""
    with httpx.Client(timeout=60) as client:
        while not stop.is_set():
            for name, body in ABUSE.items():
                started = time.perf_counter()
                response = client.post(url, json=body)
                errors = (
                    response.json().get("errors")
                    if response.headers.get("content-type", "").startswith("application/json")
                    else None
                )
                refused = response.status_code == 413 or bool(errors and not response.json().get("data"))
                seen.append((name, response.status_code, refused, round(time.perf_counter() - started, 3)))


def mix_under_abuse(url: str, bodies: list[str], duration: float, pids: list[int], workdir: Path) -> dict:
    alone = load(url, bodies, 32, duration, pids, workdir)
    stop, seen = threading.Event(), []
    abuser = threading.Thread(target=abuse_while, args=(url, stop, seen), daemon=True)
    abuser.start()
    try:
        abused = load(url, bodies, 32, duration, pids, workdir)
    finally:
        stop.set()
        abuser.join(timeout=120)
    per_kind = {
        name: {
            "sent": sum(1 for s in seen if s[0] == name),
            "refused": sum(1 for s in seen if s[0] == name and s[2]),
            "statuses": sorted({s[1] for s in seen if s[0] == name}),
            "max_s": max((s[3] for s in seen if s[0] == name), default=None),
        }
        for name in ABUSE
    }
    return {
        "alone": alone,
        "with_abuse": abused,
        "abuse": per_kind,
        "p99_ratio": round(abused["p99_ms"] / max(alone["p99_ms"], 0.1), 2),
    }


# -- set-up ------------------------------------------------------------------------------------------
def prepare(args, workdir: Path) -> dict:
    neo_dir, emb_dir = workdir / "neo4j", workdir / "embedded"
    port = int((workdir / "neo4j.port").read_text()) if (workdir / "neo4j.port").exists() else free_port()
    (workdir / "neo4j.port").write_text(str(port))
    base = {k: v for k, v in os.environ.items() if not k.startswith(("NEO4J_", "KG_"))}
    uri = kg("neo4j", "start", "--port", str(port), "--data", str(neo_dir), env=base).strip().splitlines()[-1]
    neo_env = base | {"NEO4J_URI": uri}
    emb_env = base | {"KG_DATA_DIR": str(emb_dir)}
    files = [str(args.data / "papers-iclr2024.jsonl"), str(args.data / "papers-icml2024.jsonl")]
    kg("migrate", env=neo_env)  # a reused workdir gets the migrations kg gained since
    if not (workdir / "loaded").exists():
        for env in (neo_env, emb_env):
            started = time.perf_counter()
            kg("ingest", *files, env=env)
            print(
                f"ingested into {'Neo4j' if env is neo_env else 'the embedded store'} in {time.perf_counter() - started:.0f}s",
                file=sys.stderr,
            )
        (workdir / "loaded").write_text("ok")
    peer = workdir / "peer"
    if not (peer / "node_modules").exists():
        shutil.copytree(PEER_SOURCE, peer, dirs_exist_ok=True)
        # kg's model since the peer was written: a mention is key (minor: false) or named in passing (minor: true)
        defs = peer / "typeDefs.graphql"
        defs.write_text(defs.read_text().replace("Mentions @relationshipProperties { weight: Float }", MENTIONS_PROPERTIES))
        for path in peer.rglob("*"):
            path.chmod(0o755 if path.is_dir() else 0o644)
        subprocess.run(["npm", "install", "--no-audit", "--no-fund", "--loglevel=error"], cwd=peer, check=True)
    return {"uri": uri, "neo_env": neo_env, "emb_env": emb_env, "neo_dir": neo_dir, "peer": peer}


def sample(uri: str, n: int) -> dict:
    from neo4j import GraphDatabase

    rng = random.Random(0)
    from neo4j_support import auth_for

    with GraphDatabase.driver(uri, auth=auth_for(uri)) as driver:

        def rows(cypher: str) -> list:
            return [r[0] for r in driver.execute_query(cypher)[0]]

        papers = rows("MATCH (p:Paper) RETURN p.id ORDER BY p.id")
        related = rows("MATCH (p:Paper) WHERE COUNT { (p)-[:SHARES_CONCEPT]-() } >= 10 RETURN p.id ORDER BY p.id")
        authors = rows("MATCH (a:Author) WHERE COUNT { (a)-[:CO_AUTHORED]-() } >= 3 RETURN a.key ORDER BY a.key")
        concepts = rows("MATCH (c:Concept) WHERE COUNT { (c)<-[:MENTIONS]-() } >= 10 RETURN c.key ORDER BY c.key")
        # people asked for by name: a name only one person bears (an ambiguous name is an error, by design)
        named = [
            tuple(r)
            for r in driver.execute_query(
                "MATCH (a:Author) WHERE COUNT { (a)-[:CO_AUTHORED]-() } >= 3 AND NOT a.key CONTAINS '~' "
                "AND NOT EXISTS { MATCH (b:Author) WHERE b.key STARTS WITH a.key + '~' } RETURN a.key, a.name ORDER BY a.key"
            )[0]
        ]
    total = len(papers)
    return {
        "a": [{"id": p} for p in rng.sample(papers, n)],
        "b": [{"key": a} for a in rng.sample(authors, n)],
        "c": [{"key": c} for c in rng.sample(concepts, n)],
        "d": [{"offset": o} for o in rng.sample(range(0, total - 20), n)],
        "e": [{"id": p} for p in rng.sample(related, n)],
        "f": [{"key": key, "name": name} for key, name in rng.sample(named, n)],
    }


def kg_variables(op: str, params: dict) -> dict:
    if op in ("a", "e"):
        return {"id": params["id"]}
    if op == "b":  # a person by id, as the peer reads an author by key
        return {"id": params["key"]}
    if op == "c":
        return {"name": params["key"]}
    if op == "f":  # by the name as a user types it
        return {"name": params["name"]}
    offset = params["offset"]
    from kg.api.graphql.pagination import encode_cursor

    return {"after": encode_cursor(offset - 1) if offset else None}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--data", type=Path, default=DEFAULT_DATA)
    parser.add_argument("--workdir", type=Path, default=None, help="keep the loaded stores here and reuse them")
    parser.add_argument("--duration", type=float, default=5.0, help="seconds per load run")
    parser.add_argument("--rounds", type=int, default=3, help="load runs per server and cell, interleaved (medians reported)")
    parser.add_argument("--requests", type=int, default=50, help="varied requests per operation")
    parser.add_argument("--workers", type=int, default=1, help="`kg serve --workers N` for kg on Neo4j")
    parser.add_argument(
        "--embedded-workers",
        type=int,
        default=os.cpu_count() or 1,
        help="`kg serve --workers N` for kg embedded (default: the machine's cores; it answers in-process, "
        "where the other two servers also use Neo4j's threads on the other cores)",
    )
    parser.add_argument(
        "--mix-duration", type=float, default=60.0, help="seconds of each c=32 mixed run (0: skip the abuse runs)"
    )
    parser.add_argument("--ops", default=OPS, help="which operations to load (all are checked for answers)")
    parser.add_argument("--json", type=Path)
    args = parser.parse_args()
    if shutil.which("wrk") is None:
        raise SystemExit("wrk is not installed: apt-get install wrk")
    workdir = args.workdir or Path(tempfile.mkdtemp(prefix="kg-bench-api-"))
    workdir.mkdir(parents=True, exist_ok=True)
    setup = prepare(args, workdir)
    procs: dict[str, subprocess.Popen] = {}
    try:
        ports = {name: free_port() for name in ("kg-neo4j", "kg-embedded", "peer")}
        procs["kg-neo4j"] = subprocess.Popen(
            [*KG, "serve", "--port", str(ports["kg-neo4j"]), "--workers", str(args.workers)],
            env=setup["neo_env"],
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
        procs["kg-embedded"] = subprocess.Popen(
            [*KG, "serve", "--port", str(ports["kg-embedded"]), "--workers", str(args.embedded_workers)],
            env=setup["emb_env"],
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
        procs["peer"] = subprocess.Popen(
            ["node", "server.mjs"],
            cwd=setup["peer"],
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
            env=os.environ | peer_env(setup["uri"]) | {"PORT": str(ports["peer"])},
        )
        urls = {
            "kg-neo4j": f"http://127.0.0.1:{ports['kg-neo4j']}/graphql",
            "kg-embedded": f"http://127.0.0.1:{ports['kg-embedded']}/graphql",
            "peer": f"http://127.0.0.1:{ports['peer']}/",
        }
        for name in ("kg-neo4j", "kg-embedded"):
            wait_http(urls[name].replace("/graphql", "/healthz"), procs[name])
        wait_http(urls["peer"], procs["peer"])
        neo4j_pid = int((setup["neo_dir"] / "kg-neo4j.pid").read_text().split()[0])
        params = sample(setup["uri"], args.requests)
        bodies: dict[str, dict[str, list[str]]] = {name: {} for name in urls}
        mismatches = 0
        for op in OPS:
            for name in urls:
                query = PEER_QUERIES[op] if name == "peer" else KG_QUERIES[op]
                bodies[name][op] = [
                    json.dumps(
                        {
                            "query": query,
                            "variables": {"key": p["key"]}
                            if op == "f" and name == "peer"
                            else p
                            if name == "peer"
                            else kg_variables(op, p),
                        }
                    )
                    for p in params[op]
                ]
            for i in range(args.requests):
                answers = {}
                for name in urls:
                    body = httpx.post(
                        urls[name], content=bodies[name][op][i], headers={"content-type": "application/json"}, timeout=30
                    ).json()
                    if body.get("errors"):
                        raise SystemExit(f"{name} op {op}: {body['errors']}")
                    answers[name] = (norm_peer if name == "peer" else norm_kg)(op, body["data"])
                if not answers["kg-neo4j"] == answers["kg-embedded"] == answers["peer"]:
                    mismatches += 1
                    print(f"answers differ on op {op}, request {i}: {answers}", file=sys.stderr)
        print(f"answers: {len(OPS) * args.requests} requests x 3 servers, {mismatches} differing", file=sys.stderr)
        results: dict = {
            "answers_differing": mismatches,
            "workers": {"kg-neo4j": args.workers, "kg-embedded": args.embedded_workers},
            "runs": {},
        }
        pids = {name: [procs[name].pid] + ([neo4j_pid] if name != "kg-embedded" else []) for name in urls}
        for op in args.ops:
            for concurrency in (1, 16):
                for name, run in interleaved(urls, {n: bodies[n][op] for n in urls}, concurrency, args, pids, workdir).items():
                    results["runs"][f"{op}/{name}/c{concurrency}"] = run
                    print(f"{op} {name:12} c={concurrency:<2} {run}", file=sys.stderr)
        if args.mix_duration > 0:
            results["mix"] = {}
            for name in ("kg-neo4j", "kg-embedded"):
                pids = [procs[name].pid] + ([neo4j_pid] if name != "kg-embedded" else [])
                mixed = [b for op in OPS for b in bodies[name][op]]
                results["mix"][name] = mix_under_abuse(urls[name], mixed, args.mix_duration, pids, workdir)
                print(f"mix {name}: {results['mix'][name]}", file=sys.stderr)
        print_table(results)
        if args.json:
            args.json.write_text(json.dumps(results, indent=2) + "\n")
    finally:
        stop_all(procs.values())
        if args.workdir is None:
            kg("neo4j", "stop", "--data", str(setup["neo_dir"]), env=setup["neo_env"], check=False)


def stop_all(procs) -> None:
    """SIGTERM every server, then wait for each (they shut down side by side)."""
    for proc in procs:
        proc.send_signal(signal.SIGTERM)
    for proc in procs:
        proc.wait(timeout=20)


def print_table(results: dict) -> None:
    runs = results["runs"]
    print(f"answers differing: {results['answers_differing']}")
    print("| op | server | req/s c=1 | p50 c=1 | p99 c=1 | req/s c=16 | p50 c=16 | p99 c=16 | errors | CPU ms/req (c=16) |")
    print("|---|---|---|---|---|---|---|---|---|---|")
    for op in sorted({k.split("/")[0] for k in runs}):
        for name in ("kg-neo4j", "peer", "kg-embedded"):
            one, many = runs[f"{op}/{name}/c1"], runs[f"{op}/{name}/c16"]
            print(
                f"| {op} | {name} | {one['req_s']} | {one['p50_ms']} | {one['p99_ms']} | {many['req_s']} | {many['p50_ms']} | "
                f"{many['p99_ms']} | {one['errors'] + many['errors']} | {many['cpu_ms_per_req']} |"
            )
    if "mix" in results:
        print()
        print(
            "| server | mix c=32 req/s | errors | p99 ms | with abuse: req/s | errors | p99 ms | p99 ratio | abusive requests refused |"
        )
        print("|---|---|---|---|---|---|---|---|---|")
        for name, m in results["mix"].items():
            a, b = m["alone"], m["with_abuse"]
            refused = sum(k["refused"] for k in m["abuse"].values())
            sent = sum(k["sent"] for k in m["abuse"].values())
            print(
                f"| {name} | {a['req_s']} | {a['errors']} | {a['p99_ms']} | {b['req_s']} | {b['errors']} | {b['p99_ms']} | "
                f"{m['p99_ratio']} | {refused}/{sent} |"
            )


if __name__ == "__main__":
    main()
