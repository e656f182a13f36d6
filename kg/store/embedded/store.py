"""The embedded store: one networkx graph in memory, kept on disk as a log of batches (``log.py``).

This module holds persistence, index caching and writes; reads live in ``lookups.py`` and
``batched.py``, node mapping and batch application in ``graph.py``.

An ingest commits its batch to the log first and only then changes the graph in
memory. A reader that sees a newer log applies the batches it has not seen.
"""

from __future__ import annotations

import fcntl
import gc
import logging
import threading
import time
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path

import networkx as nx

from kg.authors.profile import Profile
from kg.errors import StoreError
from kg.graph.build import GraphBatch
from kg.graph.shares import Posting
from kg.store.base import Store
from kg.store.embedded.batched import EmbeddedBatchedReads
from kg.store.embedded.graph import adds_anything, apply_batch, node_id
from kg.store.embedded.log import GraphLog, private_file, private_folder
from kg.store.embedded.readers import Readers
from kg.store.embedded.lookups import Lookups
from kg.store.embedded.years import YearReads

__all__ = ["EmbeddedStore"]

logger = logging.getLogger(__name__)  # (self.log is the store's GraphLog)

RECHECK_SECONDS = 0.5  # how stale a reader may be after another process committed
CHECKPOINT_EVERY = 4  # batches replayed at most (beyond the last checkpoint) when a store is loaded


def _same(text: str) -> str:
    return text


class EmbeddedStore(Lookups, YearReads, EmbeddedBatchedReads, Store):
    """A file-backed networkx store under ``data_dir``. Nothing is read until first use."""

    kind = "embedded"

    def __init__(self, data_dir: str | Path) -> None:
        self.data_dir = Path(data_dir)
        self.log = GraphLog(self.data_dir)
        self._graph: nx.DiGraph | None = None
        self._names: list[str] = []  # the committed batches the graph holds
        self._version: tuple[int, int] | None = None  # the log's version the graph was read at
        self._derived: dict[str, object] = {}  # indexes built from the graph, dropped when it changes
        self._checked_at = float("-inf")  # when the log's version was last looked at
        self._catching_up = threading.RLock()
        # One lock per index, apart from catch-up: /healthz never waits for an index build, and a request
        # that needs one index never waits for the build of another.
        self._building: dict[str, threading.Lock] = {}
        self._building_guard = threading.Lock()
        self._readers = Readers()  # the API's reads in worker threads beside catch-up (``readers.py``)
        self._checkpoint_tried = 0  # batches the log held when a checkpoint last failed to save

    # -- persistence ---------------------------------------------------------------------
    @property
    def path(self) -> Path:
        """The file whose replacement commits a write."""
        return self.log.manifest

    @property
    def graph(self) -> nx.DiGraph:
        """The graph, brought up to date when another process (e.g. `kg ingest` beside `kg serve`) committed.

        The log is looked at once per ``RECHECK_SECONDS``, not on every access
        (a page of papers touches the graph thousands of times).
        """
        return self._current(force=False)

    def _current(self, *, force: bool, wait: bool = True) -> nx.DiGraph:
        """The graph, caught up with the log when it is time to look (or ``force``). Inside a read it stays
        as the read found it. Without ``wait`` (health, a request's first look, on the event loop) nothing
        waits: while reads are in flight or another thread catches up, the graph in memory answers."""
        if self._graph is not None and self._readers.reading():
            return self._graph
        now = time.monotonic()
        if self._graph is None or force or now - self._checked_at >= RECHECK_SECONDS:
            if not self._catching_up.acquire(blocking=wait or self._graph is None):
                return self._graph
            try:  # one thread applies new batches; another (the warm-up) waits for it
                self._look(now, wait)
            finally:
                self._catching_up.release()
        return self._graph

    def _look(self, now: float, wait: bool) -> None:
        """Read the log's version and catch up with it, after the reads in flight (or, without ``wait`` while
        reads are in flight, leave it to the next look). Called holding ``_catching_up``."""
        version = self.log.version()
        self._checked_at = now
        if self._graph is None:
            self._catch_up(version)  # nobody can be reading a graph not loaded yet
        elif version == self._version:
            return
        elif not wait and self._readers.busy():
            self._checked_at = float("-inf")  # the next look catches up
        else:
            with self._readers.exclusive():
                self._catch_up(version)

    @contextmanager
    def reading(self) -> Iterator[None]:
        """One read of the API's, in a worker thread: the graph is caught up first (waiting for the reads in
        flight), then stays as it is until the read ends; catch-up waits for it."""
        if not self._readers.reading():
            self._current(force=False)
        with self._readers.read():
            yield

    def _catch_up(self, version) -> None:
        """Apply the batches committed since the graph was read; read all of them when the log was rewritten."""
        names, checkpoint = self.log.state()  # one read: the two always agree
        fresh = self._graph is None or names[: len(self._names)] != self._names
        graph = nx.DiGraph() if fresh else self._graph
        todo = names if fresh else names[len(self._names) :]
        # Loading makes millions of long-lived objects: the cyclic GC would scan them again and again.
        enabled = gc.isenabled()
        gc.disable()
        try:
            if fresh:
                self._graph, self._names = None, []
                if checkpoint is not None and checkpoint[1] <= len(names):
                    graph, todo = self.log.read_checkpoint(checkpoint[0]), names[checkpoint[1] :]
            for name in todo:
                apply_batch(graph, self.log.read(name))
        finally:
            if enabled:
                gc.enable()
        self._graph, self._names, self._version, self._derived = graph, names, version, {}
        # Keep the graph out of the cyclic GC's full collections, which otherwise pause requests now and then.
        gc.freeze()

    def _cached(self, name: str, build):
        _ = self.graph  # catches up (and drops every cached index) when the log changed
        derived = self._derived
        if name not in derived:
            with self._building_guard:
                lock = self._building.setdefault(name, threading.Lock())
            with lock:  # one build per index: a request waits for the warm-up's instead of racing it
                if name not in derived:
                    # Into the dict of the graph it was built from: if the graph changed meanwhile, it goes with it.
                    derived[name] = build()
        return derived[name]

    def warm(self) -> None:
        """Build the indexes the first requests would otherwise wait for: the cheap ones a first page needs
        (counts, the paper order), then autocomplete."""
        with self.reading():
            self.stats()
            self._paper_counts("author", "AUTHORED")
            self._papers_in_order("id")
            self._suggest_index()

    def check(self) -> None:
        self._current(force=True, wait=False)  # reads the log's version: never waits for a read in flight

    @contextmanager
    def writer_lock(self) -> Iterator[None]:
        """An exclusive lock on ``.ingest.lock`` for a whole ingest: a second ingest waits, then reads fresh."""
        private_folder(self.data_dir, narrow=False)
        with private_file(self.data_dir / ".ingest.lock") as lock:
            fcntl.flock(lock, fcntl.LOCK_EX)
            try:
                self._current(force=True)  # what the ingest before this one wrote
                yield
            finally:
                fcntl.flock(lock, fcntl.LOCK_UN)

    # -- writing -------------------------------------------------------------------------
    def existing_papers(self, ids: Sequence[str]) -> set[str]:
        return {i for i in ids if node_id("paper", i) in self.graph}

    def papers_known_by(self, keys: Sequence[str]) -> dict[str, str]:
        g, out = self.graph, {}
        for key in keys:
            ref = node_id("ref", key)
            if ref in g:
                papers = [g.nodes[p]["id"] for p, _ in self._in(ref, "KNOWN_AS")]
                if papers:
                    out[key] = min(papers)
        return out

    def papers_in_blocks(self, blocks: Sequence[str], limit: int | None = None) -> dict[str, list[str]]:
        index = self._cached("work_blocks", self._work_blocks)
        return {b: index[b][:limit] for b in blocks if b in index}

    def _work_blocks(self) -> dict[str, list[str]]:
        index: dict[str, list[str]] = {}
        for _, d in self._nodes("paper"):
            for block in d.get("blocks", ()):
                index.setdefault(block, []).append(d["id"])
        return index

    def author_keys_of_ids(self, ids: Sequence[str]) -> dict[str, str]:
        known = self.graph.graph.get("author_ids", {})
        return {i: known[i] for i in ids if i in known}

    def people_in_blocks(self, blocks: Sequence[str], *, heads: bool = False) -> list[tuple[str, str, str, str]]:
        index = self._cached("people_blocks", self._people_blocks)
        nodes = self.graph.nodes
        cut = Profile.head if heads else _same
        return [
            (d["key"], d["name"], d["block"], cut(d["profile"])) for b in blocks for d in (nodes[n] for n in index.get(b, ()))
        ]

    def _people_blocks(self) -> dict[str, list[str]]:
        index: dict[str, list[str]] = {}
        for node, d in self.graph.nodes(data=True):
            if d.get("block"):
                index.setdefault(d["block"], []).append(node)
        return index

    def author_aliases(self, *, keys: Sequence[str] = (), blocks: Sequence[str] = ()) -> dict[str, str]:
        aliases = self.graph.graph.get("author_aliases", {})
        wanted_keys, wanted_blocks = set(keys), set(blocks)
        return {k: to for k, (to, block) in aliases.items() if k in wanted_keys or block in wanted_blocks}

    def corrections(self) -> list[dict]:
        return [dict(r) for r in self.graph.graph.get("corrections", ())]

    def papers_with_concepts(self, keys: Sequence[str]) -> dict[str, list[Posting]]:
        out = {}
        nodes = self.graph.nodes
        for key in keys:
            node = node_id("concept", key)
            if node in self.graph:
                out[key] = sorted(
                    (nodes[p]["id"], d["weight"], nodes[p].get("concept_norm", 0.0)) for p, d in self._in(node, "MENTIONS")
                )
        return out

    def topics_of_papers(self, ids: Sequence[str]) -> dict[str, str]:
        nodes = self.graph.nodes
        found = (nodes.get(node_id("paper", pid)) for pid in ids)
        return {d["id"]: d["topic"] for d in found if d and d.get("topic")}

    def apply(self, batch: GraphBatch) -> None:
        """Commit the batch to the log, then add it to the graph in memory (writing costs the batch, not the graph)."""
        expected = list(self._names)
        g = self._current(force=True)  # catches up with the log: what it read is in self._names
        if self._names != expected:
            raise StoreError(
                f"{self.data_dir} changed while this ingest ran (another ingest?); nothing was written, run it again"
            )
        if not adds_anything(g, batch):
            return
        self._names, checkpoint = self.log.append(batch, expected)
        with self._readers.exclusive():
            try:
                apply_batch(g, batch)
            except BaseException:
                self._graph = None  # committed but not applied in memory: read it back from the log next time
                raise
            self._version, self._derived = self.log.version(), {}
        if len(self._names) - max(checkpoint[1] if checkpoint else 0, self._checkpoint_tried) >= CHECKPOINT_EVERY:
            self._save_checkpoint(g)

    def _save_checkpoint(self, g: nx.DiGraph) -> None:
        """Save the graph as a checkpoint; if the disk refuses (full, say), warn and go on. The batch is committed
        and a checkpoint changes no data: loading replays the log instead, and the next try comes
        ``CHECKPOINT_EVERY`` batches later."""
        try:
            self.log.write_checkpoint(g, self._names)
        except OSError as exc:
            self._checkpoint_tried = len(self._names)
            logger.warning(
                "%s: could not save a checkpoint of the graph (%s). Nothing is lost: every chunk is committed, "
                "and loading the store replays them instead (slower). Free some space to let the next one save.",
                self.log.folder,
                exc.strerror or exc,
            )

    # -- reading ---------------------------------------------------------------------------
    def refresh(self) -> None:
        """Look at the file now (the API does this once per request, on the event loop, so it never waits for
        reads in flight: the next look catches up; reads in between use the graph in memory)."""
        self._current(force=True, wait=False)
