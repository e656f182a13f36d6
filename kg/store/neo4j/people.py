"""The Neo4j store's reads of people for the people stage and for corrections (``kg.authors``)."""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import LiteralString

from kg.store.neo4j import queries as cypher

__all__ = ["Neo4jPeople"]

ALIASES: LiteralString = """
MATCH (x:AuthorAlias) WHERE x.key IN $keys OR x.block IN $blocks RETURN x.key AS key, x.to AS to
"""
CORRECTIONS: LiteralString = "MATCH (c:AuthorCorrection) RETURN c.record AS record ORDER BY c.at, elementId(c)"


class Neo4jPeople:
    """People by block and by source id, the ids merged into others, and the corrections kept; the store gives ``_read``."""

    def _read(self, cypher_text: str, /, **params) -> list:  # pragma: no cover - the store defines it
        raise NotImplementedError

    def author_keys_of_ids(self, ids: Sequence[str]) -> dict[str, str]:
        return {r["id"]: r["key"] for r in self._read(cypher.AUTHOR_KEYS_OF_IDS, ids=list(ids))} if ids else {}

    def people_in_blocks(self, blocks: Sequence[str], *, heads: bool = False) -> list[tuple[str, str, str, str]]:
        query = cypher.PEOPLE_HEADS_IN_BLOCKS if heads else cypher.PEOPLE_IN_BLOCKS
        return [(r["key"], r["name"], r["block"], r["profile"]) for r in self._read(query, blocks=list(blocks))]

    def author_aliases(self, *, keys: Sequence[str] = (), blocks: Sequence[str] = ()) -> dict[str, str]:
        if not keys and not blocks:
            return {}
        return {r["key"]: r["to"] for r in self._read(ALIASES, keys=list(keys), blocks=list(blocks))}

    def corrections(self) -> list[dict]:
        return [json.loads(r["record"]) for r in self._read(CORRECTIONS)]
