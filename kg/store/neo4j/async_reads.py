"""A compiled operation's one query on the async driver: no worker thread between the event loop and Neo4j.

Made per event loop (``Neo4jStore.async_tree_reads``, opened by the app when it
starts), since an async driver belongs to the loop it runs on. Operations that
must read the store before their query can be written (a concept's name) first
resolve it here, with the statements ``Neo4jStore.resolve_concept`` runs.
"""

from __future__ import annotations

import time

import neo4j

from kg.errors import StoreUnavailable
from kg.store.neo4j import queries as cypher
from kg.store.neo4j.plan_cypher import Unsupported, concept_names, plan_query, tree_values

__all__ = ["AsyncTreeReads"]


class _Resolved:
    """Bindings with the concept names already resolved."""

    def __init__(self, bind, keys: dict[str, str | None]) -> None:
        self.bind, self.keys = bind, keys

    def __getattr__(self, name: str):
        return getattr(self.bind, name)

    def concept_key(self, name: str) -> str | None:
        return self.keys[name]


class AsyncTreeReads:
    def __init__(self, store, driver: neo4j.AsyncDriver) -> None:
        self.store = store
        self.driver = driver

    async def _run(self, query: str, params: dict) -> list:
        if time.monotonic() < self.store._unreachable_until:
            raise StoreUnavailable("Neo4j is unreachable (the last attempt failed moments ago)")
        self.store.queries_run += 1
        with self.store._driver_errors("Neo4j query failed"):  # as the sync reads: an unreachable server fails fast after
            async with self.driver.session(database=self.store.database, default_access_mode=neo4j.READ_ACCESS,
                                           fetch_size=-1) as session:
                result = await session.run(query, params)
                return [record async for record in result]

    async def _concept_key(self, exact: list[str], names: list[str]) -> str | None:
        found = {r["key"] for r in await self._run(cypher.CONCEPTS_EXIST, {"keys": list(exact)})}
        key = next((k for k in exact if k in found), None)
        if key is None:
            rows = await self._run(cypher.RESOLVE_CONCEPT, {"names": list(names)})
            key = rows[0]["key"] if rows else None
        return key

    async def read_tree(self, roots, bind) -> tuple[dict, dict] | None:
        """As ``Neo4jBatchedReads.read_tree``; driver errors propagate (the API then answers the sync way)."""
        keys = {}
        for name in concept_names(roots, bind):
            keys[name] = await self._concept_key(*bind.lookup_terms(name))
        try:
            query, params, names = plan_query(roots, _Resolved(bind, keys))
        except Unsupported:
            return None
        return tree_values((await self._run(query, params))[0], roots, names)

    async def close(self) -> None:
        await self.driver.close()
