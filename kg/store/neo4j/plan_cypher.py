"""A compiled operation's field tree as one Cypher query (the Neo4j store's answer to ``kg.api.graphql.plan``).

Each object comes back as a map: ``_`` holds the node's properties (what the row
mappers in ``queries.py`` turn into models) and ``f0``, ``f1``, … hold what the
fields below it select, as nested ``COLLECT { … }`` subqueries, ordered as the
batched reads order them (the same fragments, from ``queries.py``). Values are
parameters; the text is made of fixed fragments and generated variable names.
Fields with no fragment here raise ``Unsupported``, and the API answers the
operation level by level instead.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Protocol

from kg.models import Concept, Paper
from kg.store.base import COAUTHORS_FIRST
from kg.store.neo4j.queries import (
    ORDERED_LISTS,
    ORDERED_MENTIONS,
    PAPER_ORDERS,
    PROJECTIONS,
    area_of,
    author_of,
    concept_of,
    paper_map,
    paper_of,
)

__all__ = ["Bindings", "Unsupported", "plan_query", "models_of", "tree_values", "concept_roots"]


class Unsupported(Exception):
    """A field this compiler has no fragment for."""


class Bindings(Protocol):
    """What the API binds a compiled operation's arguments with (validated as its resolvers validate them)."""

    def args(self, selection) -> dict: ...
    def first(self, selection, default: int) -> int: ...
    def window(self, selection) -> tuple[int, int]: ...  # (offset, limit)
    def concept_keys(self, name: str) -> list[str]: ...  # the keys it may be, the first one stored wins
    def lookup_terms(self, name: str) -> tuple[list[str], list[str]]: ...  # (exact keys, names) to resolve it by
    def author_key(self, args: dict) -> str: ...


class _Query:
    def __init__(self, bind: Bindings) -> None:
        self.bind = bind
        self.args = bind.args
        self.params: dict[str, Any] = {}
        self.names: dict[int, str] = {}  # id(selection) -> its map key
        self._vars = 0

    def param(self, value: Any) -> str:
        name = f"p{len(self.params)}"
        self.params[name] = value
        return "$" + name

    def var(self) -> str:
        self._vars += 1
        return f"v{self._vars}"

    def key(self, selection) -> str:
        return self.names.setdefault(id(selection), f"f{len(self.names)}")

    def obj(self, type_name: str, n: str, selections) -> str:
        """The map for node ``n`` of ``type_name`` with what ``selections`` ask below it."""
        projection = PROJECTIONS[type_name]
        if type_name in _KEY_PROJECTIONS and _asks_key_only(type_name, selections):
            projection = _KEY_PROJECTIONS[type_name]  # only its key is asked for: read nothing else
        elif type_name in _UNLESS_SELECTED:
            field, without = _UNLESS_SELECTED[type_name]
            if not any(s.name == field for s in selections):
                projection = without
        parts = [f"_: {n} {projection}"]
        for s in selections:
            if s.children or (s.parent, s.name) in _SCALARS:
                parts.append(f"{self.key(s)}: {self.field(s, n)}")
        return "{" + ", ".join(parts) + "}"

    def field(self, s, n: str) -> str:
        if (s.parent, s.name) in _SCALARS:
            return _SCALARS[s.parent, s.name].format(n=n)
        build = _FIELDS.get((s.parent, s.name))
        if build is not None:
            return build(self, s, n)
        if (s.parent, s.name) not in ORDERED_LISTS:
            raise Unsupported(f"{s.parent}.{s.name}")
        x, r = self.var(), self.var()
        match = ORDERED_LISTS[s.parent, s.name].format(n=n, x=x, r=r)
        return f"COLLECT {{ {match} RETURN {self.obj(s.type_name, x, s.children)} }}"


_SCALARS = {
    ("Author", "paperCount"): "COUNT {{ ({n})-[:AUTHORED]->(:Paper) }}",
    ("Concept", "paperCount"): "COUNT {{ ({n})<-[:MENTIONS]-(:Paper) }}",
}


# A property read only when its field is selected (field, the type's projection without it): a paper's
# abstract is its longest property, and most operations never ask for it.
_UNLESS_SELECTED = {"Paper": ("abstract", paper_map("abstract"))}


# Fields a node's key alone answers. A node reached by a key the query already holds (a shared-concepts
# list, a broader key) is not read when only these are selected: its map is just ``{key}``.
_KEY_FIELDS = {"Concept": frozenset({"id", "__typename"}), "Paper": frozenset({"id", "__typename"})}
# A node read where only those fields are selected projects its key alone (a related paper's `paper { id }`).
_KEY_PROJECTIONS = {"Paper": "{.id}"}


def _asks_key_only(type_name: str, selections) -> bool:
    return {c.name for c in selections} <= _KEY_FIELDS.get(type_name, frozenset())


def _key_only(s) -> bool:
    return _asks_key_only(s.type_name, s.children)


def _paper_concepts(q: _Query, s, n: str) -> str:
    """A paper's key concepts; with ``first``, up to that many of all it mentions, key ones first."""
    x, r = q.var(), q.var()
    if q.args(s).get("first") is None:
        match = ORDERED_LISTS["Paper", "concepts"].format(n=n, x=x, r=r)
    else:
        match = f"{ORDERED_MENTIONS.format(n=n, x=x, r=r)} LIMIT {q.param(q.bind.first(s, 0))}"
    return f"COLLECT {{ {match} RETURN {q.obj(s.type_name, x, s.children)} }}"


def _related(q: _Query, s, n: str) -> str:
    first = q.bind.first(s, 10)
    x, r, y, i = q.var(), q.var(), q.var(), q.var()
    parts = [f"_: {{score: {r}.score}}"]
    for c in s.children:
        if c.name == "paper":
            parts.append(f"{q.key(c)}: {q.obj('Paper', x, c.children)}")
        elif c.name == "sharedConcepts" and _key_only(c):
            parts.append(f"{q.key(c)}: [{y} IN {r}.concepts | {{_: {{key: {y}}}}}]")
        elif c.name == "sharedConcepts":
            shared = (
                f"COLLECT {{ UNWIND range(0, size({r}.concepts) - 1) AS {i} MATCH ({y}:Concept {{key: {r}.concepts[{i}]}}) "
                f"WITH {y}, {i} ORDER BY {i} RETURN {q.obj('Concept', y, c.children)} }}"
            )
            parts.append(f"{q.key(c)}: {shared}")
    match = ORDERED_LISTS["Paper", "related"].format(n=n, x=x, r=r)
    return f"COLLECT {{ {match} LIMIT {q.param(first)} RETURN {{{', '.join(parts)}}} }}"


def _coauthors(q: _Query, s, n: str) -> str:
    first = q.bind.first(s, COAUTHORS_FIRST)
    x, r = q.var(), q.var()
    parts = [f"_: {{jointPapers: {r}.papers}}"] + [
        f"{q.key(c)}: {q.obj('Author', x, c.children)}" for c in s.children if c.name == "author"
    ]
    match = ORDERED_LISTS["Author", "coauthors"].format(n=n, x=x, r=r)
    return f"COLLECT {{ {match} LIMIT {q.param(first)} RETURN {{{', '.join(parts)}}} }}"


def _broader(q: _Query, s, n: str) -> str:
    if _key_only(s):  # every broader key is a concept's (the graph stage adds the node with the key)
        return f"CASE WHEN {n}.broader IS NULL THEN null ELSE {{_: {{key: {n}.broader}}}} END"
    x = q.var()
    return f"COLLECT {{ MATCH ({x}:Concept {{key: {n}.broader}}) RETURN {q.obj('Concept', x, s.children)} }}[0]"


def _node_selections(connection) -> tuple:
    """What a connection's ``edges { node { … } }`` select, over every alias of edges and node."""
    return tuple(c for e in connection if e.name == "edges" for n in e.children if n.name == "node" for c in n.children)


def _page(q: _Query, s, match: str, x: str) -> str:
    """A connection: ``items`` (one more than the page) and, when selected, ``total``."""
    offset, limit = q.bind.window(s)
    children = _node_selections(s.children)
    o, n = q.param(offset), q.param(limit)
    parts = [
        f"_: {{offset: {o}, limit: {n}}}",
        f"items: COLLECT {{ {match} SKIP {o} LIMIT {n} + 1 RETURN {q.obj('Paper', x, children)} }}",
    ]
    if any(c.name == "totalCount" for c in s.children):
        parts.append(f"total: COUNT {{ {match} RETURN {x} }}")
    return "{" + ", ".join(parts) + "}"


def _concept_papers(q: _Query, s, n: str) -> str:
    x, m = q.var(), q.var()
    return _page(q, s, f"MATCH ({x}:Paper)-[{m}:MENTIONS]->({n}) WITH {x}, {m} ORDER BY {m}.weight DESC, {x}.id", x)


def _root_papers(q: _Query, s, _n: str) -> str:
    a = q.args(s)
    if any(v is not None for v in (a.get("filter") or {}).values()):
        raise Unsupported("paper filters")
    x = q.var()
    return _page(
        q, s, f"MATCH ({x}:Paper) WHERE {x}.id IS NOT NULL WITH {x} ORDER BY {PAPER_ORDERS[a['orderBy'].value].format(x=x)}", x
    )


def _root_node(label: str, key: str, value: Callable[[_Query, dict], Any]):
    def build(q: _Query, s, _n: str) -> str:
        x = q.var()
        return (
            f"COLLECT {{ MATCH ({x}:{label} {{{key}: {q.param(value(q, q.args(s)))}}}) "
            f"RETURN {q.obj(s.type_name, x, s.children)} }}[0]"
        )

    return build


def _root_author(q: _Query, s, _n: str) -> str:
    """The person an id names, or the one an id merged away now means (``kg authors merge``)."""
    x, alias = q.var(), q.var()
    key = q.param(q.bind.author_key(q.args(s)))
    return (
        f"COLLECT {{ OPTIONAL MATCH ({alias}:AuthorAlias {{key: {key}}}) MATCH ({x}:Author {{key: coalesce({alias}.to, {key})}}) "
        f"RETURN {q.obj(s.type_name, x, s.children)} }}[0]"
    )


def _root_concept(q: _Query, s, _n: str) -> str:
    """The first stored concept of the name's candidate keys, in their order (one query when the name spells a key)."""
    x, i = q.var(), q.var()
    keys = q.param(q.bind.concept_keys(q.args(s)["name"]))
    return (
        f"COLLECT {{ UNWIND range(0, size({keys}) - 1) AS {i} MATCH ({x}:Concept {{key: {keys}[{i}]}}) "
        f"WITH {x}, {i} ORDER BY {i} LIMIT 1 RETURN {q.obj(s.type_name, x, s.children)} }}[0]"
    )


_FIELDS: dict[tuple[str, str], Callable[[_Query, Any, str], str]] = {
    ("Query", "paper"): _root_node("Paper", "id", lambda _q, a: str(a["id"])),
    ("Query", "author"): _root_author,
    ("Query", "concept"): _root_concept,
    ("Query", "papers"): _root_papers,
    ("Paper", "concepts"): _paper_concepts,
    ("Paper", "related"): _related,
    ("Author", "coauthors"): _coauthors,
    ("Concept", "broader"): _broader,
    ("Concept", "papers"): _concept_papers,
}


def plan_query(roots, bind: Bindings) -> tuple[str, dict, dict[int, str]]:
    """(Cypher, parameters, map key of each selection) answering the root selections in one round trip."""
    q = _Query(bind)
    returns = [f"{q.field(s, '')} AS {q.key(s)}" for s in roots if s.name != "__typename"]
    return "RETURN " + ", ".join(returns or ["1 AS one"]), q.params, q.names


def concept_roots(roots, bind: "Bindings") -> list[tuple[Any, str]]:
    """The operation's ``concept(name:)`` roots with their names."""
    return [(s, bind.args(s)["name"]) for s in roots if (s.parent, s.name) == ("Query", "concept")]


def tree_values(row, roots, names: dict[int, str]) -> tuple[dict, dict]:
    """(value per root selection id, map key per selection id) from the query's one row."""
    return {id(s): models_of(row[names[id(s)]], s.type_name, s.children, names) for s in roots if id(s) in names}, names


def models_of(value, type_name: str, selections, names: dict[int, str]):
    """The query's maps with each ``_`` turned into the model the row mappers make (in place)."""
    if value is None:
        return None
    if isinstance(value, list):
        return [models_of(v, type_name, selections, names) for v in value]
    if type_name.endswith("Connection"):
        value["items"] = [models_of(v, "Paper", _node_selections(selections), names) for v in value["items"]]
        return value
    make = _MODELS.get(type_name)
    if make is not None:
        value["_"] = make(value["_"])
    for s in selections:
        if s.children and id(s) in names:
            value[names[id(s)]] = models_of(value[names[id(s)]], s.type_name, s.children, names)
    return value


def _concept(d: dict) -> Concept:
    """A concept's model; read by key only (``_key_only``), it holds just the key, and nothing else is asked of it."""
    return concept_of(d) if "name" in d else Concept(d["key"], "")


def _paper(d: dict) -> Paper:
    """A paper's model; read without its abstract (``_UNLESS_SELECTED``), nothing asks for that; read by its id
    alone (``_KEY_PROJECTIONS``), it holds just the id, and nothing else is asked of it."""
    if "label" not in d:
        return Paper(d["id"], None, "", "")
    return paper_of(d if "abstract" in d else {**d, "abstract": ""})


_MODELS = {"Paper": _paper, "Author": author_of, "Concept": _concept, "ResearchArea": area_of}
