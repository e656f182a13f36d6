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
from kg.readers.formats import dblp_author_ids
from kg.api.graphql.shape import Budget, shape_roots
from kg.api.graphql.tree import SUPPORTED, TreeBuilder
from kg.service import MAX_NAME_CHARS, KGService
from kg.store.reads import Read

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
        """On the store's async reader, or None when it cannot take this operation. The ``author(name:)``
        roots are resolved first through ``call`` (a worker thread): a name reads its block's profiles, which
        must not happen on the event loop the reader binds on; so would a filter's names, and an operation
        with a filtered page of papers is left to the worker thread."""
        author_ids: dict[str, str] = {}
        for s in roots:
            a = get_argument_values(s.definition, s.node, self.variables) if s.definition is not None else {}
            if (s.parent, s.name) == ("Query", "papers") and any(v is not None for v in (a.get("filter") or {}).values()):
                return None
            if (s.parent, s.name) == ("Query", "author") and (name := a.get("name")) is not None:
                author_ids[name] = await self._author_id(name, reader, call)
        builder = TreeBuilder(self.service, self.variables, author_ids)
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

    async def _author_id(self, name: str, reader, call) -> str:
        """``KGService.author_id`` with its block read on the async reader when the name settles there (one
        person, or none, bears it); a name that needs more reads (dblp's number, an id merged away, several
        people to tell apart) is resolved in a worker thread."""
        lookup = name_lookup(name) if len(name) <= MAX_NAME_CHARS and dblp_author_ids([name]) is None else None
        people = getattr(reader, "people_in_blocks", None)
        if lookup is None or people is None:
            return await call(self.service.author_id, name)
        exact, found = resolve_in(lookup, await people(lookup.blocks))
        if (key := settled(name, exact, found)) is not None:
            return key
        return await call(self.service.settle_author, name, exact, found)


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
