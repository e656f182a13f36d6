"""The Neo4j store's reads over time and counts: papers per year of an author or a concept, how many papers of a
selection mention each concept, and how long the graph's lists are."""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Collection, Sequence
from typing import LiteralString

from kg.store.base import PaperFilter
from kg.store.neo4j import queries as cypher

__all__ = ["Neo4jYears"]

PAPER_YEARS: dict[str, LiteralString] = {
    "author": "UNWIND $keys AS k MATCH (:Author {key: k})-[:AUTHORED]->(p:Paper) WHERE p.year IS NOT NULL "
    "RETURN k AS key, p.year AS year, count(*) AS n",
    "concept": "UNWIND $keys AS k MATCH (:Concept {key: k})<-[:MENTIONS]-(p:Paper) WHERE p.year IS NOT NULL "
    "RETURN k AS key, p.year AS year, count(*) AS n",
}
# How many nodes have each list length (degrees from the count store: COUNT of one relationship type).
DEGREES: dict[str, LiteralString] = {
    "papers_per_author": "MATCH (a:Author) WITH COUNT { (a)-[:AUTHORED]->() } AS d WHERE d > 0 RETURN d, count(*) AS n",
    "authors_per_paper": "MATCH (p:Paper) WITH COUNT { (p)<-[:AUTHORED]-() } AS d WHERE d > 0 RETURN d, count(*) AS n",
    "concepts_per_paper": "MATCH (p:Paper) WITH COUNT { (p)-[:MENTIONS]->() } AS d WHERE d > 0 RETURN d, count(*) AS n",
    "references_per_paper": "MATCH (p:Paper) WITH COUNT { (p)-[:CITES]->() } AS d WHERE d > 0 RETURN d, count(*) AS n",
}


class Neo4jYears:
    """The counts ``kg.overview`` is made of; the store gives ``_read`` and ``_filter_params``."""

    def _read(self, cypher_text: str, /, **params) -> list:  # pragma: no cover - the store defines it
        raise NotImplementedError

    @staticmethod
    def _filter_params(paper_filter: PaperFilter) -> tuple[list[str], dict]:  # pragma: no cover - the store defines it
        raise NotImplementedError

    def paper_years(self, kind: str, keys: Sequence[str]) -> list[list[tuple[int, int]]]:
        found: dict[str, list[tuple[int, int]]] = defaultdict(list)
        for r in self._read(PAPER_YEARS[kind], keys=list(keys)):
            found[r["key"]].append((r["year"], r["n"]))
        return [sorted(found.get(k, ())) for k in keys]

    def concept_counts(self, paper_filter: PaperFilter, venues: Collection[str] | None = None) -> tuple[int, dict[str, int]]:
        active, params = self._filter_params(paper_filter)
        head = cypher.paper_filter_query(active, count=True).removesuffix(" RETURN count(p) AS n")
        if venues is not None:
            head += (" AND " if " WHERE " in head else " WHERE ") + "p.venue IN $venues"
            params["venues"] = sorted(venues)
        # One pass: the papers counted, then their mentions (a paper with no concept still counts).
        rows = self._read(
            head + " WITH collect(p) AS ps UNWIND ps AS p OPTIONAL MATCH (p)-[:MENTIONS]->(c:Concept) "
            "WITH size(ps) AS total, c.key AS key, count(c) AS n RETURN total, key, n",
            **params,
        )
        total = rows[0]["total"] if rows else 0
        return total, {r["key"]: r["n"] for r in rows if r["key"] is not None}

    def degree_histograms(self) -> dict[str, dict[int, int]]:
        return {name: {r["d"]: r["n"] for r in self._read(query)} for name, query in DEGREES.items()}
