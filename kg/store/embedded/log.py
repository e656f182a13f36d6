"""The embedded store on disk: an append-only log of graph batches.

A store folder holds ``log/manifest.json`` and one gzipped JSON file per batch
(``log/000001-….json.gz``). An ingest writes its batch file first and then
replaces the manifest in one atomic rename: that rename is the commit. A batch
file the manifest does not name (a killed ingest) is ignored and removed by the
next write. Writing costs the size of the batch, not of the graph, and a reader
that already holds the first k batches applies only the new ones.

Replaying a long log costs time on every start, so every few batches the graph
itself is saved as a checkpoint (a pickle that may hold only plain
builtins: networkx's node and adjacency dicts, ``log/checkpoint-….pickle``, uncompressed because
decompressing cost a third of the load; named in the manifest with how many
batches it covers): loading reads the checkpoint and replays the batches after it.

A folder written by kg 0.1 (``graph.json.gz``, one node-link snapshot) is read
as the first batch of the log and never rewritten.
"""

from __future__ import annotations

import fcntl
import gzip
import json
import os
import pickle
import secrets
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path

import networkx as nx

from kg.errors import StoreError
from kg.graph.build import GraphBatch
from kg.graph.correction import PaperCorrection, PeopleCorrection
from kg.models import Author, Concept, Institution, Paper, PaperSource, ResearchArea

__all__ = [
    "FORMAT_VERSION",
    "GraphLog",
    "batch_to_json",
    "batch_from_json",
    "private_folder",
    "private_file",
    "FILE_MODE",
    "FOLDER_MODE",
]

FORMAT_VERSION = 2
SNAPSHOT_V1 = "graph.json.gz"  # what kg 0.1 wrote: read as the base of the log
FILE_MODE = 0o600  # the store's files, and (FOLDER_MODE) its folders, are the user's alone
FOLDER_MODE = 0o700
STALE_SECONDS = 3600  # a temporary or unnamed batch file this old is what a killed ingest left


def private_folder(folder: Path, *, narrow: bool = True) -> None:
    """Make ``folder`` if needed, readable by the user alone; with ``narrow``, an existing one is narrowed to that
    (kg's own folders: not a store folder the user chose, which may hold other things)."""
    folder.mkdir(mode=FOLDER_MODE, parents=True, exist_ok=True)
    if narrow and folder.stat().st_mode & 0o077:
        folder.chmod(FOLDER_MODE)


def private_file(path: Path, mode: str = "w"):
    """Open (creating it the user's alone) a small file of the store's: a lock, say."""
    return os.fdopen(os.open(path, os.O_RDWR | os.O_CREAT, FILE_MODE), mode)


def batch_to_json(batch: GraphBatch) -> dict:
    """A batch as plain JSON rows (positional, to keep files and load time small)."""
    return {
        "papers": [_paper_row(p) for p in batch.papers],
        "authors": [[a.key, a.name, a.block, a.profile] if a.block else [a.key, a.name] for a in batch.authors],
        "areas": [[a.path, a.name, a.parent] for a in batch.areas],
        "concepts": [[c.key, c.name, list(c.aliases), c.broader] for c in batch.concepts],
        "broader": [list(pair) for pair in batch.broader],
        "authored": [list(row) for row in batch.authored],
        "in_area": [list(row) for row in batch.in_area],
        "mentions": [list(row) for row in batch.mentions],
        **({"minor_mentions": [list(row) for row in batch.minor_mentions]} if batch.minor_mentions else {}),
        "coauthored": [[a, b, n] for (a, b), n in batch.coauthor_increments.items()],
        "shared": [[p, q, score, list(keys)] for (p, q), (score, keys) in batch.shared.items()],
        "institutions": [[i.key, i.name] for i in batch.institutions],
        "affiliated": [[a, i, n] for (a, i), n in batch.affiliated.items()],
        "author_ids": batch.author_ids,
        **(
            {"known_as": [list(r) for r in batch.known_as], "cites": [list(r) for r in batch.cites]}
            if batch.known_as or batch.cites
            else {}
        ),
        **({"correction": batch.correction.to_json()} if batch.correction is not None else {}),
        **({"sources": {pid: [s.encode() for s in ss] for pid, ss in batch.sources.items()}} if batch.sources else {}),
        **({"updates": [_paper_row(p) for p in batch.updates]} if batch.updates else {}),
        **({"blocks": [list(row) for row in batch.blocks]} if batch.blocks else {}),
        **({"paper_correction": batch.paper_correction.to_json()} if batch.paper_correction is not None else {}),
    }


def _paper_row(p: Paper) -> list:
    return [p.id, p.title, p.label, p.abstract, p.venue, p.year, p.authors_truncated, p.concept_norm, p.citations, p.topic]


def batch_from_json(obj: dict) -> GraphBatch:
    return GraphBatch(
        papers=[Paper(*row) for row in obj["papers"]],
        authors=[Author(*row) for row in obj["authors"]],
        authored=obj["authored"],  # rows stay lists: unpacked like tuples, and cheaper to load
        areas=[ResearchArea(*row) for row in obj["areas"]],
        in_area=obj["in_area"],
        concepts=[Concept(key, name, tuple(aliases), broader) for key, name, aliases, broader in obj["concepts"]],
        mentions=obj["mentions"],
        minor_mentions=obj.get("minor_mentions", []),
        broader=[tuple(row) for row in obj["broader"]],
        coauthor_increments={(a, b): n for a, b, n in obj["coauthored"]},
        shared={(p, q): (score, keys) for p, q, score, keys in obj["shared"]},
        institutions=[Institution(*row) for row in obj.get("institutions", ())],
        affiliated={(a, i): n for a, i, n in obj.get("affiliated", ())},
        author_ids=dict(obj.get("author_ids", {})),
        known_as=[tuple(r) for r in obj.get("known_as", ())],
        cites=[tuple(r) for r in obj.get("cites", ())],
        correction=PeopleCorrection.from_json(obj["correction"]) if "correction" in obj else None,
        sources={pid: [PaperSource.decode(s) for s in ss] for pid, ss in obj.get("sources", {}).items()},
        updates=[Paper(*row) for row in obj.get("updates", ())],
        blocks=[tuple(row) for row in obj.get("blocks", ())],
        paper_correction=PaperCorrection.from_json(obj["paper_correction"]) if "paper_correction" in obj else None,
    )


def _batch_from_snapshot(obj: dict) -> GraphBatch:
    """A kg 0.1 node-link snapshot as one batch (its co-author weights are totals, so they are increments from zero)."""
    batch = GraphBatch()
    nodes = {n["node"]: n for n in obj["graph"]["nodes"]}
    for n in nodes.values():
        kind = n["kind"]
        if kind == "paper":
            batch.papers.append(
                Paper(
                    n["id"],
                    n.get("title"),
                    n["label"],
                    n["abstract"],
                    n.get("venue"),
                    n.get("year"),
                    n.get("authors_truncated", False),
                    n.get("concept_norm", 0.0),
                )
            )
        elif kind == "author":
            batch.authors.append(Author(n["key"], n["name"]))
        elif kind == "area":
            batch.areas.append(ResearchArea(n["path"], n["name"], n.get("parent")))
        elif kind == "concept":
            batch.concepts.append(Concept(n["key"], n["name"], tuple(n.get("aliases", ())), n.get("broader")))
    for e in obj["graph"]["edges"]:
        u, v, t = nodes[e["source"]], nodes[e["target"]], e["type"]
        if t == "AUTHORED":
            batch.authored.append((u["key"], v["id"], e["position"]))
        elif t == "IN_AREA":
            batch.in_area.append((u["id"], v["path"]))
        elif t == "MENTIONS":
            (batch.minor_mentions if e.get("minor") else batch.mentions).append((u["id"], v["key"], e["weight"]))
        elif t == "BROADER":
            batch.broader.append((u["key"], v["key"]))
        elif t == "CO_AUTHORED":
            batch.coauthor_increments[(u["key"], v["key"])] = e["papers"]
        elif t == "SHARES_CONCEPT":
            batch.shared[(u["id"], v["id"])] = (e["score"], tuple(e["concepts"]))
    return batch


class _GraphUnpickler(pickle.Unpickler):
    """Unpickles plain builtins and nothing else: a checkpoint can name no class or function to run."""

    ALLOWED = {("builtins", "dict"), ("builtins", "list"), ("builtins", "set"), ("builtins", "tuple"), ("builtins", "frozenset")}

    def find_class(self, module: str, name: str):
        if (module, name) not in self.ALLOWED:
            raise pickle.UnpicklingError(f"a kg checkpoint does not name {module}.{name}")
        return super().find_class(module, name)


def _read_gzip_json(path: Path) -> dict:
    try:
        with gzip.open(path, "rb") as handle:
            return json.loads(handle.read())
    except (OSError, ValueError, EOFError) as exc:
        raise StoreError(f"{path}: cannot read the embedded store ({exc})") from exc


class GraphLog:
    """The files of one store folder. Not thread-safe; one writer at a time (the ingest lock)."""

    def __init__(self, data_dir: Path) -> None:
        self.data_dir = Path(data_dir)
        self.folder = self.data_dir / "log"
        self.manifest = self.folder / "manifest.json"

    def version(self) -> tuple[int, int] | None:
        """Changes whenever a write commits: the manifest's (or the kg 0.1 snapshot's) mtime and size."""
        for path in (self.manifest, self.data_dir / SNAPSHOT_V1):
            try:
                st = path.stat()
            except FileNotFoundError:
                continue
            return (st.st_mtime_ns, st.st_size)
        return None

    def _read_manifest(self) -> dict:
        if not self.manifest.exists():
            return {"format": FORMAT_VERSION, "batches": []}
        try:
            obj = json.loads(self.manifest.read_text(encoding="utf-8"))
        except (OSError, ValueError) as exc:
            raise StoreError(f"{self.manifest}: cannot read the embedded store ({exc})") from exc
        if obj.get("format") != FORMAT_VERSION:
            raise StoreError(f"{self.manifest}: store format {obj.get('format')!r}, expected {FORMAT_VERSION}")
        return obj

    def _names_in(self, manifest: dict) -> list[str]:
        legacy = [SNAPSHOT_V1] if (self.data_dir / SNAPSHOT_V1).exists() else []
        return legacy + manifest["batches"]

    def state(self) -> tuple[list[str], tuple[str, int] | None]:
        """From one read of the manifest: the committed batches, oldest first, and the newest
        checkpoint as (file, how many of those batches it holds), if any."""
        manifest = self._read_manifest()
        found = manifest.get("checkpoint")
        return self._names_in(manifest), (found["file"], found["covers"]) if found else None

    def names(self) -> list[str]:
        """The committed batches, oldest first."""
        return self.state()[0]

    def checkpoint(self) -> tuple[str, int] | None:
        return self.state()[1]

    def read_checkpoint(self, file: str) -> nx.DiGraph:
        """The graph a checkpoint holds (a pickle of networkx's dicts that may name no class or function)."""
        try:
            # Uncompressed, read by the C unpickler from a buffered file: decompressing took a third of the load.
            with (self.folder / file).open("rb", buffering=1 << 20) as handle:
                saved = _GraphUnpickler(handle).load()
            attrs, nodes, succ, pred = saved
        except (OSError, EOFError, pickle.UnpicklingError, ValueError, TypeError) as exc:
            raise StoreError(f"{self.folder / file}: cannot read the embedded store ({exc})") from exc
        graph = nx.DiGraph()
        graph.graph, graph._node, graph._succ, graph._pred = attrs, nodes, succ, pred
        graph._adj = succ  # networkx's DiGraph keeps _adj and _succ as one dict
        return graph

    def write_checkpoint(self, graph: nx.DiGraph, names: list[str]) -> None:
        """Save the graph that ``names`` give, so that loading reads it at once instead of replaying them.

        A checkpoint changes no data: readers see the same batches, and one that
        already holds them keeps its graph.
        """
        file = f"checkpoint-{len(names):06d}-{secrets.token_hex(4)}.pickle"
        fd, tmp = tempfile.mkstemp(prefix=".graph-", suffix=".tmp", dir=self.folder)
        try:
            with os.fdopen(fd, "wb", buffering=1 << 20) as handle:
                # networkx's own dicts, pickled as plain builtins (edge data shared by succ and pred stays shared)
                pickle.dump((graph.graph, graph._node, graph._succ, graph._pred), handle, protocol=5)
            os.chmod(tmp, FILE_MODE)
            os.replace(tmp, self.folder / file)
        except BaseException:
            Path(tmp).unlink(missing_ok=True)
            raise
        with private_file(self.data_dir / ".lock") as lock:
            fcntl.flock(lock, fcntl.LOCK_EX)
            obj = self._read_manifest()
            if self._names_in(obj) != names:  # another writer came first: its graph is newer; drop this one
                (self.folder / file).unlink(missing_ok=True)
                return
            old = obj.get("checkpoint")
            obj["checkpoint"] = {"file": file, "covers": len(names)}
            self._write_atomically(self.manifest, json.dumps(obj, indent=0).encode("utf-8"))
        if old:
            (self.folder / old["file"]).unlink(missing_ok=True)

    def read(self, name: str) -> GraphBatch:
        if name == SNAPSHOT_V1:
            obj = _read_gzip_json(self.data_dir / SNAPSHOT_V1)
            if obj.get("format") != 1:
                raise StoreError(f"{self.data_dir / SNAPSHOT_V1}: store format {obj.get('format')!r}, expected 1")
            return _batch_from_snapshot(obj)
        return batch_from_json(_read_gzip_json(self.folder / name))

    def append(self, batch: GraphBatch, expected: list[str]) -> tuple[list[str], tuple[str, int] | None]:
        """Commit one batch after ``expected``; refuse when another writer committed since. Returns what
        ``state()`` would then: the new list of batches and the newest checkpoint (from the same manifest read)."""
        name = f"{len(expected) + 1:06d}-{secrets.token_hex(4)}.json.gz"
        payload = json.dumps(batch_to_json(batch), separators=(",", ":")).encode("utf-8")
        try:
            private_folder(self.data_dir, narrow=False)
            private_folder(self.folder)
            self._write_atomically(self.folder / name, gzip.compress(payload, compresslevel=3, mtime=0))
            with private_file(self.data_dir / ".lock") as lock:
                fcntl.flock(lock, fcntl.LOCK_EX)
                obj = self._read_manifest()
                if self._names_in(obj) != expected:
                    (self.folder / name).unlink(missing_ok=True)
                    raise StoreError(
                        f"{self.data_dir} changed while this ingest ran (another ingest?); nothing was written, run it again"
                    )
                obj["batches"] = [n for n in (*expected, name) if n != SNAPSHOT_V1]
                self._write_atomically(self.manifest, json.dumps(obj, indent=0).encode("utf-8"))  # the commit
        except OSError as exc:  # a full disk, say: the manifest still names what it named, so nothing changed
            (self.folder / name).unlink(missing_ok=True)
            raise StoreError(
                f"{self.folder}: cannot write to the embedded store ({exc.strerror or exc}); this write changed "
                "nothing (what was committed before it is kept), run it again when that is mended"
            ) from exc
        names = [*expected, name]
        current = obj.get("checkpoint")
        self._remove_leftovers(set(names), current["file"] if current else None)
        return names, (current["file"], current["covers"]) if current else None

    def _write_atomically(self, target: Path, data: bytes) -> None:
        fd, tmp = tempfile.mkstemp(prefix=".graph-", suffix=".tmp", dir=target.parent)
        try:
            with os.fdopen(fd, "wb") as handle:
                handle.write(data)
                handle.flush()
                os.fsync(handle.fileno())
            os.chmod(tmp, FILE_MODE)
            os.replace(tmp, target)
        except BaseException:
            Path(tmp).unlink(missing_ok=True)
            raise

    def _remove_leftovers(self, committed: set[str], checkpoint: str | None) -> None:
        """Temporaries and unnamed batch files an hour old are what a killed ingest left; nothing else writes one that long."""
        cutoff = time.time() - STALE_SECONDS
        for path in self._leftover_candidates(committed, checkpoint):
            try:
                if path.stat().st_mtime < cutoff:
                    path.unlink()
            except FileNotFoundError:
                pass

    def _leftover_candidates(self, committed: set[str], checkpoint: str | None) -> Iterator[Path]:
        yield from self.data_dir.glob(".graph-*.tmp")
        yield from self.folder.glob(".graph-*.tmp")
        for path in self.folder.glob("*.json.gz"):
            if path.name not in committed:
                yield path
        for path in self.folder.glob("checkpoint-*.pickle*"):
            if path.name != checkpoint:
                yield path
