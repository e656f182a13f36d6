"""The embedded store: one networkx graph in memory, kept on disk as a log of batches (``log.py``).

An ingest commits its batch to the log first and only then changes the graph in
memory. A reader that sees a newer log applies the batches it has not seen.
"""

from __future__ import annotations

import fcntl
import gc
import heapq
import threading
import time
from collections import Counter, defaultdict
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path

import networkx as nx

from kg.errors import StoreError
from kg.graph.build import GraphBatch, Posting, SharedEdge
from kg.models import (
    AREA_SEPARATOR,
    Author,
    Coauthor,
    Concept,
    Facets,
    Institution,
    Page,
    Paper,
    RelatedConcept,
    RelatedPaper,
    ResearchArea,
    Stats,
    Suggestion,
)
from kg.store.base import PAPER_ORDERS, RELATED_CONCEPTS_SAMPLE, Network, nearest_first, PaperFilter, Store, concept_lookup_terms, rank_suggestions
from kg.store.embedded.log import GraphLog
from kg.store.textsearch import BM25Index, PrefixIndex, words_of

__all__ = ["EmbeddedStore", "apply_batch"]

RECHECK_SECONDS = 0.5  # how stale a reader may be after another process committed
RELATED_LIMIT = 100  # the most related concepts the API asks for (its loaders' limit)
CHECKPOINT_EVERY = 4  # batches replayed at most (beyond the last checkpoint) when a store is loaded


def _n(kind: str, key: str) -> str:
    return f"{kind}:{key}"


def apply_batch(g: nx.DiGraph, batch: GraphBatch) -> None:
    """Add one batch to the graph in place (MERGE semantics; co-author weights add up)."""
    for p in batch.papers:
        g.add_node(_n("paper", p.id), kind="paper", id=p.id, title=p.title, label=p.label, abstract=p.abstract,
                   venue=p.venue, year=p.year, authors_truncated=p.authors_truncated, concept_norm=p.concept_norm,
                   citations=p.citations)
    for a in batch.authors:
        if _n("author", a.key) not in g:
            g.add_node(_n("author", a.key), kind="author", key=a.key, name=a.name)
    for area in batch.areas:
        node = _n("area", area.path)
        if node not in g:
            g.add_node(node, kind="area", path=area.path, name=area.name, parent=area.parent)
        if area.parent:
            g.add_edge(node, _n("area", area.parent), type="SUBAREA_OF")
    for c in batch.concepts:
        node = _n("concept", c.key)
        if node in g:
            d = g.nodes[node]
            if not set(c.aliases) <= set(d["aliases"]):
                d["aliases"] = sorted(set(d["aliases"]) | set(c.aliases))
            d["broader"] = d.get("broader") or c.broader
        else:
            g.add_node(node, kind="concept", key=c.key, name=c.name, aliases=sorted(c.aliases), broader=c.broader)
    for narrow, broad in batch.broader:
        g.add_edge(_n("concept", narrow), _n("concept", broad), type="BROADER")
    for key, pid, position in batch.authored:
        g.add_edge(_n("author", key), _n("paper", pid), type="AUTHORED", position=position)
    for pid, path in batch.in_area:
        g.add_edge(_n("paper", pid), _n("area", path), type="IN_AREA")
    for pid, key, weight in batch.mentions:
        g.add_edge(_n("paper", pid), _n("concept", key), type="MENTIONS", weight=weight)
    _add_counts(g, "CO_AUTHORED", ((_n("author", a), _n("author", b), n) for (a, b), n in batch.coauthor_increments.items()))
    for (p, q), (score, concepts) in batch.shared.items():
        g.add_edge(_n("paper", p), _n("paper", q), type="SHARES_CONCEPT", score=score, concepts=list(concepts))
    known = g.graph.setdefault("author_ids", {})
    for source_id, key in batch.author_ids.items():
        known.setdefault(source_id, key)
    for i in batch.institutions:
        if _n("institution", i.key) not in g:
            g.add_node(_n("institution", i.key), kind="institution", key=i.key, name=i.name)
    _add_counts(g, "AFFILIATED_WITH", ((_n("author", a), _n("institution", i), n) for (a, i), n in batch.affiliated.items()))


def _add_counts(g: nx.DiGraph, etype: str, increments) -> None:
    """Edges that count papers (co-authorship, affiliation): a new edge starts at its increment, a stored one adds it."""
    for u, v, inc in increments:
        old = g.get_edge_data(u, v)
        if old is None:
            g.add_edge(u, v, type=etype, papers=inc)
        else:
            old["papers"] += inc


def adds_anything(g: nx.DiGraph, batch: GraphBatch) -> bool:
    """Whether applying the batch would change the graph (a re-run of an ingest adds nothing)."""
    if batch.papers or batch.authored or batch.mentions or batch.coauthor_increments or batch.shared or batch.affiliated or batch.author_ids:
        return True
    if any(_n("area", a.path) not in g for a in batch.areas):
        return True
    return any(not g.has_edge(_n("paper", p), _n("area", a)) for p, a in batch.in_area)


class EmbeddedStore(Store):
    """A file-backed networkx store under ``data_dir``. Nothing is read until first use."""

    kind = "embedded"
    blocking = False  # reads are in memory: a thread hand-off would cost more than the read

    def __init__(self, data_dir: str | Path) -> None:
        self.data_dir = Path(data_dir)
        self.log = GraphLog(self.data_dir)
        self._graph: nx.DiGraph | None = None
        self._names: list[str] = []  # the committed batches the graph holds
        self._version: tuple[int, int] | None = None  # the log's version the graph was read at
        self._derived: dict[str, object] = {}  # indexes built from the graph, dropped when it changes
        self._checked_at = float("-inf")  # when the log's version was last looked at
        self._catching_up = threading.RLock()
        self._building = threading.RLock()  # apart: /healthz and catch-up never wait for an index build

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

    def _current(self, *, force: bool) -> nx.DiGraph:
        now = time.monotonic()
        if self._graph is None or force or now - self._checked_at >= RECHECK_SECONDS:
            with self._catching_up:  # one thread applies new batches; another (the warm-up) waits for it
                version = self.log.version()
                self._checked_at = now
                if self._graph is None or version != self._version:
                    self._catch_up(version)
        return self._graph

    def _catch_up(self, version) -> None:
        """Apply the batches committed since the graph was read; read all of them when the log was rewritten."""
        names, checkpoint = self.log.state()  # one read: the two always agree
        fresh = self._graph is None or names[: len(self._names)] != self._names
        graph = nx.DiGraph() if fresh else self._graph
        todo = names if fresh else names[len(self._names):]
        # Loading makes millions of long-lived objects: the cyclic GC would scan them again and again.
        enabled = gc.isenabled()
        gc.disable()
        try:
            if fresh:
                self._graph, self._names = None, []
                if checkpoint is not None and checkpoint[1] <= len(names):
                    graph, todo = self.log.read_checkpoint(checkpoint[0]), names[checkpoint[1]:]
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
            with self._building:  # one build per index: a request waits for the warm-up's instead of racing it
                if name not in derived:
                    # Into the dict of the graph it was built from: if the graph changed meanwhile, it goes with it.
                    derived[name] = build()
        return derived[name]

    def warm(self) -> None:
        """Build the indexes the first requests would otherwise wait for (autocomplete, counts, the paper order)."""
        self._suggest_index()
        self._papers_in_order("id")
        self.stats()

    def check(self) -> None:
        self._current(force=True)

    @contextmanager
    def writer_lock(self) -> Iterator[None]:
        """An exclusive lock on ``.ingest.lock`` for a whole ingest: a second ingest waits, then reads fresh."""
        self.data_dir.mkdir(parents=True, exist_ok=True)
        with (self.data_dir / ".ingest.lock").open("w") as lock:
            fcntl.flock(lock, fcntl.LOCK_EX)
            try:
                self._current(force=True)  # what the ingest before this one wrote
                yield
            finally:
                fcntl.flock(lock, fcntl.LOCK_UN)

    # -- helpers -------------------------------------------------------------------------
    def _nodes(self, kind: str):
        return ((n, d) for n, d in self.graph.nodes(data=True) if d["kind"] == kind)

    def _out(self, node: str, etype: str):
        return ((m, d) for m, d in self.graph.succ[node].items() if d["type"] == etype)

    def _in(self, node: str, etype: str):
        return ((m, d) for m, d in self.graph.pred[node].items() if d["type"] == etype)

    def _both(self, node: str, etype: str):
        yield from self._out(node, etype)
        yield from self._in(node, etype)

    def _paper(self, node: str) -> Paper:
        d = self.graph.nodes[node]
        return Paper(d["id"], d.get("title"), d["label"], d["abstract"], d.get("venue"), d.get("year"),
                     d.get("authors_truncated", False), d.get("concept_norm", 0.0), d.get("citations"))

    def _author(self, node: str) -> Author:
        d = self.graph.nodes[node]
        return Author(d["key"], d["name"])

    def _concept(self, node: str) -> Concept:
        d = self.graph.nodes[node]
        return Concept(d["key"], d["name"], tuple(d.get("aliases", ())), d.get("broader"))

    def _area(self, node: str) -> ResearchArea:
        d = self.graph.nodes[node]
        return ResearchArea(d["path"], d["name"], d.get("parent"))

    def _get(self, kind: str, keys: Sequence[str], make) -> list:
        g = self.graph
        return [make(_n(kind, k)) if _n(kind, k) in g else None for k in keys]

    # -- writing -------------------------------------------------------------------------
    def existing_papers(self, ids: Sequence[str]) -> set[str]:
        return {i for i in ids if _n("paper", i) in self.graph}

    def author_keys_of_ids(self, ids: Sequence[str]) -> dict[str, str]:
        known = self.graph.graph.get("author_ids", {})
        return {i: known[i] for i in ids if i in known}

    def papers_with_concepts(self, keys: Sequence[str]) -> dict[str, list[Posting]]:
        out = {}
        nodes = self.graph.nodes
        for key in keys:
            node = _n("concept", key)
            if node in self.graph:
                out[key] = sorted(
                    (nodes[p]["id"], d["weight"], nodes[p].get("concept_norm", 0.0)) for p, d in self._in(node, "MENTIONS")
                )
        return out

    def concept_postings(self) -> dict[str, list[str]]:
        return {d["id"]: [self.graph.nodes[c]["key"] for c, _ in self._out(n, "MENTIONS")] for n, d in self._nodes("paper")}

    def shared_edges(self) -> dict[tuple[str, str], SharedEdge]:
        out = {}
        for u, v, d in self.graph.edges(data=True):
            if d["type"] == "SHARES_CONCEPT":
                out[(self.graph.nodes[u]["id"], self.graph.nodes[v]["id"])] = (d["score"], tuple(d["concepts"]))
        return out

    def apply(self, batch: GraphBatch) -> None:
        """Commit the batch to the log, then add it to the graph in memory (writing costs the batch, not the graph)."""
        expected = list(self._names)
        g = self._current(force=True)  # catches up with the log: what it read is in self._names
        if self._names != expected:
            raise StoreError(f"{self.data_dir} changed while this ingest ran (another ingest?); nothing was written, run it again")
        if not adds_anything(g, batch):
            return
        self._names = self.log.append(batch, expected)
        try:
            apply_batch(g, batch)
        except BaseException:
            self._graph = None  # committed but not applied in memory: read it back from the log next time
            raise
        checkpoint = self.log.checkpoint()
        if len(self._names) - (checkpoint[1] if checkpoint else 0) >= CHECKPOINT_EVERY:
            self.log.write_checkpoint(g, self._names)
        self._version, self._derived = self.log.version(), {}

    # -- reading ---------------------------------------------------------------------------
    def refresh(self) -> None:
        """Look at the file now (the API does this once per request; reads in between use the graph in memory)."""
        self._current(force=True)

    def stats(self) -> Stats:
        self.refresh()
        def count() -> Stats:
            kinds = Counter(d["kind"] for _, d in self.graph.nodes(data=True))
            types = Counter(d["type"] for _, _, d in self.graph.edges(data=True))
            return Stats(kinds["paper"], kinds["author"], kinds["concept"], kinds["area"], types["CO_AUTHORED"], types["SHARES_CONCEPT"])

        return self._cached("stats", count)

    def _alias_index(self) -> dict[str, list[str]]:
        def build() -> dict[str, list[str]]:
            index: dict[str, list[str]] = defaultdict(list)
            for _, d in self._nodes("concept"):
                for name in {d["name"].lower(), *(a.lower() for a in d["aliases"])}:
                    index[name].append(d["key"])
            return index

        return self._cached("aliases", build)

    def resolve_concept(self, name: str) -> str | None:
        exact, names = concept_lookup_terms(name)
        for key in exact:
            if _n("concept", key) in self.graph:
                return key
        keys = sorted({k for n in names for k in self._alias_index().get(n, ())})
        if not keys:
            return None
        counts = self.paper_counts_of_concepts(keys)
        return min(zip(keys, counts), key=lambda kc: (-kc[1], kc[0]))[0]

    def _paper_matches(self, node: str, flt: PaperFilter) -> bool:
        g = self.graph
        if flt.author is not None and not g.has_edge(_n("author", flt.author), node):
            return False
        if flt.concept is not None and not g.has_edge(node, _n("concept", flt.concept)):
            return False
        if flt.area is not None:
            wanted = flt.area.lower()
            paths = [g.nodes[a]["path"].lower() for a, _ in self._out(node, "IN_AREA")]
            if not any(p == wanted or p.split(AREA_SEPARATOR.lower())[0] == wanted for p in paths):
                return False
        if flt.year_from is not None or flt.year_to is not None or flt.venue is not None:
            d = g.nodes[node]
            year = d.get("year")
            if flt.year_from is not None and (year is None or year < flt.year_from):
                return False
            if flt.year_to is not None and (year is None or year > flt.year_to):
                return False
            if flt.venue is not None and d.get("venue") != flt.venue:
                return False
        if flt.text:
            d = g.nodes[node]
            hay = f"{d.get('title') or ''} {d['abstract']}".lower()
            if not all(word in hay for word in flt.text.lower().split()):
                return False
        return True

    def _matching_papers(self, flt: PaperFilter) -> list[str]:
        """Nodes of the papers the filter matches, unordered (every paper comes from a cached list)."""
        g = self.graph
        if flt.author is not None:
            node = _n("author", flt.author)
            pool = [p for p, _ in self._out(node, "AUTHORED")] if node in g else []
        elif flt.concept is not None:
            node = _n("concept", flt.concept)
            pool = [p for p, _ in self._in(node, "MENTIONS")] if node in g else []
        else:
            pool = self._papers_in_order("id")
        return pool if flt.selects_all() else [n for n in pool if self._paper_matches(n, flt)]

    def _papers_in_order(self, order: str) -> list[str]:
        """Every paper node in one of the orders, sorted once per graph version."""
        return self._cached(f"papers_by_{order}", lambda: sorted((n for n, _ in self._nodes("paper")), key=self._order_key(order)))

    def _order_key(self, order: str):
        nodes = self.graph.nodes
        if order == "id":
            return lambda n: nodes[n]["id"]
        assert order in PAPER_ORDERS, order  # "citations" or "year": the node attribute of that name, most first
        return lambda n: (-(nodes[n].get(order) if nodes[n].get(order) is not None else -1), nodes[n]["id"])

    def find_papers(self, flt: PaperFilter, offset: int, limit: int) -> Page:
        g = self.graph
        if flt.selects_all():  # every paper: from the cached order
            pool = self._papers_in_order(flt.order)
            return Page([self._paper(n) for n in pool[offset : offset + limit]], len(pool))
        hits = self._matching_papers(flt)
        if flt.concept is not None and flt.order == "id":  # the papers most about the concept first
            concept = _n("concept", flt.concept)
            hits.sort(key=lambda n: (-g.edges[n, concept]["weight"], g.nodes[n]["id"]))
        else:
            hits.sort(key=self._order_key(flt.order))
        return Page([self._paper(n) for n in hits[offset : offset + limit]], len(hits))

    def paper_facets(self, flt: PaperFilter) -> Facets:
        def count() -> Facets:
            nodes = self.graph.nodes
            years: Counter[int] = Counter()
            venues: Counter[str] = Counter()
            for n in self._matching_papers(flt):
                d = nodes[n]
                if d.get("year") is not None:
                    years[d["year"]] += 1
                if d.get("venue"):
                    venues[d["venue"]] += 1
            return Facets(sorted(years.items()), sorted(venues.items(), key=lambda vc: (-vc[1], vc[0])))

        if flt.selects_all():
            return self._cached("facets", count)
        return count()

    def find_authors(self, search: str | None, offset: int, limit: int) -> Page:
        needle = " ".join(search.lower().split()) if search else None
        found = [(n, d) for n, d in self._nodes("author") if needle is None or needle in d["key"]]
        counts = self._paper_counts("author", "AUTHORED")
        found.sort(key=lambda nd: (-counts[nd[0]], nd[1]["key"]))
        return Page([self._author(n) for n, _ in found[offset : offset + limit]], len(found))

    def find_concepts(self, search: str | None, offset: int, limit: int) -> Page:
        needle = " ".join(search.lower().split()) if search else None

        def hit(d) -> bool:
            return needle is None or needle in d["name"].lower() or needle in d["key"] or any(needle in a.lower() for a in d["aliases"])

        found = [(n, d) for n, d in self._nodes("concept") if hit(d)]
        counts = self._paper_counts("concept", "MENTIONS")
        found.sort(key=lambda nd: (-counts[nd[0]], nd[1]["key"]))
        return Page([self._concept(n) for n, _ in found[offset : offset + limit]], len(found))

    def _paper_counts(self, kind: str, etype: str) -> dict[str, int]:
        """Papers per author or concept node, counted once per version of the graph."""

        def build() -> dict[str, int]:
            counts: Counter[str] = Counter()
            for u, v, d in self.graph.edges(data=True):
                if d["type"] == etype:
                    counts[u if kind == "author" else v] += 1
            return counts

        return self._cached(f"counts:{kind}", build)

    def top_areas(self) -> list[ResearchArea]:
        return sorted((self._area(n) for n, d in self._nodes("area") if not d.get("parent")), key=lambda a: a.path)

    def search(self, query: str, limit: int) -> list[tuple[str, float]]:
        index = self._cached("bm25", lambda: BM25Index({d["id"]: f"{d.get('title') or ''} {d['abstract']}" for _, d in self._nodes("paper")}))
        return index.search(query, limit)

    def _suggest_index(self) -> dict[str, PrefixIndex]:
        """Per kind, a word index for autocomplete (built once per graph version, on first use)."""

        def build():
            authors = self._paper_counts("author", "AUTHORED")
            concepts = self._paper_counts("concept", "MENTIONS")
            return {
                "concept": PrefixIndex((d["key"], d["name"], [d["name"], *d["aliases"]], concepts[n]) for n, d in self._nodes("concept")),
                "author": PrefixIndex((d["key"], d["name"], [d["name"]], authors[n]) for n, d in self._nodes("author")),
                "paper": PrefixIndex((d["id"], d["label"], [d["label"]], d.get("citations") or 0) for n, d in self._nodes("paper")),
            }

        return self._cached("suggest", build)

    def suggest(self, prefix: str, limit: int) -> list[Suggestion]:
        typed = words_of(prefix)
        if not typed or limit == 0:
            return []
        exact = " ".join(prefix.lower().split())
        found = []
        for kind, index in self._suggest_index().items():
            for key in index.best(typed, exact, limit):
                label, weight = index.meta[key]
                found.append(Suggestion(kind, key, label, weight, kind != "paper" and key in index.exact.get(exact, ())))
        return rank_suggestions(found, limit)

    def _coauthor_adjacency(self, node: str) -> list[tuple[str, int]]:
        return [(m, d["papers"]) for m, d in self._both(node, "CO_AUTHORED")]

    def _coauthor_graph(self) -> nx.Graph:
        """The co-author edges alone, undirected, built once per version of the graph."""

        def build() -> nx.Graph:
            co = nx.Graph()
            co.add_edges_from((u, v, {"papers": d["papers"]}) for u, v, d in self.graph.edges(data=True) if d["type"] == "CO_AUTHORED")
            return co

        return self._cached("coauthors", build)

    def coauthor_network(self, key: str, depth: int, limit: int | None = None) -> Network:
        start = _n("author", key)
        if start not in self.graph:
            return Network([], [])
        co = self._coauthor_graph()
        within = nx.single_source_shortest_path_length(co, start, cutoff=depth) if start in co else {start: 0}
        if limit is not None and len(within) > limit:
            kept = set(nearest_first(within, {n: co.degree(n) for n in within} if start in co else {}, limit))
        else:
            kept = set(within)
        nodes = sorted(kept, key=lambda n: self.graph.nodes[n]["key"])
        keys = {n: self.graph.nodes[n]["key"] for n in nodes}
        edges = sorted((*sorted((keys[u], keys[v])), d["papers"]) for u, v, d in co.subgraph(nodes).edges(data=True))
        return Network([self._author(n) for n in nodes], edges, len(within) if limit is not None else None)

    def collaboration_path(self, source: str, target: str) -> list[Author] | None:
        """The shortest co-author path; among equals, the one whose keys sort first."""
        s, t = _n("author", source), _n("author", target)
        g = self.graph
        if s not in g or t not in g:
            return None
        if s == t:
            return [self._author(s)]
        co = self._coauthor_graph()
        if s not in co or t not in co:
            return None
        dist = nx.single_source_shortest_path_length(co, t)
        if s not in dist:
            return None
        path = [s]
        while path[-1] != t:
            here = path[-1]
            step = min((m for m in co.adj[here] if dist.get(m) == dist[here] - 1), key=lambda m: g.nodes[m]["key"])
            path.append(step)
        return [self._author(n) for n in path]

    # -- batched ---------------------------------------------------------------------------
    def papers_by_ids(self, ids):
        return self._get("paper", ids, self._paper)

    def authors_by_keys(self, keys):
        return self._get("author", keys, self._author)

    def concepts_by_keys(self, keys):
        return self._get("concept", keys, self._concept)

    def areas_by_paths(self, paths):
        return self._get("area", paths, self._area)

    def authors_of_papers(self, ids):
        out = []
        for pid in ids:
            node = _n("paper", pid)
            rows = sorted(self._in(node, "AUTHORED"), key=lambda md: md[1]["position"]) if node in self.graph else []
            out.append([self._author(m) for m, _ in rows])
        return out

    def areas_of_papers(self, ids):
        return [
            sorted((self._area(m) for m, _ in self._out(_n("paper", pid), "IN_AREA")), key=lambda a: a.path)
            if _n("paper", pid) in self.graph else []
            for pid in ids
        ]

    def concepts_of_papers(self, ids):
        out = []
        for pid in ids:
            node = _n("paper", pid)
            rows = list(self._out(node, "MENTIONS")) if node in self.graph else []
            rows.sort(key=lambda md: (-md[1]["weight"], self.graph.nodes[md[0]]["key"]))
            out.append([self._concept(m) for m, _ in rows])
        return out

    def related_papers(self, ids, limit):
        out = []
        for pid in ids:
            node = _n("paper", pid)
            rows = []
            if node in self.graph:
                for m, d in self._both(node, "SHARES_CONCEPT"):
                    rows.append(RelatedPaper(self.graph.nodes[m]["id"], tuple(d["concepts"]), d["score"]))
            rows.sort(key=lambda r: (-r.score, r.paper_id))
            out.append(rows[:limit])
        return out

    def papers_of_authors(self, keys):
        out = []
        for key in keys:
            node = _n("author", key)
            papers = [self._paper(m) for m, _ in self._out(node, "AUTHORED")] if node in self.graph else []
            out.append(sorted(papers, key=lambda p: p.id))
        return out

    def paper_counts_of_authors(self, keys):
        return [sum(1 for _ in self._out(_n("author", k), "AUTHORED")) if _n("author", k) in self.graph else 0 for k in keys]

    def coauthors_of(self, keys):
        out = []
        for key in keys:
            node = _n("author", key)
            rows = [Coauthor(self.graph.nodes[m]["key"], w) for m, w in self._coauthor_adjacency(node)] if node in self.graph else []
            out.append(sorted(rows, key=lambda c: (-c.joint_papers, c.author_key)))
        return out

    def paper_counts_of_concepts(self, keys):
        return [sum(1 for _ in self._in(_n("concept", k), "MENTIONS")) if _n("concept", k) in self.graph else 0 for k in keys]

    def related_concepts(self, keys, limit):
        # Each concept's ranking is an index over the graph, built the first time it is asked for.
        known: dict[str, list[RelatedConcept]] = self._cached("related_concepts", dict)
        out = []
        for key in keys:
            if key not in known:
                known[key] = self._rank_related_concepts(key)
            out.append(known[key][:limit])
        return out

    def _rank_related_concepts(self, key: str) -> list[RelatedConcept]:
        node = _n("concept", key)
        counts: Counter[str] = Counter()
        if node in self.graph:
            nodes = self.graph.nodes
            mentions = heapq.nsmallest(RELATED_CONCEPTS_SAMPLE, self._in(node, "MENTIONS"), key=lambda pd: (-pd[1]["weight"], nodes[pd[0]]["id"]))
            for paper, _ in mentions:
                for other, _ in self._out(paper, "MENTIONS"):
                    if other != node:
                        counts[nodes[other]["key"]] += 1
        ranked = sorted(counts.items(), key=lambda kv: (-kv[1], kv[0]))[:RELATED_LIMIT]
        return [RelatedConcept(k, c) for k, c in ranked]

    def children_of_areas(self, paths):
        return [
            sorted((self._area(m) for m, _ in self._in(_n("area", p), "SUBAREA_OF")), key=lambda a: a.path)
            if _n("area", p) in self.graph else []
            for p in paths
        ]

    def institutions_of_authors(self, keys):
        out = []
        for key in keys:
            node = _n("author", key)
            rows = [(self.graph.nodes[m], d["papers"]) for m, d in self._out(node, "AFFILIATED_WITH")] if node in self.graph else []
            rows.sort(key=lambda r: (-r[1], r[0]["key"]))
            out.append([(Institution(d["key"], d["name"]), n) for d, n in rows])
        return out

    def paper_counts_of_areas(self, paths):
        out = []
        for path in paths:
            node = _n("area", path)
            if node not in self.graph:
                out.append(0)
                continue
            areas = [node] + [m for m, _ in self._in(node, "SUBAREA_OF")]
            out.append(len({p for a in areas for p, _ in self._in(a, "IN_AREA")}))
        return out
