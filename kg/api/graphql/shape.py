"""The response from the store's answer to a read tree (``kg.store.reads``).

The store gives, for each root read, maps whose ``_`` is the node's model (or a
related paper's or co-author's link) and whose other keys are the slots of the
reads below it (``names``: each selection's slot); this walks the selections in
order and builds the response: leaves read off the models, cursors and page
rules as the strawberry resolvers give them.
"""

from __future__ import annotations

from typing import Any

from kg import deadline
from kg.api.graphql.pagination import encode_cursor
from kg.api.graphql.plan import TYPENAME, Selection
from kg.api.graphql.rows import LEAVES, Connection

from kg.errors import AnswerTooLarge

__all__ = ["shape_roots", "Budget"]


class Budget:
    """What an answer may grow to as it is built: about ``limit`` bytes as JSON (each string's length and a few bytes
    an object); past it, ``AnswerTooLarge``. The deadline is checked as it grows too, so that building a large answer
    stops at it like the reads before."""

    def __init__(self, limit: int) -> None:
        self.limit = limit
        self.left = limit
        self.objects = 0

    def spend(self, n: int) -> None:
        self.left -= n
        if self.left < 0:
            raise AnswerTooLarge(self.limit)
        self.objects += 1
        if not self.objects % 2048:
            deadline.check()


def shape_roots(
    roots: tuple[Selection, ...], found: dict[str, Any], names: dict[int, str], budget: Budget | None = None
) -> dict[str, Any]:
    budget = budget or Budget(1 << 62)
    return {s.key: "Query" if s.name == TYPENAME else _value(s, found[names[id(s)]], names, budget) for s in roots}


def _value(s: Selection, value, names: dict[int, str], budget: Budget):
    if value is None or not s.children:
        return value
    if s.type_name.endswith("Connection"):
        return _connection(s, value, names, budget)
    if s.is_list:
        return [_object(s.type_name, s.children, v, names, budget) for v in value]
    return _object(s.type_name, s.children, value, names, budget)


def _object(
    type_name: str, selections: tuple[Selection, ...], obj: dict, names: dict[int, str], budget: Budget
) -> dict[str, Any]:
    model = obj["_"]
    out: dict[str, Any] = {}
    size = 2
    for s in selections:
        if s.name == TYPENAME:
            out[s.key] = type_name
        elif (s.parent, s.name) in LEAVES:
            leaf = out[s.key] = LEAVES[s.parent, s.name](model)
            size += len(s.key) + 4 + (len(leaf) if isinstance(leaf, str) else 8)
        else:
            out[s.key] = _value(s, obj[names[id(s)]], names, budget)
    budget.spend(size)
    return out


def _connection(s: Selection, value: dict, names: dict[int, str], budget: Budget) -> dict[str, Any]:
    items, limit = value["items"], value["_"]["limit"]
    page = Connection(items[:limit], value["_"]["offset"], len(items) > limit)
    out: dict[str, Any] = {}
    for c in s.children:
        if c.name == TYPENAME:
            out[c.key] = s.type_name
        elif c.name == "totalCount":
            out[c.key] = value["total"]
        elif c.name == "pageInfo":
            out[c.key] = {p.key: "PageInfo" if p.name == TYPENAME else LEAVES[p.parent, p.name](page) for p in c.children}
        else:  # edges
            out[c.key] = [_edge(c, encode_cursor(page.offset + i), item, names, budget) for i, item in enumerate(page.items)]
    return out


def _edge(s: Selection, cursor: str, item: dict, names: dict[int, str], budget: Budget) -> dict[str, Any]:
    return {
        e.key: s.type_name
        if e.name == TYPENAME
        else cursor
        if e.name == "cursor"
        else _object("Paper", e.children, item, names, budget)
        for e in s.children
    }
