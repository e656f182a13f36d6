"""One obvious store: the per-user data folder by default (never the current directory), `kg --data-dir`
for every command, `kg stats` saying which store it read, and a lookup in an empty store saying so."""

from __future__ import annotations

import os

from click.testing import CliRunner

from kg.cli import main
from kg.config import Settings

from helpers import ROOT, SAMPLES


def test_the_default_store_is_the_per_user_data_folder_not_the_current_directory(tmp_path, monkeypatch):
    monkeypatch.delenv("KG_DATA_DIR", raising=False)
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "xdg"))
    monkeypatch.chdir(tmp_path)
    assert Settings().data_dir == tmp_path / "xdg" / "kg"


def test_data_dir_chooses_the_store_for_every_command(tmp_path, monkeypatch):
    monkeypatch.delenv("KG_DATA_DIR", raising=False)
    monkeypatch.delenv("NEO4J_URI", raising=False)
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "xdg"))
    store = tmp_path / "mine"
    runner = CliRunner()
    try:
        ingested = runner.invoke(main, ["--data-dir", str(store), "ingest", str(SAMPLES / "000_5a0f2845ea482b21.txt")])
        assert ingested.exit_code == 0, ingested.output
        assert (store / "log").is_dir() and not (tmp_path / "xdg" / "kg").exists()
        stats = runner.invoke(main, ["--data-dir", str(store), "stats"])
        assert stats.exit_code == 0 and f"reading the embedded store at {store.resolve()}" in stats.stderr
        papers = int(next(line.split()[-1] for line in stats.stdout.splitlines() if line.startswith("papers")))
        assert papers > 0
        assert "KG_DATA_DIR" not in os.environ  # --data-dir goes into the settings kg makes once, not the environment
        empty = runner.invoke(main, ["author", "Wei Lin"])  # the default store, which holds nothing
        assert empty.exit_code == 1
        assert f"the embedded store at {(tmp_path / 'xdg' / 'kg').resolve()} holds no papers" in empty.stderr
    finally:
        os.environ.pop("KG_DATA_DIR", None)


def test_a_verbose_ingest_says_where_each_chunks_time_went(tmp_path):
    """`kg ingest -v`: a line per committed chunk with its stages (what bench/ingest.py reads to see how the cost
    grows with the store), and the summary's totals per stage."""
    import subprocess
    import sys

    sys.path.insert(0, str(ROOT / "bench"))
    from ingest import chunk_stages

    env = dict(os.environ, KG_DATA_DIR=str(tmp_path / "store"), KG_INGEST_CHUNK="4")
    env.pop("NEO4J_URI", None)
    log = tmp_path / "ingest.log"
    with log.open("w") as out:
        done = subprocess.run(
            [sys.executable, "-m", "kg.cli", "ingest", "-v", str(SAMPLES / "000_5a0f2845ea482b21.txt")],
            env=env,
            stdout=out,
            stderr=subprocess.STDOUT,
            timeout=300,
        )
    text = log.read_text(encoding="utf-8")
    assert done.returncode == 0, text
    chunks = chunk_stages(log)
    papers = int(next(line.split("+")[1].split()[0] for line in text.splitlines() if line.startswith("papers: +")))
    assert len(chunks) >= 2 and sum(c["new"] for c in chunks) == papers
    assert [c["store_had"] for c in chunks] == [sum(c["new"] for c in chunks[:i]) for i in range(len(chunks))]
    for c in chunks:
        assert set(c) >= {"extract", "people", "links", "write"} and c["seconds"] >= max(c["extract"], c["write"])
    assert "(concepts " in text and "who is who: " in text and "writing " in text
