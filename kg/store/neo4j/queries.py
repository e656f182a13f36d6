"""Every Cypher read the Neo4j store runs (writes are in ``writes.py``), and the rows it maps back to models.

Parameterised, never built from input. The few statements that vary (paper filters)
are put together from fixed fragments chosen by which filters are set.
"""

from __future__ import annotations

from dataclasses import fields
from typing import LiteralString

from kg.models import Author, Concept, Paper, ResearchArea
from kg.store.shapes import paper_from

__all__ = ["paper_filter_query", "lists_query", "paper_of", "author_of", "concept_of", "area_of"]


def paper_map(*leave_out: str) -> str:
    """A paper's map as reads return it: its model's fields but ``leave_out`` and the topic (only ingest reads it)."""
    return "{" + ", ".join(f".{f.name}" for f in fields(Paper) if f.name not in ("topic", *leave_out)) + "}"


PAPER_MAP: LiteralString = paper_map()  # type: ignore[assignment]


# -- rows back to models ------------------------------------------------------------------
paper_of = paper_from  # a paper's node map (``p {.*}``)


def author_of(d) -> Author:
    return Author(d["key"], d["name"])


def concept_of(d: dict) -> Concept:
    return Concept(d["key"], d["name"], tuple(sorted(d.get("aliases") or ())), d.get("broader"))


def area_of(d: dict) -> ResearchArea:
    return ResearchArea(d["path"], d["name"], d.get("parent"))


# -- migrations ----------------------------------------------------------------------------
APPLIED_MIGRATIONS: LiteralString = "MATCH (m:KgMigration) RETURN m.version AS version, m.name AS name, m.checksum AS checksum"
RECORD_MIGRATION: LiteralString = (
    "MERGE (x:KgMigration {version: $version}) SET x.name = $name, x.checksum = $checksum, x.applied_at = datetime()"
)
AWAIT_INDEXES: LiteralString = "CALL db.awaitIndexes(300)"


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
AUTHOR_KEYS_OF_IDS: LiteralString = (
    "UNWIND $ids AS id MATCH (:AuthorId {id: id})-[:IDENTIFIES]->(a:Author) RETURN id, a.key AS key"
)
PEOPLE_IN_BLOCKS: LiteralString = (
    "MATCH (a:Author) WHERE a.block IN $blocks RETURN a.key AS key, a.name AS name, a.block AS block, a.profile AS profile"
)
# Each profile's head only (Profile.head: papers and given names), cut in the server: a name's lookup reads no more.
PROFILE_HEAD = "CASE WHEN {a}.profile CONTAINS ',\"co\":' THEN split({a}.profile, ',\"co\":')[0] + '}}' ELSE {a}.profile END"
PEOPLE_HEADS_IN_BLOCKS: LiteralString = (
    "MATCH (a:Author) WHERE a.block IN $blocks RETURN a.key AS key, a.name AS name, a.block AS block, "
    + PROFILE_HEAD.format(a="a")
    + " AS profile"
)
EXISTING_PAPERS: LiteralString = "UNWIND $ids AS id MATCH (p:Paper {id: id}) RETURN p.id AS id"
PAPERS_KNOWN_BY: LiteralString = "UNWIND $keys AS k MATCH (:Ref {key: k})<-[:KNOWN_AS]-(p:Paper) RETURN k AS key, min(p.id) AS id"
# A block holding more than $limit papers gives $limit of them (read lazily, not all collected then cut).
PAPERS_IN_BLOCKS: LiteralString = """
UNWIND $blocks AS b
MATCH (w:WorkBlock {key: b})
CALL (w) { MATCH (w)<-[:IN_BLOCK]-(p:Paper) RETURN p.id AS id LIMIT $limit }
WITH b, collect(id) AS ids WHERE size(ids) > 0
RETURN b AS block, ids
"""
SOURCES_OF_PAPERS: LiteralString = "UNWIND $ids AS id MATCH (p:Paper {id: id}) RETURN id, coalesce(p.sources, []) AS sources"
PAPERS_WITH_CONCEPTS: LiteralString = """
UNWIND $keys AS k
MATCH (c:Concept {key: k})<-[m:MENTIONS]-(p:Paper)
RETURN k AS key, collect([p.id, m.weight, coalesce(p.concept_norm, 0.0)]) AS papers
"""
TOPICS_OF_PAPERS: LiteralString = (
    "UNWIND $ids AS id MATCH (p:Paper {id: id}) WHERE p.topic <> '' RETURN p.id AS id, p.topic AS topic"
)
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
FIND_CONCEPTS: LiteralString = (
    _CONCEPT_MATCH
    + """
WITH c, COUNT { (c)<-[:MENTIONS]-(:Paper) } AS n
ORDER BY n DESC, c.key SKIP $offset LIMIT $limit
RETURN c {.key, .name, .aliases, .broader} AS c
"""
)
TOP_AREAS: LiteralString = "MATCH (r:ResearchArea) WHERE r.parent IS NULL RETURN r {.path, .name, .parent} AS r ORDER BY r.path"
# Ranked here, not in Python: only `limit` rows per kind cross the wire (prefix matches all score alike in
# Lucene, so every candidate is counted). Counts are relationship degrees (AUTHORED always ends at a Paper,
# MENTIONS always starts at one), which Neo4j reads without visiting the papers.
SUGGEST: LiteralString = """
CALL db.index.fulltext.queryNodes('suggest', $query, {limit: $candidates}) YIELD node
WITH node, CASE WHEN node:Concept THEN 0 WHEN node:Author THEN 1 ELSE 2 END AS rank
WITH node, rank,
     CASE rank WHEN 0 THEN COUNT { (node)<-[:MENTIONS]-() }
               WHEN 1 THEN COUNT { (node)-[:AUTHORED]->() }
               ELSE coalesce(node.citations, 0) END AS papers,
     CASE rank WHEN 2 THEN node.label ELSE node.name END AS label,
     rank < 2 AND (toLower(node.name) = $typed OR any(a IN coalesce(node.aliases, []) WHERE toLower(a) = $typed)) AS exact
ORDER BY rank, exact DESC, papers DESC, toLower(label), coalesce(node.key, node.id)
WITH rank, collect({key: coalesce(node.key, node.id), label: label, papers: papers, exact: exact})[..$limit] AS top
UNWIND top AS t
RETURN CASE rank WHEN 0 THEN 'concept' WHEN 1 THEN 'author' ELSE 'paper' END AS kind,
       t.key AS key, t.label AS label, t.papers AS papers, t.exact AS exact
"""
SEARCH: LiteralString = """
CALL db.index.fulltext.queryNodes('paper_text', $query) YIELD node, score
RETURN node.id AS id, score ORDER BY score DESC, id LIMIT $limit
"""
NEIGHBOURS: LiteralString = """
MATCH (a:Author)-[:CO_AUTHORED]-(b:Author) WHERE a.key IN $keys
RETURN DISTINCT b.key AS key
"""
COAUTHOR_DEGREES: LiteralString = (
    "UNWIND $keys AS k MATCH (a:Author {key: k}) RETURN k AS key, COUNT { (a)-[:CO_AUTHORED]-() } AS degree"
)
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

PAPERS_BY_IDS: LiteralString = "UNWIND $ids AS id MATCH (p:Paper {id: id}) RETURN p " + PAPER_MAP + " AS p"
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
MATCH (:Paper {id: id})-[m:MENTIONS]->(c:Concept) WHERE NOT coalesce(m.minor, false)
RETURN id, c {.key, .name, .aliases, .broader} AS c ORDER BY id, m.weight DESC, c.key
"""
# Every concept a paper {n} mentions ({x}, through {r}): key ones first (minor = false; a store written before
# minor mentions has no minor property, and every mention of it is key).
ORDERED_MENTIONS = (
    "MATCH ({n})-[{r}:MENTIONS]->({x}:Concept) WITH {x}, {r} ORDER BY coalesce({r}.minor, false), {r}.weight DESC, {x}.key"
)
# The lists below a node, each in its order, with {n} the node, {x} each item and {r} the relationship:
# the batched lists query below and the compiled operations (plan_cypher.py) are both made of them.
ORDERED_LISTS: dict[tuple[str, str], str] = {
    ("Paper", "authors"): "MATCH ({x}:Author)-[{r}:AUTHORED]->({n}) WITH {x}, {r} ORDER BY {r}.position",
    ("Paper", "areas"): "MATCH ({n})-[:IN_AREA]->({x}:ResearchArea) WITH {x} ORDER BY {x}.path",
    ("Paper", "concepts"): (
        "MATCH ({n})-[{r}:MENTIONS]->({x}:Concept) WHERE NOT coalesce({r}.minor, false) WITH {x}, {r} ORDER BY {r}.weight DESC, {x}.key"
    ),
    ("Author", "papers"): "MATCH ({n})-[:AUTHORED]->({x}:Paper) WITH {x} ORDER BY {x}.id",
    ("Author", "coauthors"): "MATCH ({n})-[{r}:CO_AUTHORED]-({x}:Author) WITH {x}, {r} ORDER BY {r}.papers DESC, {x}.key",
    ("Paper", "related"): "MATCH ({n})-[{r}:SHARES_CONCEPT]-({x}:Paper) WITH {x}, {r} ORDER BY {r}.score DESC, {x}.id",
}
# What each kind of node is read as, the map after its variable (the row mappers above take these maps).
PROJECTIONS: dict[str, str] = {
    "Paper": PAPER_MAP,
    "Author": "{.key, .name}",
    "Concept": "{.key, .name, .aliases, .broader}",
    "ResearchArea": "{.path, .name, .parent}",
}


# Up to $first concepts each paper mentions, in ORDERED_MENTIONS' order (``concepts_of_papers(ids, first)``).
MENTIONS_OF_PAPERS = (
    "UNWIND $ids AS id MATCH (n:Paper {id: id}) RETURN id, COLLECT { "
    + ORDERED_MENTIONS.format(n="n", x="x", r="m")
    + f" LIMIT $first RETURN x {PROJECTIONS['Concept']} }} AS cs"
)


def _list_fragment(kind: str, name: str, item: str) -> str:
    match = ORDERED_LISTS[kind, name].format(n="n", x="x", r="r")
    return f"COLLECT {{ {match} RETURN x {PROJECTIONS[item]} }} AS {name}"


# Several lists of each paper or author in one round trip (what sibling fields under one node ask for),
# from fixed fragments; each list is ordered as its own query above orders it.
_LISTS: dict[str, tuple[LiteralString, dict[str, str]]] = {
    "paper": (
        "UNWIND $keys AS k MATCH (n:Paper {id: k}) RETURN k",
        {
            "authors": _list_fragment("Paper", "authors", "Author"),
            "areas": _list_fragment("Paper", "areas", "ResearchArea"),
            "concepts": _list_fragment("Paper", "concepts", "Concept"),
        },
    ),
    "author": (
        "UNWIND $keys AS k MATCH (n:Author {key: k}) RETURN k",
        {
            "papers": _list_fragment("Author", "papers", "Paper"),
            "coauthors": "COLLECT { "
            + ORDERED_LISTS["Author", "coauthors"].format(n="n", x="x", r="r")
            + " RETURN {key: x.key, papers: r.papers} } AS coauthors",
        },
    ),
}


def lists_query(kind: str, names: list[str]) -> LiteralString:
    """``UNWIND $keys`` → each node's key and the asked lists (names from ``_LISTS`` only)."""
    query, fragments = _LISTS[kind]
    for name, fragment in fragments.items():
        if name in names:
            query += ", " + fragment
    return query


RELATED_PAPERS: LiteralString = """
UNWIND $ids AS id
MATCH (:Paper {id: id})-[r:SHARES_CONCEPT]-(q:Paper)
WITH id, q, r ORDER BY r.score DESC, q.id
WITH id, collect({id: q.id, score: r.score, concepts: r.concepts})[..$limit] AS rows
RETURN id, rows
"""
PAPERS_OF_AUTHORS: LiteralString = (
    """
UNWIND $keys AS k
MATCH (:Author {key: k})-[:AUTHORED]->(p:Paper)
RETURN k, p """
    + PAPER_MAP
    + """ AS p ORDER BY k, p.id
"""
)
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
PAPER_ORDERS: dict[str, str] = {  # {x}: the paper
    "id": "{x}.id",
    "citations": "coalesce({x}.citations, -1) DESC, {x}.id",
    "year": "coalesce({x}.year, -1) DESC, {x}.id",
}


def paper_filter_query(active: list[str], *, count: bool = False, facets: bool = False, order_by: str = "id") -> LiteralString:
    """The paper-listing query for the filters that are set (names from a fixed set).

    Papers come by ``order_by`` (id; citations or year, most first); with a concept
    filter and the default order, the papers most about it come first. ``count``
    counts them; ``facets`` counts them per (year, venue).
    """
    clauses = [_FILTERS[name] for name in active if name != "concept"]  # KeyError outside the allow-list
    where: LiteralString = (" WHERE " + " AND ".join(clauses)) if clauses else ""  # type: ignore[assignment]
    by = PAPER_ORDERS[order_by].format(x="p")
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
    return match + where + order + " SKIP $offset LIMIT $limit RETURN p " + PAPER_MAP + " AS p"
