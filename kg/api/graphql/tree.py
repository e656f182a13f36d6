"""A compiled operation's selections as the store's read tree (``kg.store.reads``), arguments bound.

This is where the API's words (types, fields, ``first``/``after``, names a user
types) become the graph's (kinds of read, limits, windows, keys): the store
never sees a GraphQL selection. Arguments are checked as the resolvers check
them (a bad one raises, and graphql-core then answers the request with the error
at its path); a concept's name becomes the keys it may be and the names to look
it up by; an author's name becomes the person's id (``KGService.author_id``).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace
from typing import Any

from graphql import get_argument_values

from kg.api.graphql.pagination import check_first, page_window
from kg.api.graphql.plan import TYPENAME, Selection
from kg.api.graphql.rows import LEAVES, author_ref
from kg.authors.lookup import NameLookup, name_lookup
from kg.graph.identity import author_key
from kg.readers.formats import dblp_author_ids
from kg.service import MAX_NAME_CHARS, KGService, PaperQuery, concept_lookup_terms
from kg.store.base import COAUTHORS_FIRST
from kg.store.reads import Read

__all__ = ["TreeBuilder", "SUPPORTED", "KINDS", "speculative_lookup"]

# (type, field) -> the kind of read that answers it
KINDS: dict[tuple[str, str], str] = {
    ("Query", "paper"): "paper",
    ("Query", "author"): "author",
    ("Query", "concept"): "concept",
    ("Query", "papers"): "papers",
    ("Paper", "authors"): "paper.authors",
    ("Paper", "areas"): "paper.areas",
    ("Paper", "concepts"): "paper.concepts",  # with `first`: paper.mentions
    ("Paper", "related"): "paper.related",
    ("RelatedPaper", "paper"): "related.paper",
    ("RelatedPaper", "sharedConcepts"): "related.shared",
    ("Author", "papers"): "author.papers",
    ("Author", "coauthors"): "author.coauthors",
    ("Author", "paperCount"): "author.paper_count",
    ("Coauthor", "author"): "coauthor.author",
    ("Concept", "broader"): "concept.broader",
    ("Concept", "paperCount"): "concept.paper_count",
    ("Concept", "papers"): "concept.papers",
}
_CONNECTION = {
    ("PaperConnection", "edges"),
    ("PaperConnection", "pageInfo"),
    ("PaperConnection", "totalCount"),
    ("PaperEdge", "node"),
}
SUPPORTED = frozenset(KINDS) | frozenset(LEAVES) | frozenset(_CONNECTION)
_KEY_FIELDS = frozenset({"id", TYPENAME})  # what a node's key alone answers


class TreeBuilder:
    """One request's read tree: the reads, and the slot each selection's answer is found at (``slots``)."""

    def __init__(
        self, service: KGService, variables, author_ids: dict[str, str] | None = None, *, speculate: bool = False
    ) -> None:
        self.service = service
        self.variables = variables
        self.author_ids = author_ids or {}  # author(name:) already resolved (``PlanRun.answer_in_loop``)
        # author(name:) read by the key its name spells, with the people of its blocks to resolve it by after
        self.speculate = speculate
        self.slots: dict[int, str] = {}

    def args(self, s: Selection) -> dict[str, Any]:
        assert s.definition is not None  # only __typename has none, and it takes no arguments
        return get_argument_values(s.definition, s.node, self.variables)

    def roots(self, selections: tuple[Selection, ...]) -> list[Read]:
        return [self.read(s) for s in selections if s.name != TYPENAME]

    def read(self, s: Selection) -> Read:
        kind = KINDS[s.parent, s.name]
        if s.type_name.endswith("Connection"):
            return self._page(s, kind)
        key_only, abstract = _node(s.children)
        read = Read(kind, self._slot(s), self._below(s.children), key_only=key_only, abstract=abstract)
        bound = _BIND.get(kind)
        return replace(read, **bound(self, s)) if bound is not None else read

    def _slot(self, s: Selection) -> str:
        return self.slots.setdefault(id(s), f"f{len(self.slots)}")

    def _below(self, children: tuple[Selection, ...]) -> tuple[Read, ...]:
        return tuple(self.read(c) for c in children if (c.parent, c.name) in KINDS)

    def _page(self, s: Selection, kind: str) -> Read:
        """A page of papers: the reads below are those of every ``edges { node { … } }`` it selects."""
        a = self.args(s)
        nodes = tuple(c for e in s.children if e.name == "edges" for n in e.children if n.name == "node" for c in n.children)
        key_only, abstract = _node(nodes)
        return Read(
            kind,
            self._slot(s),
            self._below(nodes),
            window=page_window(a.get("first"), a.get("after")),
            total=any(c.name == "totalCount" for c in s.children),
            filter=self._filter(a) if kind == "papers" else None,
            key_only=key_only,
            abstract=abstract,
        )

    def _filter(self, a: dict):
        f = a["filter"] or {}  # graphql-core gives input objects as dicts by schema name
        query = PaperQuery(
            f.get("area"),
            f.get("concept"),
            f.get("author"),
            f.get("text"),
            f.get("yearFrom"),
            f.get("yearTo"),
            f.get("venue"),
            a["orderBy"].value,
        )
        return self.service.paper_filter(query)

    def author(self, args: dict) -> dict[str, Any]:
        """The person ``author(id:)`` or ``author(name:)`` asks for (the name resolved as the service resolves it);
        speculating, a name is read by the key it spells, with its blocks' people (``speculative_lookup``)."""
        ref = author_ref(args.get("name"), args.get("id"))
        if args.get("id") is not None:  # an id is a key, read as it is
            return {"keys": (ref,)}
        if ref in self.author_ids:
            return {"keys": (self.author_ids[ref],)}
        if self.speculate and (lookup := speculative_lookup(ref)) is not None:
            return {"keys": (author_key(ref),), "names": (ref,), "blocks": lookup.blocks}
        return {"keys": (self.service.author_id(ref),)}


def speculative_lookup(ref: str) -> NameLookup | None:
    """A name's lookup, when the people of its blocks settle it (``KGService.author_id`` reads nothing else first):
    not for a name too long to be one, nor for dblp's numbered names (read by their dblp id)."""
    if len(ref) > MAX_NAME_CHARS or dblp_author_ids([ref]) is not None:
        return None
    return name_lookup(ref)


def _node(children: tuple[Selection, ...]) -> tuple[bool, bool]:
    """(only its key is asked for, its abstract is asked for) of a node with these selections."""
    names = {c.name for c in children}
    return names <= _KEY_FIELDS, "abstract" in names


def _concept(b: TreeBuilder, s: Selection) -> dict:
    exact, names = concept_lookup_terms(b.args(s)["name"])
    return {"keys": tuple(exact), "names": tuple(names)}


def _concepts(b: TreeBuilder, s: Selection) -> dict:
    first = b.args(s).get("first")
    return {} if first is None else {"kind": "paper.mentions", "first": check_first(first, 0)}


_BIND: dict[str, Callable[[TreeBuilder, Selection], dict[str, Any]]] = {  # a kind's arguments, bound
    "paper": lambda b, s: {"keys": (str(b.args(s)["id"]),)},
    "author": lambda b, s: b.author(b.args(s)),
    "concept": _concept,
    "paper.concepts": _concepts,
    "paper.related": lambda b, s: {"first": check_first(b.args(s).get("first"), 10)},
    "author.coauthors": lambda b, s: {"first": check_first(b.args(s).get("first"), COAUTHORS_FIRST)},
}
