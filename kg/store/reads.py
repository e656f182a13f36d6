"""A read tree: what one request reads from the graph, in the graph's own words.

A :class:`Read` names one read (``KINDS``: a paper by id, a paper's related
papers, an author's co-authors, a concept's papers as a page, …) with its
arguments already bound (how many, which page, the keys to look up) and the
reads to make below each thing it finds. The API turns a GraphQL selection into
such a tree (``kg.api.graphql.tree``); a store answers the whole tree at once
(``Store.read_tree``). Every store can answer it level by level through its
batched reads (:func:`read_level_by_level`, one batched read per kind and level);
Neo4j answers it in one query (``kg.store.neo4j.plan_cypher``).

The answer is a map per root slot. Each thing found is a map whose ``_`` holds
its model (a ``Paper``, an ``Author``, a ``Concept``, a ``ResearchArea``; for a
related paper or a co-author, the link: anything with ``score`` or
``joint_papers``) and whose other keys are the slots of the reads below it. A
page is ``{"_": {"offset", "limit"}, "items": [...], "total": n or None}`` with up
to ``limit + 1`` items (the one past the page says there is a next page); a count
is an int; nothing found is None.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from kg import deadline
from kg.store.shapes import PaperFilter, read_by_key

if TYPE_CHECKING:
    from kg.store.base import Store

__all__ = ["Read", "KINDS", "NODE_TYPES", "read_level_by_level"]


@dataclass(frozen=True, slots=True)
class Read:
    """One read of a tree: its ``kind``, where its answer goes (``slot``), its bound arguments and the reads below."""

    kind: str
    slot: str
    below: tuple["Read", ...] = ()
    first: int | None = None  # a list: at most this many (``paper.mentions``, ``paper.related``, ``author.coauthors``)
    window: tuple[int, int] = (0, 0)  # a page: (offset, limit)
    total: bool = False  # a page: count every match too
    keys: tuple[
        str, ...
    ] = ()  # a root: the paper id, the author id, a concept's candidate keys (first stored wins), or a batch's keys
    names: tuple[str, ...] = ()  # a concept root: the names and aliases to look it up by when none of its keys is stored
    # an author root asked for by name and read by the key the name spells: the name blocks whose people (key, name,
    # block, profile head) the same read returns, at ``people_slot(slot)``, to resolve the name by (``kg.authors``)
    blocks: tuple[str, ...] = ()
    filter: PaperFilter | None = None  # the papers root: its resolved filter (None: it matches nothing)
    key_only: bool = False  # a node: only its key is asked for
    abstract: bool = False  # a paper: its abstract is asked for


def people_slot(slot: str) -> str:
    """Where a read tree's answer holds the people of an author root's ``blocks``."""
    return f"{slot}~people"


# kind -> what each thing it finds is: a model type (a node), "page" (of papers), "count", or a link row
NODE_TYPES: dict[str, str] = {
    "paper": "Paper",
    "author": "Author",
    "concept": "Concept",
    "papers": "page",
    "papers.by_ids": "Paper",  # the papers of these ids that exist (any order): a batch of roots in one read
    "authors.by_keys": "Author",  # the same for people
    "paper.authors": "Author",
    "paper.areas": "ResearchArea",
    "paper.concepts": "Concept",  # its key concepts
    "paper.mentions": "Concept",  # up to ``first`` of every concept it mentions, key ones first
    "paper.related": "related",  # below it: related.paper, related.shared
    "related.paper": "Paper",
    "related.shared": "Concept",
    "author.papers": "Paper",
    "author.coauthors": "coauthor",  # below it: coauthor.author
    "coauthor.author": "Author",
    "author.paper_count": "count",
    "concept.paper_count": "count",
    "concept.broader": "Concept",
    "concept.papers": "page",
}
KINDS = frozenset(NODE_TYPES)
_MANY = frozenset(
    {
        "paper.authors",
        "paper.areas",
        "paper.concepts",
        "paper.mentions",
        "paper.related",
        "related.shared",
        "author.papers",
        "author.coauthors",
    }
)  # kinds that find a list for each parent


def read_level_by_level(store: "Store", roots: Sequence[Read]) -> dict[str, Any]:
    """The tree's answer through the store's batched reads: one read per kind and level, however many parents."""
    out: dict[str, Any] = {}
    for r in roots:
        [out[r.slot]] = _fill(store, [None], r)
    return out


def _fill(store: "Store", parents: list, read: Read, values: list | None = None) -> list:
    """``read``'s answer for each parent model (``values``, when read already), with the reads below it
    answered for everything found."""
    deadline.check()  # level by level: a request past its deadline reads no further
    if values is None:
        values = _READERS[read.kind](store, parents, read)
    kind = NODE_TYPES[read.kind]
    if kind == "count":
        return values
    if kind == "page":
        window = {"offset": read.window[0], "limit": read.window[1]}
        pages = [{"_": window, "items": [{"_": p} for p in items], "total": total} for items, total in values]
        found = [m for p in pages for m in p["items"]]
        _below(store, found, read)
        return pages
    if read.kind in _MANY:
        lists = [[{"_": v} for v in vs] for vs in values]
        _below(store, [m for ms in lists for m in ms], read)
        return lists
    maps = [None if v is None else {"_": v} for v in values]
    _below(store, [m for m in maps if m is not None], read)
    return maps


def _below(store: "Store", found: list[dict], read: Read) -> None:
    if not found:
        return
    parents = [m["_"] for m in found]
    together = _lists_together(store, parents, read.below)
    for r in read.below:
        for m, value in zip(found, _fill(store, parents, r, together.get(r.slot))):
            m[r.slot] = value


# list kinds a store answers side by side under one node (``lists_of``): kind -> (node kind, list, node's key)
_LISTS: dict[str, tuple[str, str, Callable[[Any], str]]] = {
    "paper.authors": ("paper", "authors", lambda p: p.id),
    "paper.areas": ("paper", "areas", lambda p: p.id),
    "paper.concepts": ("paper", "concepts", lambda p: p.id),
    "author.papers": ("author", "papers", lambda a: a.key),
}


def _lists_together(store: "Store", parents: list, reads: Sequence[Read]) -> dict[str, list]:
    """The sibling reads' lists of one node kind, read in one ``lists_of`` call: slot -> one list per parent."""
    wanted = [r for r in reads if r.kind in _LISTS]
    if not wanted:
        return {}
    node, _, key = _LISTS[wanted[0].kind]
    names = sorted({_LISTS[r.kind][1] for r in wanted})
    found = store.lists_of(node, [key(p) for p in parents], names)
    return {r.slot: found[_LISTS[r.kind][1]] for r in wanted}


def _one_of(values: list) -> Any:
    return next((v for v in values if v is not None), None)


def _root_author(store: "Store", parents, r: Read):
    key = r.keys[0]
    found = store.authors_by_keys([key])[0]
    if found is None and (to := store.author_aliases(keys=[key]).get(key)) is not None:
        found = store.authors_by_keys([to])[0]  # an id merged into another person (``kg authors merge``)
    return [found] * len(parents)


def _root_concept(store: "Store", parents, r: Read):
    found = _one_of(store.concepts_by_keys(list(r.keys))) if r.keys else None
    if found is None and r.names:
        key = store.resolve_concept([], list(r.names))
        found = store.concepts_by_keys([key])[0] if key is not None else None
    return [found] * len(parents)


def _page(store: "Store", paper_filter: PaperFilter | None, r: Read) -> tuple[list, int | None]:
    if paper_filter is None:
        return [], 0 if r.total else None
    offset, limit = r.window
    items = store.find_papers(paper_filter, offset, limit + 1, count=False).items
    return items, store.count_papers(paper_filter) if r.total else None


_READERS: dict[str, Callable[["Store", list, Read], list]] = {
    "paper": lambda store, parents, r: store.papers_by_ids([r.keys[0]]) * len(parents),
    "author": _root_author,
    "concept": _root_concept,
    "papers": lambda store, parents, r: [_page(store, r.filter, r)] * len(parents),
    "papers.by_ids": lambda store, parents, r: [[p for p in store.papers_by_ids(list(r.keys)) if p is not None]] * len(parents),
    "authors.by_keys": lambda store, parents, r: (
        [[a for a in store.authors_by_keys(list(r.keys)) if a is not None]] * len(parents)
    ),
    "paper.mentions": lambda store, parents, r: store.concepts_of_papers([p.id for p in parents], r.first),
    "paper.related": lambda store, parents, r: store.related_answers([p.id for p in parents], r.first or 0),
    "related.paper": lambda _store, parents, _r: [a.paper for a in parents],
    "related.shared": lambda _store, parents, _r: [a.shared for a in parents],
    "author.coauthors": lambda store, parents, r: store.coauthor_answers([a.key for a in parents], r.first or 0),
    "coauthor.author": lambda _store, parents, _r: [c.author for c in parents],
    "author.paper_count": lambda store, parents, _r: store.paper_counts_of_authors([a.key for a in parents]),
    "concept.paper_count": lambda store, parents, _r: store.paper_counts_of_concepts([c.key for c in parents]),
    "concept.broader": lambda store, parents, _r: _broader(store, parents),
    "concept.papers": lambda store, parents, r: [_page(store, PaperFilter(concept=c.key), r) for c in parents],
}


def _broader(store: "Store", parents) -> list:
    found = read_by_key(store.concepts_by_keys, (c.broader for c in parents if c.broader is not None))
    return [found.get(c.broader) if c.broader is not None else None for c in parents]
