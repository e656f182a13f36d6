"""A compiled operation's one query on the async driver: no worker thread between the event loop and Neo4j.

Made per event loop (``Neo4jStore.async_tree_reads``, opened by the app when it
starts), since an async driver belongs to the loop it runs on. A concept's name
is looked up inside the query by the keys it spells; a name that needs its
aliases searched (``Neo4jStore.resolve_concept``'s second statement) costs one
more query and a second run.
"""

from __future__ import annotations

import time

import neo4j

from kg.errors import StoreUnavailable
from kg.store.neo4j import queries as cypher
from kg.store.neo4j.batched import timed
from kg.store.neo4j.plan_cypher import Unsupported, answer_of, plan_query, unresolved_concepts, with_concept_keys

__all__ = ["AsyncTreeReads"]


class AsyncTreeReads:
    def __init__(self, store, driver: neo4j.AsyncDriver) -> None:
        self.store = store
        self.driver = driver

    async def _run(self, query: str, params: dict) -> list:
        if time.monotonic() < self.store._unreachable_until:
            raise StoreUnavailable("Neo4j is unreachable (the last attempt failed moments ago)")
        self.store.queries_run += 1
        with self.store._driver_errors("Neo4j query failed"):  # as the sync reads: an unreachable server fails fast after
            async with self.driver.session(
                database=self.store.database, default_access_mode=neo4j.READ_ACCESS, fetch_size=-1
            ) as session:
                result = await session.run(timed(query), params)
                return [record async for record in result]

    async def read_tree(self, roots) -> dict | None:
        """As ``Neo4jBatchedReads.read_tree``, or None for a tree it cannot take in one query (the API then reads
        it in a worker thread); driver errors propagate (the API then answers the sync way).

        A ``concept(name:)`` root is first looked up in the same query by the exact keys its name spells.
        Only when none is stored is the name resolved by names and aliases, and the query run again with the
        key found.
        """
        try:
            query, params = plan_query(roots)
        except Unsupported:
            return None
        row = (await self._run(query, params))[0]
        found = {}
        for r in unresolved_concepts(roots, row):
            rows = await self._run(cypher.RESOLVE_CONCEPT, {"names": list(r.names)})
            found[r.slot] = rows[0]["key"] if rows else None
        if any(found.values()):
            roots = with_concept_keys(roots, found)
            query, params = plan_query(roots)
            row = (await self._run(query, params))[0]
        return answer_of(row, roots)

    async def close(self) -> None:
        await self.driver.close()
