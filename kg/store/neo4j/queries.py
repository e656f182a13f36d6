"""Every Cypher statement the Neo4j store runs: parameterised, never built from input.

Writes take ``$rows`` lists and run as ``UNWIND $rows AS row … MERGE``, nodes
before relationships. The few statements that vary (paper filters) are put
together from fixed fragments chosen by which filters are set.
"""

from __future__ import annotations

from typing import LiteralString

__all__ = ["WRITES", "paper_filter_query"]

# -- writes, in the order they run ----------------------------------------------------
MERGE_PAPERS: LiteralString = """
UNWIND $rows AS row
MERGE (p:Paper {id: row.id})
ON CREATE SET p.title = row.title, p.label = row.label, p.abstract = row.abstract,
              p.venue = row.venue, p.year = row.year, p.authors_truncated = row.authors_truncated,
              p.concept_norm = row.concept_norm, p.citations = row.citations
"""
MERGE_AUTHORS: LiteralString = """
UNWIND $rows AS row
MERGE (a:Author {key: row.key})
ON CREATE SET a.name = row.name
"""
MERGE_AREAS: LiteralString = """
UNWIND $rows AS row
MERGE (r:ResearchArea {path: row.path})
ON CREATE SET r.name = row.name, r.parent = row.parent, r.top = row.top
"""
MERGE_CONCEPTS: LiteralString = """
UNWIND $rows AS row
MERGE (c:Concept {key: row.key})
ON CREATE SET c.name = row.name, c.aliases = row.aliases, c.broader = row.broader
ON MATCH SET c.aliases = reduce(acc = coalesce(c.aliases, []), a IN row.aliases |
                                CASE WHEN a IN acc THEN acc ELSE acc + a END),
             c.broader = coalesce(c.broader, row.broader)
SET c.alias_text = reduce(text = '', a IN c.aliases | text + ' | ' + a)
"""
MERGE_SUBAREA_OF: LiteralString = """
UNWIND $rows AS row
MATCH (child:ResearchArea {path: row.child}), (parent:ResearchArea {path: row.parent})
MERGE (child)-[:SUBAREA_OF]->(parent)
"""
MERGE_BROADER: LiteralString = """
UNWIND $rows AS row
MATCH (n:Concept {key: row.narrow}), (b:Concept {key: row.broad})
MERGE (n)-[:BROADER]->(b)
"""
MERGE_AUTHORED: LiteralString = """
UNWIND $rows AS row
MATCH (a:Author {key: row.author}), (p:Paper {id: row.paper})
MERGE (a)-[r:AUTHORED]->(p)
ON CREATE SET r.position = row.position
"""
MERGE_IN_AREA: LiteralString = """
UNWIND $rows AS row
MATCH (p:Paper {id: row.paper}), (r:ResearchArea {path: row.area})
MERGE (p)-[:IN_AREA]->(r)
"""
MERGE_MENTIONS: LiteralString = """
UNWIND $rows AS row
MATCH (p:Paper {id: row.paper}), (c:Concept {key: row.concept})
MERGE (p)-[m:MENTIONS]->(c)
ON CREATE SET m.weight = row.weight
"""
ADD_CO_AUTHORED: LiteralString = """
UNWIND $rows AS row
MATCH (a:Author {key: row.a}), (b:Author {key: row.b})
MERGE (a)-[r:CO_AUTHORED]->(b)
ON CREATE SET r.papers = 0
SET r.papers = r.papers + row.inc
"""
MERGE_SHARES_CONCEPT: LiteralString = """
UNWIND $rows AS row
MATCH (p:Paper {id: row.p}), (q:Paper {id: row.q})
MERGE (p)-[r:SHARES_CONCEPT]->(q)
SET r.score = row.score, r.concepts = row.concepts
"""
MERGE_INSTITUTIONS: LiteralString = """
UNWIND $rows AS row
MERGE (i:Institution {key: row.key})
ON CREATE SET i.name = row.name
"""
ADD_AFFILIATED_WITH: LiteralString = """
UNWIND $rows AS row
MATCH (a:Author {key: row.author}), (i:Institution {key: row.institution})
MERGE (a)-[r:AFFILIATED_WITH]->(i)
ON CREATE SET r.papers = 0
SET r.papers = r.papers + row.inc
"""
MERGE_AUTHOR_IDS: LiteralString = """
UNWIND $rows AS row
MATCH (a:Author {key: row.key})
MERGE (i:AuthorId {id: row.id})
WITH i, a WHERE NOT EXISTS { (i)-[:IDENTIFIES]->() }
MERGE (i)-[:IDENTIFIES]->(a)
"""

# -- the ingest lease: one ingest at a time per database ---------------------------------------
# SET before reading takes the node's write lock, so a second ingest reads the holder only after the
# first one's transaction has committed.
TAKE_INGEST_LOCK: LiteralString = """
MERGE (l:KgIngestLock {name: 'ingest'})
SET l.touched = timestamp()
WITH l, l.holder AS holder
WITH l, holder, (holder IS NULL OR holder = $holder OR holder = $stale OR l.expires < timestamp()) AS free
FOREACH (_ IN CASE WHEN free THEN [1] ELSE [] END | SET l.holder = $holder, l.expires = timestamp() + $ttl_ms)
RETURN free, holder
"""
RENEW_INGEST_LOCK: LiteralString = """
MATCH (l:KgIngestLock {name: 'ingest'}) WHERE l.holder = $holder SET l.expires = timestamp() + $ttl_ms RETURN count(l) AS held
"""
RELEASE_INGEST_LOCK: LiteralString = """
MATCH (l:KgIngestLock {name: 'ingest'}) WHERE l.holder = $holder REMOVE l.holder, l.expires
"""

# -- reads ---------------------------------------------------------------------------------
STATS: LiteralString = """
CALL () { MATCH (p:Paper) RETURN count(p) AS papers }
CALL () { MATCH (a:Author) RETURN count(a) AS authors }
CALL () { MATCH (c:Concept) RETURN count(c) AS concepts }
CALL () { MATCH (r:ResearchArea) RETURN count(r) AS areas }
CALL () { MATCH ()-[r:CO_AUTHORED]->() RETURN count(r) AS coauthors }
CALL () { MATCH ()-[r:SHARES_CONCEPT]->() RETURN count(r) AS shared }
RETURN papers, authors, concepts, areas, coauthors, shared
"""
AUTHOR_KEYS_OF_IDS: LiteralString = """
UNWIND $ids AS id MATCH (:AuthorId {id: id})-[:IDENTIFIES]->(a:Author) RETURN id, a.key AS key
"""
EXISTING_PAPERS: LiteralString = "UNWIND $ids AS id MATCH (p:Paper {id: id}) RETURN p.id AS id"
PAPERS_WITH_CONCEPTS: LiteralString = """
UNWIND $keys AS k
MATCH (c:Concept {key: k})<-[m:MENTIONS]-(p:Paper)
RETURN k AS key, collect([p.id, m.weight, coalesce(p.concept_norm, 0.0)]) AS papers
"""
CONCEPT_POSTINGS: LiteralString = """
MATCH (p:Paper) OPTIONAL MATCH (p)-[:MENTIONS]->(c:Concept)
RETURN p.id AS id, collect(c.key) AS keys
"""
ALL_SHARED: LiteralString = """
MATCH (p:Paper)-[r:SHARES_CONCEPT]->(q:Paper)
RETURN p.id AS p, q.id AS q, r.score AS score, r.concepts AS concepts
"""
RESOLVE_CONCEPT: LiteralString = """
MATCH (c:Concept)
WHERE toLower(c.name) IN $names OR any(a IN coalesce(c.aliases, []) WHERE toLower(a) IN $names)
RETURN c.key AS key, COUNT { (c)<-[:MENTIONS]-(:Paper) } AS n
ORDER BY n DESC, key
LIMIT 1
"""
CONCEPTS_EXIST: LiteralString = "UNWIND $keys AS k MATCH (c:Concept {key: k}) RETURN c.key AS key"

FIND_AUTHORS_COUNT: LiteralString = "MATCH (a:Author) WHERE $needle IS NULL OR a.key CONTAINS $needle RETURN count(a) AS n"
FIND_AUTHORS: LiteralString = """
MATCH (a:Author) WHERE $needle IS NULL OR a.key CONTAINS $needle
WITH a, COUNT { (a)-[:AUTHORED]->(:Paper) } AS n
ORDER BY n DESC, a.key SKIP $offset LIMIT $limit
RETURN a.key AS key, a.name AS name
"""
_CONCEPT_MATCH: LiteralString = """
MATCH (c:Concept)
WHERE $needle IS NULL OR toLower(c.name) CONTAINS $needle OR c.key CONTAINS $needle
   OR any(a IN coalesce(c.aliases, []) WHERE toLower(a) CONTAINS $needle)
"""
FIND_CONCEPTS_COUNT: LiteralString = _CONCEPT_MATCH + "RETURN count(c) AS n"
FIND_CONCEPTS: LiteralString = _CONCEPT_MATCH + """
WITH c, COUNT { (c)<-[:MENTIONS]-(:Paper) } AS n
ORDER BY n DESC, c.key SKIP $offset LIMIT $limit
RETURN c {.key, .name, .aliases, .broader} AS c
"""
TOP_AREAS: LiteralString = "MATCH (r:ResearchArea) WHERE r.parent IS NULL RETURN r {.path, .name, .parent} AS r ORDER BY r.path"
SUGGEST: LiteralString = """
CALL db.index.fulltext.queryNodes('suggest', $query, {limit: $candidates}) YIELD node
WITH node, CASE WHEN node:Author THEN 'author' WHEN node:Concept THEN 'concept' ELSE 'paper' END AS kind
RETURN kind,
       CASE kind WHEN 'paper' THEN node.id ELSE node.key END AS key,
       CASE kind WHEN 'paper' THEN node.label ELSE node.name END AS label,
       CASE kind WHEN 'author' THEN COUNT { (node)-[:AUTHORED]->(:Paper) }
                 WHEN 'concept' THEN COUNT { (node)<-[:MENTIONS]-(:Paper) }
                 ELSE coalesce(node.citations, 0) END AS papers,
       kind <> 'paper' AND (toLower(node.name) = $typed OR any(a IN coalesce(node.aliases, []) WHERE toLower(a) = $typed)) AS exact
"""
SEARCH: LiteralString = """
CALL db.index.fulltext.queryNodes('paper_text', $query) YIELD node, score
RETURN node.id AS id, score ORDER BY score DESC, id LIMIT $limit
"""
NEIGHBOURS: LiteralString = """
MATCH (a:Author)-[:CO_AUTHORED]-(b:Author) WHERE a.key IN $keys
RETURN DISTINCT b.key AS key
"""
COAUTHOR_DEGREES: LiteralString = """
UNWIND $keys AS k MATCH (a:Author {key: k}) RETURN k AS key, COUNT { (a)-[:CO_AUTHORED]-() } AS degree
"""
AUTHORS_BY_KEYS: LiteralString = "UNWIND $keys AS k MATCH (a:Author {key: k}) RETURN a.key AS key, a.name AS name"
EDGES_AMONG: LiteralString = """
MATCH (a:Author)-[r:CO_AUTHORED]->(b:Author)
WHERE a.key IN $keys AND b.key IN $keys
RETURN a.key AS source, b.key AS target, r.papers AS weight
"""
SHORTEST_PATH: LiteralString = """
MATCH (a:Author {key: $source}), (b:Author {key: $target})
MATCH p = allShortestPaths((a)-[:CO_AUTHORED*]-(b))
WITH [n IN nodes(p) | n.key] AS keys, [n IN nodes(p) | n.name] AS names
RETURN keys, names ORDER BY keys LIMIT 1
"""

PAPERS_BY_IDS: LiteralString = "UNWIND $ids AS id MATCH (p:Paper {id: id}) RETURN p {.*} AS p"
CONCEPTS_BY_KEYS: LiteralString = "UNWIND $keys AS k MATCH (c:Concept {key: k}) RETURN c {.key, .name, .aliases, .broader} AS c"
AREAS_BY_PATHS: LiteralString = "UNWIND $paths AS k MATCH (r:ResearchArea {path: k}) RETURN r {.path, .name, .parent} AS r"
AUTHORS_OF_PAPERS: LiteralString = """
UNWIND $ids AS id
MATCH (a:Author)-[r:AUTHORED]->(:Paper {id: id})
RETURN id, a.key AS key, a.name AS name ORDER BY id, r.position
"""
AREAS_OF_PAPERS: LiteralString = """
UNWIND $ids AS id
MATCH (:Paper {id: id})-[:IN_AREA]->(r:ResearchArea)
RETURN id, r {.path, .name, .parent} AS r ORDER BY id, r.path
"""
CONCEPTS_OF_PAPERS: LiteralString = """
UNWIND $ids AS id
MATCH (:Paper {id: id})-[m:MENTIONS]->(c:Concept)
RETURN id, c {.key, .name, .aliases, .broader} AS c ORDER BY id, m.weight DESC, c.key
"""
RELATED_PAPERS: LiteralString = """
UNWIND $ids AS id
MATCH (:Paper {id: id})-[r:SHARES_CONCEPT]-(q:Paper)
WITH id, q, r ORDER BY r.score DESC, q.id
WITH id, collect({id: q.id, score: r.score, concepts: r.concepts})[..$limit] AS rows
RETURN id, rows
"""
PAPERS_OF_AUTHORS: LiteralString = """
UNWIND $keys AS k
MATCH (:Author {key: k})-[:AUTHORED]->(p:Paper)
RETURN k, p {.*} AS p ORDER BY k, p.id
"""
PAPER_COUNTS_OF_AUTHORS: LiteralString = """
UNWIND $keys AS k
OPTIONAL MATCH (a:Author {key: k})
RETURN k, CASE WHEN a IS NULL THEN 0 ELSE COUNT { (a)-[:AUTHORED]->(:Paper) } END AS n
"""
INSTITUTIONS_OF_AUTHORS: LiteralString = """
UNWIND $keys AS k
MATCH (:Author {key: k})-[r:AFFILIATED_WITH]->(i:Institution)
RETURN k, i.key AS key, i.name AS name, r.papers AS papers ORDER BY k, papers DESC, key
"""
COAUTHORS_OF: LiteralString = """
UNWIND $keys AS k
MATCH (:Author {key: k})-[r:CO_AUTHORED]-(b:Author)
RETURN k, b.key AS key, r.papers AS papers ORDER BY k, papers DESC, key
"""
PAPER_COUNTS_OF_CONCEPTS: LiteralString = """
UNWIND $keys AS k
OPTIONAL MATCH (c:Concept {key: k})
RETURN k, CASE WHEN c IS NULL THEN 0 ELSE COUNT { (c)<-[:MENTIONS]-(:Paper) } END AS n
"""
RELATED_CONCEPTS: LiteralString = """
UNWIND $keys AS k
MATCH (c:Concept {key: k})
CALL (c) {
  MATCH (c)<-[m:MENTIONS]-(p:Paper)
  WITH p ORDER BY m.weight DESC, p.id LIMIT $sample
  MATCH (p)-[:MENTIONS]->(o:Concept) WHERE o <> c
  RETURN o.key AS other, count(*) AS n
}
WITH k, other, n ORDER BY k, n DESC, other
WITH k, collect({key: other, n: n})[..$limit] AS rows
RETURN k, rows
"""
CHILDREN_OF_AREAS: LiteralString = """
UNWIND $paths AS k
MATCH (r:ResearchArea)-[:SUBAREA_OF]->(:ResearchArea {path: k})
RETURN k, r {.path, .name, .parent} AS r ORDER BY k, r.path
"""
PAPER_COUNTS_OF_AREAS: LiteralString = """
UNWIND $paths AS k
OPTIONAL MATCH (r:ResearchArea {path: k})
CALL (r) {
  OPTIONAL MATCH (p:Paper)-[:IN_AREA]->(x:ResearchArea)
  WHERE x = r OR (x)-[:SUBAREA_OF]->(r)
  RETURN count(DISTINCT p) AS n
}
RETURN k, n
"""

WRITES: tuple[tuple[str, LiteralString], ...] = (
    ("papers", MERGE_PAPERS),
    ("authors", MERGE_AUTHORS),
    ("areas", MERGE_AREAS),
    ("concepts", MERGE_CONCEPTS),
    ("subarea_of", MERGE_SUBAREA_OF),
    ("broader", MERGE_BROADER),
    ("authored", MERGE_AUTHORED),
    ("in_area", MERGE_IN_AREA),
    ("mentions", MERGE_MENTIONS),
    ("co_authored", ADD_CO_AUTHORED),
    ("shares_concept", MERGE_SHARES_CONCEPT),
    ("institutions", MERGE_INSTITUTIONS),
    ("affiliated_with", ADD_AFFILIATED_WITH),
    ("author_ids", MERGE_AUTHOR_IDS),
)

# -- the paper filter, from fixed fragments ----------------------------------------------
_FILTERS: dict[str, LiteralString] = {
    "author": "EXISTS { (:Author {key: $author})-[:AUTHORED]->(p) }",
    "concept": "EXISTS { (p)-[:MENTIONS]->(:Concept {key: $concept}) }",
    "area": "EXISTS { (p)-[:IN_AREA]->(r:ResearchArea) WHERE toLower(r.path) = $area OR toLower(r.top) = $area }",
    "text": "all(w IN $words WHERE toLower(coalesce(p.title, '') + ' ' + p.abstract) CONTAINS w)",
    "year_from": "p.year >= $year_from",
    "year_to": "p.year <= $year_to",
    "venue": "p.venue = $venue",
}
_ORDERS: dict[str, LiteralString] = {
    "id": "p.id",
    "citations": "coalesce(p.citations, -1) DESC, p.id",
    "year": "coalesce(p.year, -1) DESC, p.id",
}


def paper_filter_query(active: list[str], *, count: bool = False, facets: bool = False, order_by: str = "id") -> LiteralString:
    """The paper-listing query for the filters that are set (names from a fixed set).

    Papers come by ``order_by`` (id; citations or year, most first); with a concept
    filter and the default order, the papers most about it come first. ``count``
    counts them; ``facets`` counts them per (year, venue).
    """
    clauses = [_FILTERS[name] for name in active if name != "concept"]  # KeyError outside the allow-list
    where: LiteralString = (" WHERE " + " AND ".join(clauses)) if clauses else ""  # type: ignore[assignment]
    by = _ORDERS[order_by]
    if "concept" in active:
        match: LiteralString = "MATCH (p:Paper)-[m:MENTIONS]->(:Concept {key: $concept})"
        order: LiteralString = " WITH p, m ORDER BY m.weight DESC, p.id" if order_by == "id" else " WITH p ORDER BY " + by
    else:
        match, order = "MATCH (p:Paper)", " WITH p ORDER BY " + by
    if count:
        return match + where + " RETURN count(p) AS n"
    if facets:
        return match + where + " RETURN p.year AS year, p.venue AS venue, count(*) AS n"
    if not clauses and "concept" not in active and order_by == "id":  # lets the planner read papers in the order of the id index
        where = " WHERE p.id IS NOT NULL"
    # Sort and cut first, then project: only the page's papers have their properties read.
    return match + where + order + " SKIP $offset LIMIT $limit RETURN p {.*} AS p"
