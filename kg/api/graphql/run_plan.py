"""Answering a compiled operation (see ``plan.py``): its selections become the store's read tree
(``tree.py``), the store answers the whole tree (``Store.read_tree``: Neo4j in one query, the embedded
store level by level through its batched reads), and ``shape.py`` builds the response from that answer.

The reads are the ones the strawberry resolvers make (the same batched store
methods, ordered and filtered the same way), so a plan's answer is the answer
graphql-core would give; the API tests compare the two on every example operation.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from graphql import get_argument_values

from kg.api.graphql.plan import Selection
from kg.authors.lookup import name_lookup, resolve_in, settled
from kg.api.graphql.shape import Budget, shape_roots
from kg.api.graphql.tree import SUPPORTED, TreeBuilder, speculative_lookup
from kg.service import KGService
from kg.store.reads import Read, people_slot

__all__ = ["PlanRun", "SUPPORTED"]


class PlanRun:
    """One request's answer to a plan: the service and the coerced variables."""

    def __init__(self, service: KGService, variables) -> None:
        self.service = service
        self.variables = variables
        self.max_bytes = service.settings.max_answer_bytes

    def answer(self, roots: tuple[Selection, ...]) -> dict[str, Any]:
        """In a worker thread: the tree built (names resolved through the service) and read by the store."""
        builder = TreeBuilder(self.service, self.variables)
        reads = builder.roots(roots)
        found = self.service.store.read_tree(reads)
        again = _by_record_ids(reads, found, self.service.paper_id)
        if again:
            found.update(self.service.store.read_tree(again))
        return shape_roots(roots, found, builder.slots, Budget(self.max_bytes))

    async def answer_in_loop(self, roots: tuple[Selection, ...], reader, call) -> dict[str, Any] | None:
        """On the store's async reader, or None when it cannot take this operation. An ``author(name:)`` root is
        read, in the same query, by the key its name spells and with the people of the name's blocks; the name is
        then resolved from those (as ``KGService.author_id`` resolves it), and only when it means someone else is
        the tree read again. Whatever needs the sync store (a filter's names, a name settled only by more reads)
        runs through ``call`` (a worker thread); an operation with a filtered page of papers is left to one."""
        for s in roots:
            a = get_argument_values(s.definition, s.node, self.variables) if s.definition is not None else {}
            if (s.parent, s.name) == ("Query", "papers") and any(v is not None for v in (a.get("filter") or {}).values()):
                return None
        builder = TreeBuilder(self.service, self.variables, speculate=True)
        reads = await call(builder.roots, roots) if _needs_thread(roots, self.variables) else builder.roots(roots)
        found = await reader.read_tree(reads)
        if found is None:
            return None
        resolved = {}
        for r in reads:
            if r.kind == "author" and r.blocks:
                name = r.names[0]
                lookup = name_lookup(name)
                exact, people = resolve_in(lookup, found.pop(people_slot(r.slot))) if lookup else (None, [])
                key = settled(name, exact, people)
                resolved[name] = key if key is not None else await call(self.service.settle_author, name, exact, people)
        if any(resolved[r.names[0]] != r.keys[0] for r in reads if r.kind == "author" and r.blocks):
            builder = TreeBuilder(self.service, self.variables, resolved)  # the name meant another person: read again
            reads = builder.roots(roots)
            found = await reader.read_tree(reads)
            if found is None:
                return None
        ids = {r.keys[0]: await call(self.service.paper_id, r.keys[0]) for r in _missing_papers(reads, found)}
        again = _by_record_ids(reads, found, ids.get)
        if again:
            more = await reader.read_tree(again)
            if more is None:
                return None
            found.update(more)
        return await call(shape_roots, roots, found, builder.slots, Budget(self.max_bytes))  # off the event loop


def _needs_thread(roots: tuple[Selection, ...], variables) -> bool:
    """Whether building the read tree reads the sync store: an ``author(name:)`` the plan does not speculate on."""
    for s in roots:
        if (s.parent, s.name) == ("Query", "author") and s.definition is not None:
            a = get_argument_values(s.definition, s.node, variables)
            if a.get("id") is None and a.get("name") is not None and speculative_lookup(a["name"]) is None:
                return True
    return False


def _missing_papers(reads: list[Read], found: dict[str, Any]) -> list[Read]:
    """The ``paper(id:)`` roots no paper answered under that id."""
    return [r for r in reads if r.kind == "paper" and found.get(r.slot) is None]


def _by_record_ids(reads: list[Read], found: dict[str, Any], paper_id) -> list[Read]:
    """The ``paper(id:)`` roots to read again under the paper an id of one of its records names (``paper_id``)."""
    again = []
    for r in _missing_papers(reads, found):
        pid = paper_id(r.keys[0])
        if pid is not None and pid != r.keys[0]:
            again.append(replace(r, keys=(pid,)))
    return again
