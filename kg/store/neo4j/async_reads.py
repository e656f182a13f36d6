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
from kg.store.neo4j.plan_cypher import Unsupported, concept_roots, plan_query, tree_values

__all__ = ["AsyncTreeReads"]


class _Keys:
    """Bindings whose concept names are looked up by the given candidate keys."""

    def __init__(self, bind, keys: dict[str, list[str]]) -> None:
        self.bind, self.keys = bind, keys

    def __getattr__(self, name: str):
        return getattr(self.bind, name)

    def concept_keys(self, name: str) -> list[str]:
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
            async with self.driver.session(
                database=self.store.database, default_access_mode=neo4j.READ_ACCESS, fetch_size=-1
            ) as session:
                result = await session.run(timed(query), params)
                return [record async for record in result]

    async def read_tree(self, roots, bind) -> tuple[dict, dict] | None:
        """As ``Neo4jBatchedReads.read_tree``; driver errors propagate (the API then answers the sync way).

        A ``concept(name:)`` root is first looked up in the same query by the exact keys its name
        spells (``resolve_concept``'s first step). Only when none is stored is the name resolved
        by names and aliases, and the query run again with the key found.
        """
        named = concept_roots(roots, bind)
        terms = {name: bind.lookup_terms(name) for _, name in named}  # (exact keys, names) per concept name
        keys = {name: exact for name, (exact, _) in terms.items()}
        try:
            query, params, names = plan_query(roots, _Keys(bind, keys))
        except Unsupported:
            return None
        if not names:  # nothing but __typename: nothing to read
            return tree_values({}, roots, names)
        row = (await self._run(query, params))[0]
        resolved = {}
        for s, name in named:
            if row[names[id(s)]] is None and name not in resolved:
                rows = await self._run(cypher.RESOLVE_CONCEPT, {"names": terms[name][1]})
                resolved[name] = [rows[0]["key"]] if rows else []
        if any(resolved.values()):
            query, params, names = plan_query(roots, _Keys(bind, keys | resolved))
            row = (await self._run(query, params))[0]
        return tree_values(row, roots, names)

    async def close(self) -> None:
        await self.driver.close()
