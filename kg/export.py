"""The graph, or a neighbourhood of it, as a networkx graph and as files Gephi, Cytoscape and networkx open.

Node ids are ``kind:key`` (``paper:…``, ``author:wei lin``, ``concept:…``,
``area:…``); every node has ``kind`` and ``label``. Edges have ``type``
(AUTHORED, MENTIONS with ``minor``, IN_AREA, CO_AUTHORED with ``weight``, SHARES_CONCEPT with
``weight`` and ``concepts``, CITES). Undirected relations are stored once. The whole
graph is a multigraph: a paper that cites a paper it shares concepts with is joined
to it twice. A reference to a work kg does not have is a ``ref:<key>`` node.
"""

from __future__ import annotations

import csv
import json
from collections.abc import Iterable, Sequence
from pathlib import Path

import networkx as nx

from kg.models import Author, Concept, Paper, ResearchArea
from kg.store.base import EVERY_MENTION, PaperFilter, Store

__all__ = [
    "FORMATS",
    "whole_graph",
    "author_neighbourhood",
    "concept_neighbourhood",
    "write_graph",
    "csv_cell",
    "co_citation_edges",
]

FORMATS = ("graphml", "gexf", "json", "csv")
_CHUNK = 500


def _chunks(items: Sequence, size: int = _CHUNK) -> Iterable[Sequence]:
    for i in range(0, len(items), size):
        yield items[i : i + size]


def _all(page_fn) -> list:
    items, offset = [], 0
    while True:
        page = page_fn(offset, 1000)
        items.extend(page.items)
        offset += len(page.items)
        if not page.items or offset >= page.total:
            return items


def _add_paper(g: nx.DiGraph, p: Paper) -> None:
    g.add_node(f"paper:{p.id}", kind="paper", label=p.label, title=p.title or "", year=p.year or 0, venue=p.venue or "")


def _add_author(g: nx.DiGraph, a: Author) -> None:
    g.add_node(f"author:{a.key}", kind="author", label=a.name)


def _add_concept(g: nx.DiGraph, c: Concept) -> None:
    g.add_node(f"concept:{c.key}", kind="concept", label=c.name, aliases="; ".join(c.aliases))


def _add_area(g: nx.DiGraph, a: ResearchArea) -> None:
    g.add_node(f"area:{a.path}", kind="area", label=a.path)


def _paper_edges(store: Store, g: nx.DiGraph, ids: Sequence[str], *, related_within: set[str] | None) -> None:
    """Authors, concepts, areas and shares-concept edges of the papers (related ones only among ``related_within``)."""
    for chunk in _chunks(list(ids)):
        for pid, authors, key, concepts, areas, related in zip(
            chunk,
            store.authors_of_papers(chunk),
            store.concepts_of_papers(chunk),
            store.concepts_of_papers(chunk, EVERY_MENTION),
            store.areas_of_papers(chunk),
            store.related_papers(chunk, 1000),
            strict=True,
        ):
            for position, a in enumerate(authors):
                _add_author(g, a)
                g.add_edge(f"author:{a.key}", f"paper:{pid}", type="AUTHORED", position=position)
            for i, c in enumerate(concepts):
                _add_concept(g, c)
                g.add_edge(f"paper:{pid}", f"concept:{c.key}", type="MENTIONS", minor=i >= len(key))
            for area in areas:
                _add_area(g, area)
                g.add_edge(f"paper:{pid}", f"area:{area.path}", type="IN_AREA")
            for r in related:
                other = r.paper_id
                if (related_within is None or other in related_within) and pid < other:
                    g.add_edge(
                        f"paper:{pid}", f"paper:{other}", type="SHARES_CONCEPT", weight=r.score, concepts="; ".join(r.shared)
                    )


def _coauthor_edges(store: Store, g: nx.DiGraph, keys: Sequence[str], within: set[str] | None = None) -> None:
    for chunk in _chunks(list(keys)):
        for key, coauthors in zip(chunk, store.coauthors_of(chunk), strict=True):
            for c in coauthors:
                if key < c.author_key and (within is None or c.author_key in within):
                    g.add_edge(f"author:{key}", f"author:{c.author_key}", type="CO_AUTHORED", weight=c.joint_papers)


def _citation_edges(store: Store, g: nx.MultiDiGraph, ids: Sequence[str]) -> None:
    """What each paper cites: the papers kg has, and the works it has not as ``ref:<key>`` nodes (``kind``
    ``citation``); then the papers linked through what they cite (``co_citation_edges``)."""
    cited: dict[str, list[str]] = {}  # paper -> the nodes it cites
    for chunk in _chunks(list(ids)):
        for pid, references in zip(chunk, store.references_of_papers(chunk), strict=True):
            for r in references:
                if r.paper_id:
                    target = f"paper:{r.paper_id}"
                else:
                    target = f"ref:{r.key}"
                    g.add_node(target, kind="ref", label=r.key)
                g.add_edge(f"paper:{pid}", target, type="CITES", kind="citation")
                cited.setdefault(f"paper:{pid}", []).append(target)
    co_citation_edges(g, cited)


def co_citation_edges(g: nx.MultiDiGraph, cited: dict[str, list[str]], fanout: int = 1000) -> None:
    """Papers cited together (``kind`` ``co-citation``, ``weight``: the papers citing both) and papers citing the
    same works (``kind`` ``coupling``, ``weight``: the works both cite), each pair once (Small 1973; Kessler 1963).
    A paper citing more than ``fanout`` works, or a work more than ``fanout`` papers cite, adds no pairs: its
    pairs grow with its square and say little.

    >>> g = nx.MultiDiGraph()
    >>> co_citation_edges(g, {"paper:a": ["paper:x", "paper:y", "ref:k"], "paper:b": ["paper:x", "ref:k"]})
    >>> sorted((u, v, d["kind"], d["weight"]) for u, v, d in g.edges(data=True))
    [('paper:a', 'paper:b', 'coupling', 2), ('paper:x', 'paper:y', 'co-citation', 1)]
    """
    from collections import Counter
    from itertools import combinations

    together: Counter = Counter()
    citing: dict[str, list[str]] = {}
    for paper, targets in cited.items():
        targets = sorted(set(targets))
        if len(targets) <= fanout:
            together.update(combinations([t for t in targets if t.startswith("paper:")], 2))
        for t in targets:
            citing.setdefault(t, []).append(paper)
    coupled: Counter = Counter()
    for papers in citing.values():
        if len(papers) <= fanout:
            coupled.update(combinations(sorted(papers), 2))
    for (a, b), n in sorted(together.items()):
        g.add_edge(a, b, type="CO_CITED", kind="co-citation", weight=n)
    for (a, b), n in sorted(coupled.items()):
        g.add_edge(a, b, type="COUPLED", kind="coupling", weight=n)


def whole_graph(store: Store) -> nx.MultiDiGraph:
    """Every paper, author, concept and area, with every relation kg stores (citations too)."""
    g = nx.MultiDiGraph()
    papers = _all(lambda o, n: store.find_papers(PaperFilter(), o, n))
    for p in papers:
        _add_paper(g, p)
    ids = [p.id for p in papers]
    _paper_edges(store, g, ids, related_within=None)
    _citation_edges(store, g, ids)
    authors = _all(lambda o, n: store.find_authors(None, o, n))
    for a in authors:
        _add_author(g, a)
    _coauthor_edges(store, g, [a.key for a in authors])
    for c in _all(lambda o, n: store.find_concepts(None, o, n)):
        _add_concept(g, c)
    return g


def author_neighbourhood(store: Store, key: str, depth: int) -> nx.DiGraph:
    """The co-author network around an author (the API's ``network(depth)``)."""
    network = store.coauthor_network(key, depth)
    g = nx.DiGraph()
    for a in network.nodes:
        _add_author(g, a)
    for source, target, weight in network.edges:
        g.add_edge(f"author:{source}", f"author:{target}", type="CO_AUTHORED", weight=weight)
    return g


def concept_neighbourhood(store: Store, key: str) -> nx.DiGraph:
    """A concept, the papers that mention it (with their authors and other concepts), and the shares-concept edges among them."""
    g = nx.DiGraph()
    papers = _all(lambda o, n: store.find_papers(PaperFilter(concept=key), o, n))
    for p in papers:
        _add_paper(g, p)
    ids = [p.id for p in papers]
    _paper_edges(store, g, ids, related_within=set(ids))
    return g


def _scalar(value):
    return value if isinstance(value, (str, int, float, bool)) else ("" if value is None else str(value))


_FORMULA = ("=", "+", "-", "@", "\t", "\r")


def csv_cell(value):
    """A value as a CSV cell a spreadsheet will not run: text starting with ``= + - @``, a tab or a carriage return
    is prefixed with an apostrophe (OWASP's rule against formula injection); numbers stay numbers.

    >>> [csv_cell(v) for v in ("=HYPERLINK(1)", "@SUM(1+1)", "-1 result", "Plain", -2, 0.5)]
    ["'=HYPERLINK(1)", "'@SUM(1+1)", "'-1 result", 'Plain', -2, 0.5]
    """
    value = _scalar(value)
    return "'" + value if isinstance(value, str) and value.startswith(_FORMULA) else value


def write_graph(g: nx.DiGraph | nx.MultiDiGraph, fmt: str, output: Path) -> list[Path]:
    """Write ``g``; returns the files written (csv writes ``output`` as edges and ``*.nodes.csv`` beside it)."""
    if fmt == "graphml":
        nx.write_graphml(g, output)
    elif fmt == "gexf":
        nx.write_gexf(g, output)
    elif fmt == "json":
        output.write_text(json.dumps(nx.node_link_data(g, edges="edges"), ensure_ascii=False, indent=1) + "\n", encoding="utf-8")
    elif fmt == "csv":
        nodes = output.with_name(output.stem + ".nodes.csv")
        keys = sorted({k for _, d in g.nodes(data=True) for k in d})
        with nodes.open("w", newline="", encoding="utf-8") as handle:
            writer = csv.writer(handle)
            writer.writerow(["id", *keys])
            for n, d in g.nodes(data=True):
                writer.writerow([csv_cell(n), *(csv_cell(d.get(k)) for k in keys)])
        edge_keys = sorted({k for _, _, d in g.edges(data=True) for k in d})
        with output.open("w", newline="", encoding="utf-8") as handle:
            writer = csv.writer(handle)
            writer.writerow(["source", "target", *edge_keys])
            for u, v, d in g.edges(data=True):
                writer.writerow([csv_cell(u), csv_cell(v), *(csv_cell(d.get(k)) for k in edge_keys)])
        return [output, nodes]
    else:
        raise ValueError(f"unknown format {fmt!r}; expected one of {', '.join(FORMATS)}")
    return [output]
