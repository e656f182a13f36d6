"""A newcomer's first hour (issue 11): the quickstart on Debian's own python3, pipx, and the compose file.

These install kg from a clean clone of the committed tree (HEAD), as a user would get it.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys

import httpx
import pytest

from helpers import IN_CI, ROOT, first_answer, free_port

pytestmark = pytest.mark.slow
DEBIAN_PYTHON = "/usr/bin/python3"


def need(condition: bool, message: str) -> None:
    if not condition:
        (pytest.fail if IN_CI else pytest.skip)(message)


@pytest.fixture
def clone(tmp_path):
    target = tmp_path / "kg"
    subprocess.run(["git", "clone", "-q", str(ROOT), str(target)], check=True, timeout=120)
    return target


def test_the_quickstart_serves_on_debians_python(clone):
    need(os.access(DEBIAN_PYTHON, os.X_OK), f"{DEBIAN_PYTHON} is missing (apt-get install python3 python3-venv)")
    port = free_port()
    env = {k: v for k, v in os.environ.items() if not k.startswith(("VIRTUAL_ENV", "PYTHON", "NEO4J_", "KG_"))}
    env |= {"PYTHON": DEBIAN_PYTHON, "PATH": "/usr/bin:/bin"}
    log = (clone.parent / "quickstart.log").open("wb")
    proc = subprocess.Popen(
        ["bash", "scripts/quickstart.sh", "--port", str(port)],
        cwd=clone,
        env=env,
        stdout=log,
        stderr=subprocess.STDOUT,
        start_new_session=True,
    )
    try:
        health = first_answer(
            f"http://127.0.0.1:{port}/healthz",
            proc,
            timeout=600,
            output=lambda _: (clone.parent / "quickstart.log").read_text(),
            pause=1,
        )
        assert health.status_code == 200
        venv_python = (clone / ".venv" / "bin" / "python").resolve()
        assert str(venv_python).startswith("/usr/bin/python3")  # the venv is Debian's own interpreter
        answer = httpx.post(f"http://127.0.0.1:{port}/graphql", json={"query": "{ stats { papers } }"}, timeout=10)
        assert answer.json() == {"data": {"stats": {"papers": 39}}}
        dev = subprocess.run([str(clone / ".venv" / "bin" / "python"), "-c", "import pytest"], capture_output=True)
        assert dev.returncode != 0  # serving installs no test tools
    finally:
        try:
            os.killpg(proc.pid, 15)
        except ProcessLookupError:
            pass  # it ended by itself (the log above says why)
        proc.wait(timeout=30)


def test_the_quickstart_checks_its_port_before_installing_anything(clone):
    import socket

    with socket.socket() as busy:
        busy.bind(("127.0.0.1", 0))
        busy.listen()
        port = busy.getsockname()[1]
        done = subprocess.run(
            ["bash", "scripts/quickstart.sh", "--port", str(port)], cwd=clone, capture_output=True, text=True, timeout=60
        )
    assert done.returncode == 1 and f"port {port} is in use" in done.stderr
    assert not (clone / ".venv").exists()  # nothing was installed


def test_pipx_install_runs_outside_the_checkout(clone, tmp_path):
    pipx = shutil.which("pipx") or str(ROOT / ".venv" / "bin" / "pipx")
    need(os.access(pipx, os.X_OK), "pipx is missing (it is a dev extra)")
    env = dict(os.environ, PIPX_HOME=str(tmp_path / "pipx"), PIPX_BIN_DIR=str(tmp_path / "bin"))
    env.pop("VIRTUAL_ENV", None)
    done = subprocess.run(
        [pipx, "install", "--python", sys.executable, str(clone)], env=env, capture_output=True, text=True, timeout=900
    )
    assert done.returncode == 0, done.stdout + done.stderr
    away = tmp_path / "elsewhere"
    away.mkdir()
    kg = str(tmp_path / "bin" / "kg")
    assert subprocess.run([kg, "--help"], cwd=away, capture_output=True, text=True, timeout=120).returncode == 0
    where = subprocess.run(
        [
            str(tmp_path / "pipx" / "venvs" / "kg" / "bin" / "python"),
            "-c",
            "from kg.store.neo4j.migrate import default_migrations_dir, load_migrations; d = default_migrations_dir(); print(d, len(load_migrations(d)))",
        ],
        cwd=away,
        capture_output=True,
        text=True,
        timeout=120,
        env={k: v for k, v in env.items() if not k.startswith("KG_")},
    )
    assert where.returncode == 0, where.stderr
    folder, count = where.stdout.split()
    assert str(clone) not in folder and int(count) >= 2  # the migrations ship in the package
    # The spaCy pipeline is a declared dependency: the pipx install ingests, outside the checkout.
    shutil.copy(clone / "samples" / "000_5a0f2845ea482b21.txt", away / "listing.txt")
    clean = {k: v for k, v in env.items() if not k.startswith(("KG_", "NEO4J_"))} | {"KG_DATA_DIR": str(away / "store")}
    ingest = subprocess.run([kg, "ingest", "listing.txt"], cwd=away, capture_output=True, text=True, timeout=600, env=clean)
    assert ingest.returncode == 0, ingest.stdout + ingest.stderr
    stats = subprocess.run([kg, "stats"], cwd=away, capture_output=True, text=True, timeout=120, env=clean)
    assert stats.returncode == 0 and "papers" in stats.stdout, stats.stdout + stats.stderr


def test_the_compose_file_follows_the_compose_specification():
    checker = shutil.which("check-jsonschema") or str(ROOT / ".venv" / "bin" / "check-jsonschema")
    need(os.access(checker, os.X_OK), "check-jsonschema is missing (it is a dev extra)")
    done = subprocess.run(
        [checker, "--builtin-schema", "vendor.compose-spec", str(ROOT / "docker-compose.yml")],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 0, done.stdout + done.stderr
    text = (ROOT / "docker-compose.yml").read_text()
    assert "image: neo4j:5.26.0-community" in text and text.count("restart: unless-stopped") == 2
    dockerfile = (ROOT / "Dockerfile").read_text()
    assert "USER kg" in dockerfile and dockerfile.index("pip install --no-cache-dir -r") < dockerfile.index("COPY kg ./kg")
