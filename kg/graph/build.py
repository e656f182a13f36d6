"""Records plus extracted concepts -> the nodes and edges one ingest adds.

Pure functions over plain data: no store, no spaCy.
"""

from __future__ import annotations

import math
from collections import defaultdict
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from itertools import combinations
from typing import TYPE_CHECKING

from kg.extract.text import first_sentence_label
from kg.graph.identity import area_chain, make_author, paper_id
from kg.models import Author, Concept, Paper, ResearchArea, SourceRecord

if TYPE_CHECKING:  # the graph stage reads extraction output; it never loads spaCy
    from kg.extract.pipeline import ExtractedConcept

__all__ = ["GraphBatch", "MergedRecord", "merge_records", "build_batch", "shared_concept_edges", "invert", "SharedEdge"]


@dataclass(slots=True)
class MergedRecord:
    """One paper, however many times the input listed it."""

    id: str
    record: SourceRecord
    areas: list[tuple[str, ...]] = field(default_factory=list)
    keywords: list[str] = field(default_factory=list)


@dataclass(slots=True)
class GraphBatch:
    """What one ingest writes. Every list is idempotent to apply (MERGE semantics)."""

    papers: list[Paper] = field(default_factory=list)
    authors: list[Author] = field(default_factory=list)
    authored: list[tuple[str, str, int]] = field(default_factory=list)  # author key, paper id, position
    areas: list[ResearchArea] = field(default_factory=list)
    in_area: list[tuple[str, str]] = field(default_factory=list)  # paper id, area path
    concepts: list[Concept] = field(default_factory=list)
    mentions: list[tuple[str, str, float]] = field(default_factory=list)  # paper id, concept key, weight
    broader: list[tuple[str, str]] = field(default_factory=list)  # narrower key, broader key
    coauthor_increments: dict[tuple[str, str], int] = field(default_factory=dict)  # (a, b) a < b
    shared: dict[tuple[str, str], "SharedEdge"] = field(default_factory=dict)  # (p, q) p < q

    def is_empty(self) -> bool:
        return not (self.papers or self.in_area or self.authored)


SharedEdge = tuple[float, tuple[str, ...]]  # score, shared concept keys (best first)


def merge_records(records: Iterable[SourceRecord]) -> list[MergedRecord]:
    """Fold repeated listings of one paper together, keeping first-seen order.

    The first listing gives the byline and text; later ones add areas and keywords.
    """
    merged: dict[str, MergedRecord] = {}
    for record in records:
        pid = paper_id(record)
        item = merged.get(pid)
        if item is None:
            item = merged[pid] = MergedRecord(pid, record)
        if record.area and record.area not in item.areas:
            item.areas.append(record.area)
        for kw in record.keywords:
            if kw not in item.keywords:
                item.keywords.append(kw)
    return list(merged.values())


def build_batch(
    items: Sequence[MergedRecord],
    concepts: Mapping[str, Sequence["ExtractedConcept"]],
    *,
    new_ids: set[str],
) -> GraphBatch:
    """Nodes and edges for the merged records.

    Parameters
    ----------
    items : merged records of this ingest
    concepts : paper id -> its key concepts (only papers in ``new_ids`` need them)
    new_ids : papers the store does not have yet; only they add authorship,
        mentions and co-author weight, so ingesting twice changes nothing.
    """
    batch = GraphBatch()
    authors: dict[str, Author] = {}
    areas: dict[str, ResearchArea] = {}
    concept_nodes: dict[str, Concept] = {}
    for item in items:
        for path in item.areas:
            chain = area_chain(path)
            for area in chain:
                areas.setdefault(area.path, area)
            batch.in_area.append((item.id, chain[-1].path))
        if item.id not in new_ids:
            continue
        rec = item.record
        batch.papers.append(
            Paper(
                id=item.id,
                title=rec.title,
                label=rec.title or first_sentence_label(rec.abstract),
                abstract=rec.abstract,
                venue=rec.venue,
                year=rec.year,
                authors_truncated=rec.authors_truncated,
            )
        )
        keys_in_order: list[str] = []
        for position, raw in enumerate(rec.authors):
            author = make_author(raw)
            if not author.key or author.key in keys_in_order:
                continue
            authors.setdefault(author.key, author)
            keys_in_order.append(author.key)
            batch.authored.append((author.key, item.id, position))
        for a, b in combinations(sorted(keys_in_order), 2):
            batch.coauthor_increments[(a, b)] = batch.coauthor_increments.get((a, b), 0) + 1
        for c in concepts.get(item.id, ()):
            _add_concept(concept_nodes, Concept(c.key, c.name, c.aliases, c.broader[0][0] if c.broader else None))
            batch.mentions.append((item.id, c.key, c.weight))
            chain = list(c.broader)
            for (narrow_key, _), (broad_key, broad_name) in zip([(c.key, c.name), *chain], chain):
                _add_concept(concept_nodes, Concept(broad_key, broad_name))
                batch.broader.append((narrow_key, broad_key))
    batch.authors = list(authors.values())
    batch.areas = list(areas.values())
    batch.concepts = list(concept_nodes.values())
    batch.broader = sorted(set(batch.broader))
    return batch


def _add_concept(nodes: dict[str, Concept], concept: Concept) -> None:
    old = nodes.get(concept.key)
    if old is None:
        nodes[concept.key] = concept
        return
    aliases = tuple(sorted(set(old.aliases) | set(concept.aliases)))
    nodes[concept.key] = Concept(old.key, old.name, aliases, old.broader or concept.broader)


def shared_concept_edges(
    touched: Mapping[str, Iterable[str]],
    index: Mapping[str, Sequence[str]],
    n_papers: int,
    *,
    per_paper: int = 15,
    max_df_share: float = 0.05,
    min_df_cap: int = 25,
) -> dict[tuple[str, str], SharedEdge]:
    """Shares-concept edges chosen by the papers an ingest touches.

    A shared concept counts its inverse document frequency ``log((N+1)/df)``,
    so rare concepts weigh more than common ones; a concept in more than
    ``max(min_df_cap, max_df_share * N)`` papers links nothing. Each touched
    paper keeps its ``per_paper`` strongest links, so each paper adds at most
    ``per_paper`` edges (``2 * per_paper`` per paper on average, counting both
    ends) and edges already stored are left alone.

    Parameters
    ----------
    touched : paper id -> its concept keys, for the papers to link
    index : concept key -> ids of every paper that mentions it (touched ones included)
    n_papers : papers in the whole graph

    Returns
    -------
    dict mapping (lower id, higher id) to (score, shared concept keys, rarest first).

    Examples
    --------
    >>> papers = {"a": ["x", "y"], "b": ["x", "y"], "c": ["y"]}
    >>> edges = shared_concept_edges(papers, invert(papers), 3)
    >>> sorted(edges)
    [('a', 'b'), ('a', 'c'), ('b', 'c')]
    >>> edges[("a", "b")][1]
    ('x', 'y')
    """
    cap = max(min_df_cap, int(max_df_share * n_papers))
    idf = {k: math.log((n_papers + 1) / len(ps)) for k, ps in index.items() if 1 < len(ps) <= cap}
    kept: dict[tuple[str, str], SharedEdge] = {}
    for pid in sorted(touched):
        scores: dict[str, float] = defaultdict(float)
        shared: dict[str, list[str]] = defaultdict(list)
        for key in sorted(set(touched[pid])):
            weight = idf.get(key)
            if weight is None:
                continue
            for other in index[key]:
                if other != pid:
                    scores[other] += weight
                    shared[other].append(key)
        best = sorted(scores.items(), key=lambda kv: (-round(kv[1], 4), kv[0]))[:per_paper]
        for other, score in best:
            pair = (pid, other) if pid < other else (other, pid)
            if pair not in kept:
                keys = tuple(sorted(shared[other], key=lambda k: (-idf[k], k)))
                kept[pair] = (round(score, 4), keys)
    return kept


def invert(postings: Mapping[str, Iterable[str]]) -> dict[str, list[str]]:
    """paper -> concepts  into  concept -> papers (sorted)."""
    index: dict[str, set[str]] = defaultdict(set)
    for pid, keys in postings.items():
        for key in keys:
            index[key].add(pid)
    return {k: sorted(v) for k, v in index.items()}
