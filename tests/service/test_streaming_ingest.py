"""Streaming ingest (issue 10): chunks committed one by one, resumable after a kill, one ingest at a time.

The input is a real slice (ICLR 2024) ingested in small chunks, so that the
paths the 95,000-paper benchmark takes run here in seconds.
"""

from __future__ import annotations

import errno
import itertools
import os
import signal
import subprocess
import sys
import threading
import time

import pytest

from kg.config import Settings
from kg.export import whole_graph
from kg.service import KGService
from kg.store.embedded import EmbeddedStore
from kg.store.embedded.store import CHECKPOINT_EVERY

from helpers import need_shared, paper, write_jsonl

CHUNK = 30
RECORDS = 150  # five chunks


@pytest.fixture(scope="module")
def iclr_slice(tmp_path_factory):
    source = need_shared("papers-iclr2024.jsonl")
    path = tmp_path_factory.mktemp("slice") / "iclr-slice.jsonl"
    with source.open(encoding="utf-8") as handle:
        path.write_text("".join(itertools.islice(handle, RECORDS)), encoding="utf-8")
    return path


def _graph_of(store) -> tuple:
    """Everything a user can read: counts, every node with its attributes, every edge with its weights."""
    g = whole_graph(store)
    nodes = sorted((n, tuple(sorted(d.items()))) for n, d in g.nodes(data=True))
    edges = sorted((u, v, tuple(sorted((k, str(x)) for k, x in d.items()))) for u, v, d in g.edges(data=True))
    return store.stats(), nodes, edges


def _settings(kind: str, tmp_path, name: str) -> Settings:
    env = {"KG_DATA_DIR": tmp_path / name, "KG_INGEST_CHUNK": CHUNK, "KG_WORKERS": 1}
    if kind == "neo4j":
        env["NEO4J_URI"] = os.environ["KG_TEST_NEO4J_URI"]
    return Settings(**env)


def _open(kind: str, settings: Settings):
    if kind == "neo4j":
        from kg.store.neo4j.store import Neo4jStore

        return Neo4jStore.from_settings(settings)
    return EmbeddedStore(settings.data_dir)


def _papers_now(kind: str, settings: Settings) -> int:
    store = _open(kind, settings)
    try:
        return store.stats().papers
    finally:
        store.close()


def _ingest_until_killed(kind: str, settings: Settings, path, papers: int) -> bool:
    """Run `kg ingest` as a user would and SIGKILL it once the store holds ``papers`` papers; False if it ended first."""
    env = dict(os.environ, KG_DATA_DIR=str(settings.data_dir), KG_INGEST_CHUNK=str(CHUNK), KG_WORKERS="1")
    env.pop("NEO4J_URI", None)
    if kind == "neo4j":
        env["NEO4J_URI"] = os.environ["KG_TEST_NEO4J_URI"]
    proc = subprocess.Popen(
        [sys.executable, "-m", "kg.cli", "ingest", str(path)], env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL
    )
    try:
        while proc.poll() is None:
            if _papers_now(kind, settings) >= papers:
                proc.send_signal(signal.SIGKILL)
                proc.wait()
                return True
            time.sleep(0.05)
        return False
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()


@pytest.fixture(params=["embedded", "neo4j"])
def kind(request):
    if request.param == "neo4j":
        request.getfixturevalue("neo4j_store")  # the test database, wiped
    return request.param


def test_a_killed_ingest_run_again_gives_the_uninterrupted_graph(kind, iclr_slice, tmp_path, extractor):
    # The uninterrupted run, in chunks of CHUNK records.
    settings = _settings(kind, tmp_path, "whole")
    with KGService(_open(kind, settings), settings, extractor=extractor) as service:
        summary = service.ingest([iclr_slice])
        assert summary.papers_added == RECORDS
        whole = _graph_of(service.store)
    if kind == "neo4j":
        from neo4j_support import wipe

        store = _open(kind, settings)
        wipe(store.driver)
        store.close()

    # The same command, killed three times (after the first chunk, mid-way, before the last), then run to the end.
    settings = _settings(kind, tmp_path, "killed")
    killed = [_ingest_until_killed(kind, settings, iclr_slice, n) for n in (CHUNK, 2 * CHUNK, 4 * CHUNK)]
    assert killed == [True, True, True]
    assert _papers_now(kind, settings) < RECORDS  # the kills did cut it short
    with KGService(_open(kind, settings), settings, extractor=extractor) as service:
        summary = service.ingest([iclr_slice])
        assert summary.papers_added == RECORDS - summary.papers_already_present > 0
        assert _graph_of(service.store) == whole


def test_a_chunked_ingest_commits_chunk_by_chunk_and_reports_bad_records_first(tmp_path, iclr_slice, extractor):
    settings = _settings("embedded", tmp_path, "kg-data")
    bad = tmp_path / "bad.jsonl"
    lines = iclr_slice.read_text(encoding="utf-8").splitlines()
    bad.write_text("\n".join(lines[:100] + ['{"id": "x", "title": 5}'] + lines[100:]) + "\n", encoding="utf-8")
    with KGService(EmbeddedStore(settings.data_dir), settings, extractor=extractor) as service:
        from kg.errors import ReaderError

        with pytest.raises(ReaderError, match="bad.jsonl:101"):
            service.ingest([bad])  # found by the first, checking read: nothing is written
        assert service.stats().papers == 0
        service.ingest([iclr_slice])
        assert len(service.store.log.names()) == RECORDS // CHUNK  # one committed batch per chunk
        again = service.ingest([iclr_slice])
        assert again.papers_added == 0 and len(service.store.log.names()) == RECORDS // CHUNK  # a re-run writes nothing
        # Every CHECKPOINT_EVERY batches the graph is saved whole; a fresh reader loads it and replays the rest.
        assert service.store.log.checkpoint()[1] == CHECKPOINT_EVERY
        assert _graph_of(EmbeddedStore(settings.data_dir)) == _graph_of(service.store)


def _no_space(*args, **kwargs):
    raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))


def test_a_checkpoint_the_disk_refuses_warns_and_the_ingest_goes_on(tmp_path, iclr_slice, extractor, monkeypatch, caplog):
    from kg.store.embedded import log as log_module

    settings = _settings("embedded", tmp_path, "kg-data")
    monkeypatch.setattr(log_module.pickle, "dump", _no_space)  # the checkpoint's write fails: a full disk
    with KGService(EmbeddedStore(settings.data_dir), settings, extractor=extractor) as service:
        with caplog.at_level("WARNING", logger="kg.store.embedded.store"):
            summary = service.ingest([iclr_slice])
        assert summary.papers_added == RECORDS  # every chunk committed, the one a checkpoint was due after too
        log = service.store.log
        assert len(log.names()) == RECORDS // CHUNK and log.checkpoint() is None
        warned = [r.getMessage() for r in caplog.records if r.levelname == "WARNING"]
        assert len(warned) == 1  # tried once when due, not again at every chunk after it
        assert str(log.folder) in warned[0] and "No space left on device" in warned[0] and "Nothing is lost" in warned[0]
        assert not list(log.folder.glob(".graph-*.tmp")) and not list(log.folder.glob("checkpoint-*"))
        assert _graph_of(EmbeddedStore(settings.data_dir)) == _graph_of(service.store)  # loaded by replaying the log
    monkeypatch.undo()  # space again: the next ingest saves the checkpoint
    more = tmp_path / "more.jsonl"
    with need_shared("papers-iclr2024.jsonl").open(encoding="utf-8") as handle:
        more.write_text("".join(itertools.islice(handle, RECORDS, RECORDS + CHUNK)), encoding="utf-8")
    with KGService(EmbeddedStore(settings.data_dir), settings, extractor=extractor) as service:
        assert service.ingest([more]).papers_added == CHUNK
        assert service.store.log.checkpoint()[1] == RECORDS // CHUNK + 1
        assert _graph_of(EmbeddedStore(settings.data_dir)) == _graph_of(service.store)


def test_a_chunk_the_disk_refuses_fails_clearly_and_keeps_the_chunks_before_it(tmp_path, iclr_slice, extractor, monkeypatch):
    from kg.errors import StoreError
    from kg.store.embedded import GraphLog

    settings = _settings("embedded", tmp_path, "kg-data")
    write = GraphLog._write_atomically
    batches = []

    def third_batch_finds_the_disk_full(self, target, data):
        if target.name.endswith(".json.gz"):
            batches.append(target.name)
            if len(batches) == 3:
                _no_space()
        return write(self, target, data)

    monkeypatch.setattr(GraphLog, "_write_atomically", third_batch_finds_the_disk_full)
    with KGService(EmbeddedStore(settings.data_dir), settings, extractor=extractor) as service:
        with pytest.raises(StoreError, match=r"kg-data/log: cannot write to the embedded store \(No space left on device\)"):
            service.ingest([iclr_slice])
        log = service.store.log
        assert service.stats().papers == 2 * CHUNK and len(log.names()) == 2  # the chunks before it stay
        assert sorted(p.name for p in log.folder.iterdir()) == sorted([*log.names(), "manifest.json"])  # nothing half-written
    monkeypatch.undo()
    with KGService(EmbeddedStore(settings.data_dir), settings, extractor=extractor) as service:
        assert service.ingest([iclr_slice]).papers_added == RECORDS - 2 * CHUNK  # run again, it goes on from there


def test_a_checkpoint_may_hold_a_graph_and_nothing_else(tmp_path):
    import pickle

    from kg.errors import StoreError
    from kg.store.embedded import GraphLog

    log = GraphLog(tmp_path)
    log.folder.mkdir(parents=True)
    with (log.folder / "checkpoint-000001-evil.pickle").open("wb") as handle:
        pickle.dump(os.system, handle)  # what a tampered checkpoint would carry
    with pytest.raises(StoreError, match="does not name posix.system"):
        log.read_checkpoint("checkpoint-000001-evil.pickle")


def test_two_ingests_at_once_give_the_one_after_the_other_result(kind, tmp_path, extractor):
    first = write_jsonl(tmp_path / "first.jsonl", [paper(i) for i in range(1, 6)])
    second = write_jsonl(tmp_path / "second.jsonl", [paper(i) for i in range(4, 9)])
    results = {}
    for order in ("sequential", "concurrent"):
        settings = _settings(kind, tmp_path, order)
        if kind == "neo4j":
            from neo4j_support import wipe

            store = _open(kind, settings)
            wipe(store.driver)
            store.close()
        services = [KGService(_open(kind, settings), settings, extractor=extractor) for _ in range(2)]
        if order == "sequential":
            services[0].ingest([first])
            services[1].ingest([second])
        else:
            threads = [threading.Thread(target=s.ingest, args=([f],)) for s, f in zip(services, (first, second))]
            for t in threads:
                t.start()
            for t in threads:
                t.join()
        for s in services:
            s.close()
        with KGService(_open(kind, settings), settings, extractor=extractor) as reader:
            results[order] = (
                reader.stats(),
                sorted((c.author_key, c.joint_papers) for c in reader.store.coauthors_of(["shared person"])[0]),
            )
    assert results["concurrent"] == results["sequential"]
    assert results["sequential"][0].papers == 8
