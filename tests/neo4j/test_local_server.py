"""`kg neo4j start/stop` and an API that rides out Neo4j going away and coming back."""

from __future__ import annotations

import os
import subprocess
import sys

import pytest
from fastapi.testclient import TestClient

from helpers import IN_CI, first_answer, free_port


def kg(*args: str, env=None) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "kg.cli", *args], capture_output=True, text=True, timeout=600, env=env)


@pytest.fixture(scope="module")
def server_dir(tmp_path_factory):
    import shutil

    if not (shutil.which("java") and shutil.which("mvn")):
        (pytest.fail if IN_CI else pytest.skip)("java and mvn are needed for a local Neo4j")
    folder = tmp_path_factory.mktemp("local-neo4j")
    yield folder
    kg("neo4j", "stop", "--data", str(folder))


def test_start_stop_twice_and_recovery(server_dir, extractor):
    from kg.api.app import create_app
    from kg.config import Settings
    from kg.service import KGService
    from kg.store.neo4j.store import Neo4jStore

    port = str(free_port())
    started = kg("neo4j", "start", "--port", port, "--data", str(server_dir))
    assert started.returncode == 0, started.stderr
    uri = started.stdout.strip().splitlines()[-1]
    assert uri == f"bolt://127.0.0.1:{port}"
    again = kg("neo4j", "start", "--port", port, "--data", str(server_dir))
    assert again.returncode == 0 and again.stdout.strip().splitlines()[-1] == uri and "already running" in again.stderr
    # Asking for another port on a folder whose server runs gives the URI of the server that runs.
    other_port = kg("neo4j", "start", "--port", str(free_port()), "--data", str(server_dir))
    assert other_port.returncode == 0 and other_port.stdout.strip().splitlines()[-1] == uri
    # stop and status say which folder they looked at, and what runs elsewhere.
    elsewhere = server_dir.parent / "no-server-here"
    wrong = kg("neo4j", "stop", "--data", str(elsewhere))
    assert wrong.returncode == 0 and f"not running on data folder {elsewhere}" in wrong.stdout
    assert f"port {port}" in wrong.stdout and str(server_dir) in wrong.stdout
    status = kg("neo4j", "status", "--data", str(server_dir))
    assert f"running on data folder {server_dir}" in status.stdout and uri in status.stdout

    assert kg("migrate", env=dict(os.environ, NEO4J_URI=uri)).returncode == 0
    settings = Settings(NEO4J_URI=uri)
    svc = KGService(Neo4jStore.from_settings(settings), settings, extractor=extractor)
    with TestClient(create_app(svc)) as client:
        assert client.get("/healthz").json() == {"status": "ok", "store": "neo4j"}

        assert kg("neo4j", "stop", "--data", str(server_dir)).returncode == 0
        down = client.get("/healthz")
        assert down.status_code == 503 and down.json()["status"] == "unavailable"
        body = client.post("/graphql", json={"query": "{ stats { papers } }"})
        assert body.status_code == 200
        assert "unreachable" in body.json()["errors"][0]["message"]
        planned = {"query": '{ paper(id: "no such paper") { id authors { name } } }'}  # a compiled operation (async driver)
        assert "unreachable" in client.post("/graphql", json=planned).json()["errors"][0]["message"]
        stopped_again = kg("neo4j", "stop", "--data", str(server_dir))
        assert stopped_again.returncode == 0 and "not running" in stopped_again.stdout

        assert kg("neo4j", "start", "--port", port, "--data", str(server_dir)).returncode == 0
        assert client.get("/healthz").status_code == 200
        assert client.post("/graphql", json={"query": "{ stats { papers } }"}).json() == {"data": {"stats": {"papers": 0}}}
        assert client.post("/graphql", json=planned).json() == {"data": {"paper": None}}
    svc.store.close()


def test_auth_is_on_with_a_generated_password(server_dir, tmp_path):
    import stat

    from neo4j import GraphDatabase
    from neo4j.exceptions import AuthError

    started = kg("neo4j", "start", "--port", str(free_port()), "--data", str(server_dir))  # or the one already running
    assert started.returncode == 0, started.stderr
    uri = started.stdout.strip().splitlines()[-1]
    password_file = server_dir / "kg-neo4j.password"
    assert stat.S_IMODE(password_file.stat().st_mode) == 0o600
    password = password_file.read_text().strip()
    assert len(password) >= 24
    # the folder is its user's alone, and what kg keeps to know the password it set is a salted digest, not a hash of it
    assert stat.S_IMODE(server_dir.stat().st_mode) == 0o700
    marker = server_dir / "kg-neo4j.password-set"
    assert stat.S_IMODE(marker.stat().st_mode) == 0o600 and marker.read_text().startswith("scrypt$")
    assert password not in marker.read_text()

    for auth in (("neo4j", "neo4j"), ("neo4j", ""), None):
        with GraphDatabase.driver(uri, auth=auth) as driver, pytest.raises(AuthError):
            driver.verify_connectivity()

    # `kg neo4j env` gives other clients what they need, as lines for eval.
    env_lines = kg("neo4j", "env", "--data", str(server_dir))
    assert env_lines.returncode == 0, env_lines.stderr
    evaluated = subprocess.run(
        [
            "bash",
            "-c",
            f'eval "$({sys.executable} -m kg.cli neo4j env --data {server_dir})"; '
            'echo "$NEO4J_URI $NEO4J_USERNAME $NEO4J_PASSWORD"',
        ],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert evaluated.stdout.split() == [uri, "neo4j", password]
    with GraphDatabase.driver(uri, auth=("neo4j", password)) as driver:
        assert driver.execute_query("RETURN 1 AS one").records[0]["one"] == 1

    # kg finds the password of a server it started; a wrong one set by hand is a clear error.
    base = {k: v for k, v in os.environ.items() if not k.startswith("NEO4J_")}
    assert kg("stats", env=dict(base, NEO4J_URI=uri)).returncode == 0
    wrong = kg("stats", env=dict(base, NEO4J_URI=uri, NEO4J_PASSWORD="wrong"))
    assert wrong.returncode == 1 and "refused kg's user name or password" in wrong.stderr
    assert "Traceback" not in wrong.stderr
    missing = kg("neo4j", "env", "--data", str(tmp_path / "nothing-runs-here"))
    assert missing.returncode != 0 and "not running" in missing.stderr


def test_missing_java_is_a_clear_message(tmp_path):
    env = dict(os.environ, PATH=str(tmp_path), KG_CACHE_DIR=str(tmp_path / "cache"))
    result = subprocess.run(
        [sys.executable, "-m", "kg.cli", "neo4j", "start", "--port", str(free_port()), "--data", str(tmp_path / "d")],
        capture_output=True,
        text=True,
        env=env,
        timeout=60,
    )
    assert result.returncode == 1
    assert "`mvn` is not installed" in result.stderr or "`java` is not installed" in result.stderr


def test_serve_starts_while_neo4j_is_down(tmp_path):
    port = free_port()
    env = dict(os.environ, NEO4J_URI=f"bolt://127.0.0.1:{free_port()}")
    proc = subprocess.Popen(
        [sys.executable, "-m", "kg.cli", "serve", "--port", str(port)], env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT
    )
    try:
        response = first_answer(f"http://127.0.0.1:{port}/healthz", proc, timeout=60)
        assert response.status_code == 503 and response.json()["store"] == "neo4j"
    finally:
        proc.terminate()
        proc.wait(timeout=10)
