"""A read tree (``kg.store.reads``) as one Cypher query: Neo4j's answer to a whole request in one round trip.

Each thing found comes back as a map: ``_`` holds the node's properties (what the
row mappers in ``queries.py`` turn into models) and each read below it is a key
of its own (its slot), a nested ``COLLECT { … }`` subquery ordered as the
batched reads order it (the same fragments, from ``queries.py``). Values are
parameters; the text is made of fixed fragments and generated variable names.
A read with no fragment here (a filtered papers page) raises ``Unsupported``,
and the store answers the tree level by level instead.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import replace
from typing import Any

from kg.models import Author, CoauthorAnswer, Concept, Paper, RelatedPaperAnswer
from kg.store.neo4j.queries import (
    ORDERED_LISTS,
    ORDERED_MENTIONS,
    PAPER_ORDERS,
    PROFILE_HEAD,
    PROJECTIONS,
    area_of,
    author_of,
    concept_of,
    paper_map,
    paper_of,
)
from kg.store.reads import NODE_TYPES, Read, people_slot

__all__ = ["Unsupported", "plan_query", "answer_of", "unresolved_concepts", "with_concept_keys"]


class Unsupported(Exception):
    """A read this compiler has no fragment for."""


class _Query:
    def __init__(self) -> None:
        self.params: dict[str, Any] = {}
        self._vars = 0

    def param(self, value: Any) -> str:
        name = f"p{len(self.params)}"
        self.params[name] = value
        return "$" + name

    def var(self) -> str:
        self._vars += 1
        return f"v{self._vars}"

    def obj(self, read: Read, n: str) -> str:
        """The map for node ``n`` that ``read`` found, with the reads below it."""
        type_name = NODE_TYPES[read.kind]
        projection = PROJECTIONS[type_name]
        if read.key_only and type_name == "Paper":
            projection = "{.id}"  # only its id is asked for: read nothing else
        elif type_name == "Paper" and not read.abstract:
            projection = _WITHOUT_ABSTRACT  # a paper's longest property, and most operations never ask for it
        parts = [f"_: {n} {projection}"] + [f"{r.slot}: {self.field(r, n)}" for r in read.below]
        return "{" + ", ".join(parts) + "}"

    def field(self, r: Read, n: str) -> str:
        build = _FIELDS.get(r.kind)
        if build is not None:
            return build(self, r, n)
        if r.kind not in _LISTS:
            raise Unsupported(r.kind)
        x, rel = self.var(), self.var()
        match = ORDERED_LISTS[_LISTS[r.kind]].format(n=n, x=x, r=rel)
        return f"COLLECT {{ {match} RETURN {self.obj(r, x)} }}"


_WITHOUT_ABSTRACT = paper_map("abstract")
_LISTS = {  # kind -> its ordered list in queries.py
    "paper.authors": ("Paper", "authors"),
    "paper.areas": ("Paper", "areas"),
    "paper.concepts": ("Paper", "concepts"),
    "author.papers": ("Author", "papers"),
}


def _mentions(q: _Query, r: Read, n: str) -> str:
    """Up to ``first`` of all the concepts a paper mentions, key ones first."""
    x, rel = q.var(), q.var()
    return f"COLLECT {{ {ORDERED_MENTIONS.format(n=n, x=x, r=rel)} LIMIT {q.param(r.first or 0)} RETURN {q.obj(r, x)} }}"


def _related(q: _Query, r: Read, n: str) -> str:
    x, rel, y, i = q.var(), q.var(), q.var(), q.var()
    kinds = {c.kind for c in r.below}
    link = [f"score: {rel}.score", f"year: {x}.year"]  # the link (``_related_answer``): what no read below it gives
    link += [] if "related.paper" in kinds else [f"paperId: {x}.id"]
    link += [] if "related.shared" in kinds else [f"shared: {rel}.concepts"]
    parts = [f"_: {{{', '.join(link)}}}"]
    for c in r.below:
        if c.kind == "related.paper":
            parts.append(f"{c.slot}: {q.obj(c, x)}")
        elif c.key_only:  # related.shared, by key: the keys the edge holds are the concepts' keys
            parts.append(f"{c.slot}: [{y} IN {rel}.concepts | {{_: {{key: {y}}}}}]")
        else:
            parts.append(
                f"{c.slot}: COLLECT {{ UNWIND range(0, size({rel}.concepts) - 1) AS {i} "
                f"MATCH ({y}:Concept {{key: {rel}.concepts[{i}]}}) WITH {y}, {i} ORDER BY {i} RETURN {q.obj(c, y)} }}"
            )
    match = ORDERED_LISTS["Paper", "related"].format(n=n, x=x, r=rel)
    return f"COLLECT {{ {match} LIMIT {q.param(r.first or 0)} RETURN {{{', '.join(parts)}}} }}"


def _coauthors(q: _Query, r: Read, n: str) -> str:
    x, rel = q.var(), q.var()
    parts = [f"_: {{key: {x}.key, jointPapers: {rel}.papers}}"] + [f"{c.slot}: {q.obj(c, x)}" for c in r.below]
    match = ORDERED_LISTS["Author", "coauthors"].format(n=n, x=x, r=rel)
    return f"COLLECT {{ {match} LIMIT {q.param(r.first or 0)} RETURN {{{', '.join(parts)}}} }}"


def _broader(q: _Query, r: Read, n: str) -> str:
    if r.key_only:  # every broader key is a concept's (the graph stage adds the node with the key)
        return f"CASE WHEN {n}.broader IS NULL THEN null ELSE {{_: {{key: {n}.broader}}}} END"
    x = q.var()
    return f"COLLECT {{ MATCH ({x}:Concept {{key: {n}.broader}}) RETURN {q.obj(r, x)} }}[0]"


def _page(q: _Query, r: Read, match: str, x: str) -> str:
    """A page: ``items`` (one more than the page) and, when asked, ``total``."""
    offset, limit = r.window
    o, n = q.param(offset), q.param(limit)
    item = Read("related.paper", "", r.below, abstract=r.abstract, key_only=r.key_only)  # each item is a paper
    parts = [
        f"_: {{offset: {o}, limit: {n}}}",
        f"items: COLLECT {{ {match} SKIP {o} LIMIT {n} + 1 RETURN {q.obj(item, x)} }}",
        f"total: COUNT {{ {match} RETURN {x} }}" if r.total else "total: null",
    ]
    return "{" + ", ".join(parts) + "}"


def _concept_papers(q: _Query, r: Read, n: str) -> str:
    x, m = q.var(), q.var()
    return _page(q, r, f"MATCH ({x}:Paper)-[{m}:MENTIONS]->({n}) WITH {x}, {m} ORDER BY {m}.weight DESC, {x}.id", x)


def _root_papers(q: _Query, r: Read, _n: str) -> str:
    if r.filter is None or not r.filter.selects_all():
        raise Unsupported("paper filters")
    x = q.var()
    order = PAPER_ORDERS[r.filter.order].format(x=x)
    return _page(q, r, f"MATCH ({x}:Paper) WHERE {x}.id IS NOT NULL WITH {x} ORDER BY {order}", x)


def _root_paper(q: _Query, r: Read, _n: str) -> str:
    x = q.var()
    return f"COLLECT {{ MATCH ({x}:Paper {{id: {q.param(r.keys[0])}}}) RETURN {q.obj(r, x)} }}[0]"


def _batch(label: str, key: str):
    """The nodes of these keys that exist, one map each (a batch of roots in one read)."""

    def build(q: _Query, r: Read, _n: str) -> str:
        x, k = q.var(), q.var()
        return f"COLLECT {{ UNWIND {q.param(list(dict.fromkeys(r.keys)))} AS {k} MATCH ({x}:{label} {{{key}: {k}}}) RETURN {q.obj(r, x)} }}"

    return build


def _root_author(q: _Query, r: Read, _n: str) -> str:
    """The person an id names, or the one an id merged away now means (``kg authors merge``)."""
    x, alias = q.var(), q.var()
    key = q.param(r.keys[0])
    return (
        f"COLLECT {{ OPTIONAL MATCH ({alias}:AuthorAlias {{key: {key}}}) MATCH ({x}:Author {{key: coalesce({alias}.to, {key})}}) "
        f"RETURN {q.obj(r, x)} }}[0]"
    )


def _root_concept(q: _Query, r: Read, _n: str) -> str:
    """The first stored concept of the candidate keys, in their order (``unresolved_concepts`` then says which
    roots found none and have names to be looked up by)."""
    x, i = q.var(), q.var()
    keys = q.param(list(r.keys))
    return (
        f"COLLECT {{ UNWIND range(0, size({keys}) - 1) AS {i} MATCH ({x}:Concept {{key: {keys}[{i}]}}) "
        f"WITH {x}, {i} ORDER BY {i} LIMIT 1 RETURN {q.obj(r, x)} }}[0]"
    )


_FIELDS: dict[str, Callable[[_Query, Read, str], str]] = {
    "paper": _root_paper,
    "author": _root_author,
    "concept": _root_concept,
    "papers": _root_papers,
    "papers.by_ids": _batch("Paper", "id"),
    "authors.by_keys": _batch("Author", "key"),
    "paper.mentions": _mentions,
    "paper.related": _related,
    "author.coauthors": _coauthors,
    "author.paper_count": lambda _q, _r, n: f"COUNT {{ ({n})-[:AUTHORED]->(:Paper) }}",
    "concept.paper_count": lambda _q, _r, n: f"COUNT {{ ({n})<-[:MENTIONS]-(:Paper) }}",
    "concept.broader": _broader,
    "concept.papers": _concept_papers,
}


def plan_query(roots: Sequence[Read]) -> tuple[str, dict]:
    """(Cypher, parameters) answering the read tree in one round trip (``Unsupported`` for a read it cannot); an
    author root with name ``blocks`` also returns the people of those blocks (``people_slot``)."""
    q = _Query()
    returns = [f"{q.field(r, '')} AS {r.slot}" for r in roots]
    returns += [f"{_people(q, r.blocks)} AS `{people_slot(r.slot)}`" for r in roots if r.blocks]
    return "RETURN " + ", ".join(returns or ["1 AS one"]), q.params


def _people(q: _Query, blocks: tuple[str, ...]) -> str:
    """The people of these name blocks, each ``[key, name, block, profile head]`` (``PEOPLE_HEADS_IN_BLOCKS``)."""
    x = q.var()
    return f"COLLECT {{ MATCH ({x}:Author) WHERE {x}.block IN {q.param(list(blocks))} RETURN [{x}.key, {x}.name, {x}.block, {PROFILE_HEAD.format(a=x)}] }}"


def unresolved_concepts(roots: Sequence[Read], row) -> list[Read]:
    """The concept roots the query found no stored key for, that have names to be looked up by."""
    return [r for r in roots if r.kind == "concept" and r.names and row[r.slot] is None]


def with_concept_keys(roots: Sequence[Read], found: dict[str, str | None]) -> list[Read]:
    """The roots with each looked-up concept root (slot -> the key its names found) now read by that key."""
    return [replace(r, keys=(k,) if (k := found[r.slot]) else (), names=()) if r.slot in found else r for r in roots]


def answer_of(row, roots: Sequence[Read]) -> dict[str, Any]:
    """The read tree's answer (``kg.store.reads``) from the query's one row: each ``_`` made a model (in place)."""
    found = {r.slot: _models(row[r.slot], r) for r in roots}
    found |= {people_slot(r.slot): [tuple(p) for p in row[people_slot(r.slot)]] for r in roots if r.blocks}
    return found


def _models(value, r: Read):
    if value is None or isinstance(value, int):
        return value
    if isinstance(value, list):
        return [_models(v, r) for v in value]
    kind = NODE_TYPES[r.kind]
    if kind == "page":
        item = Read("related.paper", "", r.below)
        value["items"] = [_models(v, item) for v in value["items"]]
        return value
    for c in r.below:
        value[c.slot] = _models(value[c.slot], c)
    if kind == "related":
        value["_"] = _related_answer(value, r)
    elif kind == "coauthor":
        value["_"] = _coauthor_answer(value, r)
    else:
        value["_"] = _MODELS[kind](value["_"])
    return value


def _related_answer(row: dict, r: Read) -> RelatedPaperAnswer:
    """A related paper's link as every store gives it, made of what the row read: its paper and shared concepts
    as models where they were read below it, else by their keys alone (nothing else is asked of them)."""
    link = row["_"]
    paper = shared = None
    for c in r.below:
        if c.kind == "related.paper":
            paper = row[c.slot]["_"]
        elif c.kind == "related.shared":
            shared = [m["_"] for m in row[c.slot]]
    if paper is None:
        paper = Paper(link["paperId"], None, "", "")
    if shared is None:
        shared = [Concept(k, "") for k in link["shared"] or ()]
    return RelatedPaperAnswer(paper, link["score"], shared, link["year"])


def _coauthor_answer(row: dict, r: Read) -> CoauthorAnswer:
    """A co-author as every store gives them: the person as read below the row, else by their key alone."""
    link = row["_"]
    author = next((row[c.slot]["_"] for c in r.below if c.kind == "coauthor.author"), None)
    return CoauthorAnswer(author or Author(link["key"], ""), link["jointPapers"])


def _concept(d: dict) -> Concept:
    """A concept's model; read by key only, it holds just the key, and nothing else is asked of it."""
    return concept_of(d) if "name" in d else Concept(d["key"], "")


def _paper(d: dict) -> Paper:
    """A paper's model; read without its abstract, nothing asks for that; read by its id alone, it holds just
    the id, and nothing else is asked of it."""
    if "label" not in d:
        return Paper(d["id"], None, "", "")
    return paper_of(d if "abstract" in d else {**d, "abstract": ""})


_MODELS: dict[str, Callable[[dict], Any]] = {
    "Paper": _paper,
    "Author": author_of,
    "Concept": _concept,
    "ResearchArea": area_of,
}
