"""The Neo4j store's batched reads: one query answers many parents (what the API's DataLoaders call)."""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Sequence

import neo4j

from kg.models import Authorship, Coauthor, Institution, PaperSource, RelatedConcept, RelatedPaper
from kg import deadline
from kg.store.base import RELATED_CONCEPTS_SAMPLE, references_from
from kg.store.neo4j import queries as cypher
from kg.store.neo4j.plan_cypher import Unsupported, answer_of, plan_query, unresolved_concepts, with_concept_keys
from kg.store.reads import Read, read_level_by_level

__all__ = ["Neo4jBatchedReads", "timed"]


def timed(cypher: str) -> neo4j.Query | str:
    """A read with the time its request has left as its transaction timeout (``kg.deadline``), if it has a
    deadline; past it, no read starts."""
    deadline.check()
    left = deadline.remaining()
    return neo4j.Query(cypher, timeout=left) if left is not None else cypher


AUTHORSHIPS_OF_AUTHORS = """UNWIND $keys AS key MATCH (:Author {key: key})-[r:AUTHORED]->(p:Paper)
RETURN key, p.id AS paper, r.name AS name, r.why AS why"""
REFERENCES_OF_PAPERS = """UNWIND $ids AS id MATCH (p:Paper {id: id})-[c:CITES]->(k:Ref)
OPTIONAL MATCH (k)<-[:KNOWN_AS]-(q:Paper) WHERE q <> p
RETURN id, c.n AS n, k.key AS key, min(q.id) AS paper"""
CITING_PAPERS = """UNWIND $ids AS id MATCH (p:Paper {id: id})-[:KNOWN_AS]->(:Ref)<-[:CITES]-(q:Paper) WHERE q <> p
RETURN DISTINCT id, q.id AS paper ORDER BY paper"""
CITING_KEYS = """UNWIND $keys AS key MATCH (:Ref {key: key})<-[:CITES]-(q:Paper)
RETURN DISTINCT key, q.id AS paper ORDER BY paper"""
AUTHORSHIPS_OF_PAPERS = """UNWIND $ids AS id MATCH (a:Author)-[r:AUTHORED]->(:Paper {id: id})
RETURN id, r.position AS position, r.name AS written, r.place AS place, r.source_id AS source_id, a.key AS key, a.name AS name
ORDER BY id, position"""


class Neo4jBatchedReads:
    """Each method answers a list of parents with a list of answers, in order; the store gives ``_read``."""

    def _read(self, cypher_text: str, /, **params) -> list:  # pragma: no cover - the store defines it
        raise NotImplementedError

    def _by_key(self, query: str, param: str, keys: Sequence[str], make, key_of) -> list:
        found = {key_of(v): v for v in (make(r) for r in self._read(query, **{param: list(dict.fromkeys(keys))}))}
        return [found.get(k) for k in keys]

    def papers_by_ids(self, ids):
        return self._by_key(cypher.PAPERS_BY_IDS, "ids", ids, lambda r: cypher.paper_of(r["p"]), lambda p: p.id)

    def authors_by_keys(self, keys):
        return self._by_key(cypher.AUTHORS_BY_KEYS, "keys", keys, cypher.author_of, lambda a: a.key)

    def concepts_by_keys(self, keys):
        return self._by_key(cypher.CONCEPTS_BY_KEYS, "keys", keys, lambda r: cypher.concept_of(r["c"]), lambda c: c.key)

    def areas_by_paths(self, paths):
        return self._by_key(cypher.AREAS_BY_PATHS, "paths", paths, lambda r: cypher.area_of(r["r"]), lambda a: a.path)

    def _grouped(self, query: str, param: str, keys: Sequence[str], group: str, make) -> list[list]:
        out: dict[str, list] = defaultdict(list)
        for r in self._read(query, **{param: list(dict.fromkeys(keys))}):
            out[r[group]].append(make(r))
        return [list(out.get(k, [])) for k in keys]

    def authors_of_papers(self, ids):
        return self._grouped(cypher.AUTHORS_OF_PAPERS, "ids", ids, "id", cypher.author_of)

    def authorships_of_papers(self, ids):
        return self._grouped(
            AUTHORSHIPS_OF_PAPERS,
            "ids",
            ids,
            "id",
            lambda r: Authorship(r["id"], r["position"], r["written"], cypher.author_of(r), r["place"], r["source_id"]),
        )

    def sources_of_papers(self, ids):
        found = {r["id"]: r["sources"] for r in self._read(cypher.SOURCES_OF_PAPERS, ids=list(dict.fromkeys(ids)))}
        return [[PaperSource.decode(s) for s in found.get(pid, ())] for pid in ids]

    def references_of_papers(self, ids):
        return [
            references_from(rows)
            for rows in self._grouped(REFERENCES_OF_PAPERS, "ids", ids, "id", lambda r: (r["n"], r["key"], r["paper"]))
        ]

    def citing_papers(self, ids):
        return self._grouped(CITING_PAPERS, "ids", ids, "id", lambda r: r["paper"])

    def citing_keys(self, keys):
        return self._grouped(CITING_KEYS, "keys", keys, "key", lambda r: r["paper"])

    def authorships_of_authors(self, keys):
        rows = self._grouped(AUTHORSHIPS_OF_AUTHORS, "keys", keys, "key", lambda r: (r["paper"], r["name"], r["why"]))
        return [sorted(r) for r in rows]

    def areas_of_papers(self, ids):
        return self._grouped(cypher.AREAS_OF_PAPERS, "ids", ids, "id", lambda r: cypher.area_of(r["r"]))

    def concepts_of_papers(self, ids, first=None):
        if first is None:
            return self._grouped(cypher.CONCEPTS_OF_PAPERS, "ids", ids, "id", lambda r: cypher.concept_of(r["c"]))
        found = {r["id"]: r["cs"] for r in self._read(cypher.MENTIONS_OF_PAPERS, ids=list(dict.fromkeys(ids)), first=first)}
        return [[cypher.concept_of(c) for c in found.get(pid, [])] for pid in ids]

    def lists_of(self, kind, keys, names):
        make = {
            ("paper", "authors"): cypher.author_of,
            ("paper", "areas"): cypher.area_of,
            ("paper", "concepts"): cypher.concept_of,
            ("author", "papers"): cypher.paper_of,
            ("author", "coauthors"): lambda d: Coauthor(d["key"], d["papers"]),
        }
        unknown = sorted(n for n in names if (kind, n) not in make)
        if unknown:
            raise ValueError(f"no such {kind} lists: {unknown}")
        found = {r["k"]: r for r in self._read(cypher.lists_query(kind, sorted(names)), keys=list(dict.fromkeys(keys)))}
        return {n: [[make[kind, n](d) for d in found[k][n]] if k in found else [] for k in keys] for n in names}

    def related_papers(self, ids, limit):
        rows = {r["id"]: r["rows"] for r in self._read(cypher.RELATED_PAPERS, ids=list(dict.fromkeys(ids)), limit=limit)}
        return [[RelatedPaper(x["id"], tuple(x["concepts"]), x["score"]) for x in rows.get(i, [])] for i in ids]

    def _concept_named(self, names) -> str | None:
        """The concept with the most papers whose name or alias is one of ``names`` (``resolve_concept``'s second step)."""
        rows = self._read(cypher.RESOLVE_CONCEPT, names=list(names))
        return rows[0]["key"] if rows else None

    def related_answers(self, ids, first):
        """In one query: the related papers read as a read tree's are (``plan_cypher``), below a batch of papers."""
        shared = Read("related.shared", "s")
        tree = Read("paper.related", "r", (Read("related.paper", "p", abstract=True), shared), first=first)
        found = {
            m["_"].id: [row["_"] for row in m["r"]]
            for m in self.read_tree([Read("papers.by_ids", "b", (tree,), keys=tuple(ids))])["b"]
        }
        return [found.get(i, []) for i in ids]

    def coauthor_answers(self, keys, first):
        """In one query: the co-authors read as a read tree's are (``plan_cypher``), below a batch of people."""
        tree = Read("author.coauthors", "c", (Read("coauthor.author", "a"),), first=first)
        found = {
            m["_"].key: [row["_"] for row in m["c"]]
            for m in self.read_tree([Read("authors.by_keys", "b", (tree,), keys=tuple(keys))])["b"]
        }
        return [found.get(k, []) for k in keys]

    def papers_of_authors(self, keys):
        return self._grouped(cypher.PAPERS_OF_AUTHORS, "keys", keys, "k", lambda r: cypher.paper_of(r["p"]))

    def paper_counts_of_authors(self, keys):
        counts = {r["k"]: r["n"] for r in self._read(cypher.PAPER_COUNTS_OF_AUTHORS, keys=list(dict.fromkeys(keys)))}
        return [counts.get(k, 0) for k in keys]

    def coauthors_of(self, keys):
        return self._grouped(cypher.COAUTHORS_OF, "keys", keys, "k", lambda r: Coauthor(r["key"], r["papers"]))

    def paper_counts_of_concepts(self, keys):
        counts = {r["k"]: r["n"] for r in self._read(cypher.PAPER_COUNTS_OF_CONCEPTS, keys=list(dict.fromkeys(keys)))}
        return [counts.get(k, 0) for k in keys]

    def related_concepts(self, keys, limit):
        rows = {
            r["k"]: r["rows"]
            for r in self._read(
                cypher.RELATED_CONCEPTS, keys=list(dict.fromkeys(keys)), limit=limit, sample=RELATED_CONCEPTS_SAMPLE
            )
        }
        return [[RelatedConcept(x["key"], x["n"]) for x in rows.get(k, [])] for k in keys]

    def read_tree(self, roots):
        """A read tree's whole answer in one query (``plan_cypher``); a tree it has no fragment for (a filtered
        papers page) level by level. A concept none of whose keys is stored is looked up by its names (one more
        query), and the tree read again with the key found."""
        try:
            query, params = plan_query(roots)
        except Unsupported:
            return read_level_by_level(self, roots)
        row = self._read(query, **params)[0]
        found = {r.slot: self._concept_named(r.names) for r in unresolved_concepts(roots, row)}
        if any(found.values()):
            roots = with_concept_keys(roots, found)
            query, params = plan_query(roots)
            row = self._read(query, **params)[0]
        return answer_of(row, roots)

    def children_of_areas(self, paths):
        return self._grouped(cypher.CHILDREN_OF_AREAS, "paths", paths, "k", lambda r: cypher.area_of(r["r"]))

    def institutions_of_authors(self, keys):
        return self._grouped(
            cypher.INSTITUTIONS_OF_AUTHORS, "keys", keys, "k", lambda r: (Institution(r["key"], r["name"]), r["papers"])
        )

    def paper_counts_of_areas(self, paths):
        counts = {r["k"]: r["n"] for r in self._read(cypher.PAPER_COUNTS_OF_AREAS, paths=list(dict.fromkeys(paths)))}
        return [counts.get(p, 0) for p in paths]
