"""Every Cypher write the Neo4j store runs, beside the rows each one reads.

Writes take ``$rows`` lists and run as ``UNWIND $rows AS row … MERGE``, nodes before
relationships, in the order of ``WRITES``; ``batch_rows`` builds those rows from a batch.
"""

from __future__ import annotations

import json
from typing import LiteralString

from kg.graph.build import GraphBatch
from kg.graph.correction import PaperCorrection, PeopleCorrection
from kg.models import AREA_SEPARATOR

__all__ = ["WRITES", "batch_rows"]

# -- writes, in the order they run ----------------------------------------------------
MERGE_PAPERS: LiteralString = """
UNWIND $rows AS row
MERGE (p:Paper {id: row.id})
ON CREATE SET p.title = row.title, p.label = row.label, p.abstract = row.abstract,
              p.venue = row.venue, p.year = row.year, p.authors_truncated = row.authors_truncated,
              p.concept_norm = row.concept_norm, p.citations = row.citations, p.topic = row.topic,
              p.sources = row.sources
"""
UPDATE_PAPERS: LiteralString = """
UNWIND $rows AS row
MATCH (p:Paper {id: row.id})
SET p.title = row.title, p.label = row.label, p.abstract = row.abstract, p.venue = row.venue, p.year = row.year,
    p.citations = row.citations, p.sources = row.sources
"""
MERGE_BLOCKS: LiteralString = """
UNWIND $rows AS row
MATCH (p:Paper {id: row.paper})
MERGE (b:WorkBlock {key: row.key})
MERGE (p)-[:IN_BLOCK]->(b)
"""
MERGE_AUTHORS: LiteralString = """
UNWIND $rows AS row
MERGE (a:Author {key: row.key})
ON CREATE SET a.name = row.name
SET a.block = coalesce(row.block, a.block), a.profile = coalesce(row.profile, a.profile)
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
ON CREATE SET r.position = row.position, r.name = row.name, r.why = row.why, r.place = row.place, r.source_id = row.source_id
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
ON CREATE SET m.weight = row.weight, m.minor = row.minor
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

MERGE_KNOWN_AS: LiteralString = """
UNWIND $rows AS row
MATCH (p:Paper {id: row.paper})
MERGE (k:Ref {key: row.key})
MERGE (p)-[:KNOWN_AS]->(k)
"""
MERGE_CITES: LiteralString = """
UNWIND $rows AS row
MATCH (p:Paper {id: row.paper})
MERGE (k:Ref {key: row.key})
MERGE (p)-[c:CITES]->(k)
ON CREATE SET c.n = row.n
"""

# -- a user's correction of who is who (GraphBatch.correction), after everything else ------------------
MOVE_AUTHORED: LiteralString = """
UNWIND $rows AS row
MATCH (old:Author {key: row.from})-[r:AUTHORED]->(p:Paper {id: row.paper}), (new:Author {key: row.to})
MERGE (new)-[s:AUTHORED]->(p)
ON CREATE SET s += properties(r), s.why = row.why
DELETE r
"""
_DROP_EMPTY: LiteralString = """WITH r WHERE r.papers <= 0
DELETE r
"""
# the increments of an ingest, signed, and an edge left with no paper goes
CHANGE_CO_AUTHORED: LiteralString = ADD_CO_AUTHORED + _DROP_EMPTY
CHANGE_AFFILIATED_WITH: LiteralString = ADD_AFFILIATED_WITH + _DROP_EMPTY
REMOVE_AUTHORS: LiteralString = """
UNWIND $rows AS row
OPTIONAL MATCH (a:Author {key: row.key})
DETACH DELETE a
WITH row
MERGE (x:AuthorAlias {key: row.key})
SET x.to = row.to, x.block = row.block
WITH row
MATCH (y:AuthorAlias {to: row.key})
SET y.to = row.to
"""
REPOINT_AUTHOR_IDS: LiteralString = """
UNWIND $rows AS row
MATCH (a:Author {key: row.key})
MERGE (i:AuthorId {id: row.id})
WITH i, a
OPTIONAL MATCH (i)-[old:IDENTIFIES]->()
DELETE old
WITH DISTINCT i, a
MERGE (i)-[:IDENTIFIES]->(a)
"""
KEEP_CORRECTION: LiteralString = """
UNWIND $rows AS row
CREATE (:AuthorCorrection {at: row.at, record: row.record})
"""

# -- a user's correction of which records are one paper (GraphBatch.paper_correction), last ------------------
CORRECT_PAPER: LiteralString = UPDATE_PAPERS  # the kept paper's fields, from the sources it keeps
MOVE_PAPER_EDGES: LiteralString = """
UNWIND $rows AS row
MATCH (p:Paper {id: row.keep}), (g:Paper {id: row.gone})
CALL (p, g) { MATCH (g)-[:KNOWN_AS]->(k:Ref) MERGE (p)-[:KNOWN_AS]->(k) }
CALL (p, g) { MATCH (g)-[:IN_AREA]->(a:ResearchArea) MERGE (p)-[:IN_AREA]->(a) }
CALL (p, g) { MATCH (g)-[:IN_BLOCK]->(b:WorkBlock) MERGE (p)-[:IN_BLOCK]->(b) }
"""
MERGED_CITES: LiteralString = MERGE_CITES  # the citations of the papers merged away, onto the one kept
REMOVE_PAPERS: LiteralString = """
UNWIND $rows AS row
MATCH (g:Paper {id: row.id})
DETACH DELETE g
"""
REMOVE_UNAUTHORED: LiteralString = """
UNWIND $rows AS row
MATCH (a:Author {key: row.key}) WHERE NOT EXISTS { (a)-[:AUTHORED]->() }
DETACH DELETE a
"""
UNLINK_KEYS: LiteralString = """
UNWIND $rows AS row
MATCH (:Paper {id: row.paper})-[r:KNOWN_AS]->(:Ref {key: row.key})
DELETE r
"""
UNLINK_BLOCKS: LiteralString = """
UNWIND $rows AS row
MATCH (:Paper {id: row.paper})-[r:IN_BLOCK]->(:WorkBlock {key: row.key})
DELETE r
"""
KEEP_PAPER_CORRECTION: LiteralString = """
UNWIND $rows AS row
CREATE (:PaperCorrection {at: row.at, record: row.record})
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

WRITES: tuple[tuple[str, LiteralString], ...] = (
    ("papers", MERGE_PAPERS),
    ("paper_updates", UPDATE_PAPERS),
    ("blocks", MERGE_BLOCKS),
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
    ("known_as", MERGE_KNOWN_AS),
    ("cites", MERGE_CITES),
    ("moves", MOVE_AUTHORED),
    ("coauthor_changes", CHANGE_CO_AUTHORED),
    ("affiliation_changes", CHANGE_AFFILIATED_WITH),
    ("removed", REMOVE_AUTHORS),
    ("repointed_ids", REPOINT_AUTHOR_IDS),
    ("correction", KEEP_CORRECTION),
    ("paper_correction", CORRECT_PAPER),
    ("paper_moves", MOVE_PAPER_EDGES),
    ("merged_cites", MERGED_CITES),
    ("paper_coauthor_changes", CHANGE_CO_AUTHORED),
    ("paper_affiliation_changes", CHANGE_AFFILIATED_WITH),
    ("papers_removed", REMOVE_PAPERS),
    ("people_left_without_papers", REMOVE_UNAUTHORED),
    ("unlinked_keys", UNLINK_KEYS),
    ("unlinked_blocks", UNLINK_BLOCKS),
    ("paper_correction_record", KEEP_PAPER_CORRECTION),
)


def paper_correction_rows(c: PaperCorrection | None) -> dict[str, list[dict]]:
    """The rows of the statements that write a paper correction (none without one)."""
    names = (
        "paper_correction",
        "paper_moves",
        "merged_cites",
        "paper_coauthor_changes",
        "paper_affiliation_changes",
        "papers_removed",
        "people_left_without_papers",
        "unlinked_keys",
        "unlinked_blocks",
        "paper_correction_record",
    )
    if c is None:
        return {name: [] for name in names}
    p, gone = c.paper, c.removed
    return {
        "paper_correction": [_paper_fields(p, c.sources)],
        "paper_moves": [{"keep": p.id, "gone": gone}] if gone else [],
        "merged_cites": [{"paper": p.id, "key": k, "n": n} for k, n in c.cites],
        "paper_coauthor_changes": [{"a": a, "b": b, "inc": n} for (a, b), n in sorted(c.coauthors.items())],
        "paper_affiliation_changes": [{"author": a, "institution": i, "inc": n} for (a, i), n in sorted(c.affiliated.items())],
        "papers_removed": [{"id": gone}] if gone else [],
        "people_left_without_papers": [{"key": k} for k in c.people_removed],
        "unlinked_keys": [{"paper": p.id, "key": k} for k in c.unlinked],
        "unlinked_blocks": [{"paper": p.id, "key": k} for k in c.unblocked],
        "paper_correction_record": [
            {"at": c.record.get("at"), "record": json.dumps(c.record, ensure_ascii=False, sort_keys=True)}
        ],
    }


def correction_rows(c: PeopleCorrection | None) -> dict[str, list[dict]]:
    """The rows of the statements that write a correction (none without one)."""
    if c is None:
        return {
            name: [] for name in ("moves", "coauthor_changes", "affiliation_changes", "removed", "repointed_ids", "correction")
        }
    return {
        "moves": [{"paper": p, "from": old, "to": new, "why": why} for p, old, new, why in c.moves],
        "coauthor_changes": [{"a": a, "b": b, "inc": n} for (a, b), n in sorted(c.coauthors.items())],
        "affiliation_changes": [{"author": a, "institution": i, "inc": n} for (a, i), n in sorted(c.affiliated.items())],
        "removed": [{"key": k, "to": to, "block": block} for k, to, block in c.removed],
        "repointed_ids": [{"id": i, "key": k} for i, k in sorted(c.ids.items())],
        "correction": [{"at": c.record.get("at"), "record": json.dumps(c.record, ensure_ascii=False, sort_keys=True)}],
    }


def _paper_fields(p, sources) -> dict:
    """What a paper's records give it (new, updated by a later record, or corrected): its fields and its sources."""
    return {
        "id": p.id,
        "title": p.title,
        "label": p.label,
        "abstract": p.abstract,
        "venue": p.venue,
        "year": p.year,
        "citations": p.citations,
        "sources": [s.encode() for s in sources],
    }


def batch_rows(batch: GraphBatch) -> dict[str, list[dict]]:
    """The ``$rows`` of each write statement, by the names ``WRITES`` gives them."""
    people = [*batch.authors, *(batch.correction.people if batch.correction is not None else ())]
    return {
        **correction_rows(batch.correction),
        **paper_correction_rows(batch.paper_correction),
        "papers": [
            {
                **_paper_fields(p, batch.sources.get(p.id, ())),
                "authors_truncated": p.authors_truncated,
                "concept_norm": p.concept_norm,
                "topic": p.topic,
            }
            for p in batch.papers
        ],
        "paper_updates": [_paper_fields(p, batch.sources.get(p.id, ())) for p in batch.updates],
        "blocks": [{"paper": p, "key": k} for p, k in batch.blocks],
        "authors": [{"key": a.key, "name": a.name, "block": a.block or None, "profile": a.profile or None} for a in people],
        "areas": [
            {"path": a.path, "name": a.name, "parent": a.parent, "top": a.path.split(AREA_SEPARATOR)[0]} for a in batch.areas
        ],
        "concepts": [{"key": c.key, "name": c.name, "aliases": list(c.aliases), "broader": c.broader} for c in batch.concepts],
        "subarea_of": [{"child": a.path, "parent": a.parent} for a in batch.areas if a.parent],
        "broader": [{"narrow": n, "broad": b} for n, b in batch.broader],
        "authored": [
            dict(zip(("author", "paper", "position", "name", "why", "place", "source_id"), (*row, *[None] * (7 - len(row)))))
            for row in batch.authored
        ],
        "in_area": [{"paper": p, "area": a} for p, a in batch.in_area],
        "mentions": [
            *({"paper": p, "concept": c, "weight": w, "minor": False} for p, c, w in batch.mentions),
            *({"paper": p, "concept": c, "weight": w, "minor": True} for p, c, w in batch.minor_mentions),
        ],
        "co_authored": [{"a": a, "b": b, "inc": n} for (a, b), n in sorted(batch.coauthor_increments.items())],
        "shares_concept": [
            {"p": p, "q": other, "score": s, "concepts": list(c)} for (p, other), (s, c) in sorted(batch.shared.items())
        ],
        "institutions": [{"key": i.key, "name": i.name} for i in batch.institutions],
        "affiliated_with": [{"author": a, "institution": i, "inc": n} for (a, i), n in sorted(batch.affiliated.items())],
        "author_ids": [{"id": i, "key": k} for i, k in sorted(batch.author_ids.items())],
        "refs": [{"key": k} for k in dict.fromkeys(row[1] for row in (*batch.known_as, *batch.cites))],
        "known_as": [{"paper": p, "key": k} for p, k in batch.known_as],
        "cites": [{"paper": p, "key": k, "n": n} for p, k, n in batch.cites],
    }
