"""Records plus extracted concepts -> the nodes and edges one ingest adds.

Pure functions over plain data: no store, no spaCy.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from itertools import combinations
from typing import TYPE_CHECKING

from kg.extract.text import first_sentence_label
from kg.graph.identity import area_chain, make_author, make_institution, paper_id
from kg.models import Author, Concept, Institution, Paper, ResearchArea, SourceRecord

if TYPE_CHECKING:  # the graph stage reads extraction output; it never loads spaCy
    from kg.extract.pipeline import ExtractedConcept

__all__ = [
    "GraphBatch",
    "MergedRecord",
    "merge_records",
    "build_batch",
    "shared_concept_edges",
    "concept_norm",
    "SharedEdge",
    "Posting",
]


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
    institutions: list[Institution] = field(default_factory=list)
    affiliated: dict[tuple[str, str], int] = field(default_factory=dict)  # (author key, institution key) -> papers
    author_ids: dict[str, str] = field(default_factory=dict)  # source author id -> author key


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
    max_coauthor_byline: int = 100,
    known_author_ids: Mapping[str, str] | None = None,
) -> GraphBatch:
    """Nodes and edges for the merged records.

    Parameters
    ----------
    items : merged records of this ingest
    concepts : paper id -> its key concepts (only papers in ``new_ids`` need them)
    new_ids : papers the store does not have yet; only they add authorship,
        mentions and co-author weight, so ingesting twice changes nothing.
    max_coauthor_byline : a paper with more authors than this (a physics
        collaboration, a large model report) links each author to the paper but
        adds no co-author pairs: pairs grow with the square of the byline.
    known_author_ids : source author ids the store already has -> their author
        keys. An author with a source id is that id's author, however the name is
        spelled; an id seen for the first time goes to the author key of its name.
    """
    known = known_author_ids or {}
    id_keys = dict(known)
    batch = GraphBatch()
    authors: dict[str, Author] = {}
    areas: dict[str, ResearchArea] = {}
    concept_nodes: dict[str, Concept] = {}
    institutions: dict[str, Institution] = {}
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
                citations=rec.citations,
            )
        )
        keys_in_order: list[str] = []
        for position, raw in enumerate(rec.authors):
            author = make_author(raw)
            source_id = rec.author_ids[position] if rec.author_ids else None
            if source_id and author.key:
                key = id_keys.setdefault(source_id, author.key)
                if source_id not in known:
                    batch.author_ids[source_id] = key
                author = Author(key, author.name)
            if not author.key or author.key in keys_in_order:
                continue
            authors.setdefault(author.key, author)
            keys_in_order.append(author.key)
            batch.authored.append((author.key, item.id, position))
            place = rec.affiliations[position] if rec.affiliations else None
            institution = make_institution(place) if place else None
            if institution is not None:
                institutions.setdefault(institution.key, institution)
                pair = (author.key, institution.key)
                batch.affiliated[pair] = batch.affiliated.get(pair, 0) + 1
        if len(keys_in_order) <= max_coauthor_byline:
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
    batch.institutions = list(institutions.values())
    batch.broader = sorted(set(batch.broader))
    return batch


def _add_concept(nodes: dict[str, Concept], concept: Concept) -> None:
    old = nodes.get(concept.key)
    if old is None:
        nodes[concept.key] = concept
        return
    aliases = tuple(sorted(set(old.aliases) | set(concept.aliases)))
    nodes[concept.key] = Concept(old.key, old.name, aliases, old.broader or concept.broader)


Posting = tuple[str, float, float]  # paper id, the paper's mention weight, the paper's concept norm


def concept_norm(weights: Mapping[str, float], idf: Mapping[str, float]) -> float:
    """Length of a paper's concept vector: sqrt(sum of weight * idf over its linking concepts)."""
    return math.sqrt(sum(w * idf[k] for k, w in weights.items() if k in idf))


def shared_concept_edges(
    touched: Mapping[str, Mapping[str, float]],
    index: Mapping[str, Sequence[Posting]],
    n_papers: int,
    *,
    per_paper: int = 15,
    max_df_share: float = 0.2,
    min_df_cap: int = 25,
) -> tuple[dict[tuple[str, str], SharedEdge], dict[str, float]]:
    """Shares-concept edges chosen by the papers an ingest touches, and those papers' concept norms.

    Each paper is a vector over its concepts; a concept's entry is
    ``sqrt(weight * idf)``, where the weight is the extractor's confidence that
    the concept is key to the paper (1 for author keywords) and
    ``idf = log((N+1)/df)``. Two papers score the cosine of their vectors, so a
    shared concept adds ``sqrt(w_p * w_q) * idf``: concepts both papers are
    about, and rare ones, count most. Common concepts stay on papers; they only
    weigh less. For a bounded cost, a concept in more than
    ``max(min_df_cap, max_df_share * N)`` papers links nothing. Each touched
    paper keeps its ``per_paper`` strongest links (``2 * per_paper`` per paper
    on average, counting both ends); edges already stored are left alone.

    Parameters
    ----------
    touched : paper id -> {concept key: weight}, for the papers to link
    index : concept key -> (paper id, weight, concept norm) of every paper that
        mentions it; touched papers may be left out (they are added here)
    n_papers : papers in the whole graph

    Returns
    -------
    (edges, norms): edges map (lower id, higher id) to (score, shared concept
    keys, strongest first); norms give each touched paper's concept norm.

    Examples
    --------
    >>> papers = {"a": {"x": 1.0, "y": 1.0}, "b": {"x": 1.0, "y": 1.0}, "c": {"y": 1.0}}
    >>> edges, norms = shared_concept_edges(papers, {}, 3)
    >>> sorted(edges)
    [('a', 'b'), ('a', 'c'), ('b', 'c')]
    >>> edges[("a", "b")]
    (1.0, ('x', 'y'))
    """
    postings: dict[str, dict[str, tuple[float, float]]] = {
        key: {pid: (w, norm) for pid, w, norm in rows} for key, rows in index.items()
    }
    for pid, weights in touched.items():
        for key in weights:
            postings.setdefault(key, {}).pop(pid, None)
    df = {key: len(rows) for key, rows in postings.items()}
    for weights in touched.values():
        for key in weights:
            df[key] = df.get(key, 0) + 1
    cap = max(min_df_cap, int(max_df_share * n_papers))
    idf = {k: math.log((n_papers + 1) / d) for k, d in df.items() if 1 < d <= cap}
    norms = {pid: concept_norm(weights, idf) for pid, weights in touched.items()}
    for pid, weights in touched.items():
        for key, w in weights.items():
            postings[key][pid] = (w, norms[pid])
    linking = sorted(idf)
    if not linking:
        return {}, norms
    scored = _scores(touched, postings, idf, norms, linking, per_paper)
    kept: dict[tuple[str, str], SharedEdge] = {}
    for pid, ranked in scored:
        weights = touched[pid]
        for score, other in ranked:
            pair = (pid, other) if pid < other else (other, pid)
            if pair not in kept:
                parts = sorted(
                    (-math.sqrt(w * postings[key][other][0]) * idf[key], key)
                    for key, w in weights.items()
                    if key in idf and other in postings[key]
                )
                kept[pair] = (round(min(score, 1.0), 4), tuple(k for _, k in parts))
    return kept, norms


def _scores(touched, postings, idf, norms, linking, per_paper, block=256):
    """For each touched paper (in id order) with a concept vector, its ``per_paper`` best (cosine, other id).

    One sparse product per block of touched papers: (papers × concepts) · (concepts × all papers).
    Ties in the cosine rounded to 4 places go to the lower id.
    """
    import numpy as np
    from scipy import sparse

    column = {key: j for j, key in enumerate(linking)}
    ids = sorted({pid for key in linking for pid in postings[key]})
    row_of = {pid: i for i, pid in enumerate(ids)}
    # every paper's side: sqrt(weight) per linking concept, and its norm
    rows, cols, vals = [], [], []
    other_norm = np.zeros(len(ids))
    for key in linking:
        j = column[key]
        for pid, (w, norm) in postings[key].items():
            i = row_of[pid]
            rows.append(i)
            cols.append(j)
            vals.append(math.sqrt(w))
            other_norm[i] = norm
    papers = sparse.csr_matrix((vals, (rows, cols)), shape=(len(ids), len(linking))).T.tocsr()  # concepts × papers
    order = [pid for pid in sorted(touched) if norms[pid]]
    out = []
    for start in range(0, len(order), block):
        chunk = order[start : start + block]
        r, c, v = [], [], []
        for n, pid in enumerate(chunk):
            for key, w in touched[pid].items():
                if key in column:
                    r.append(n)
                    c.append(column[key])
                    v.append(math.sqrt(w) * idf[key])
        mine = sparse.csr_matrix((v, (r, c)), shape=(len(chunk), len(linking)))
        product = (mine @ papers).tocsr()
        for n, pid in enumerate(chunk):
            lo, hi = product.indptr[n], product.indptr[n + 1]
            cand, raw = product.indices[lo:hi], product.data[lo:hi]
            me = row_of[pid]
            keep = cand != me
            cand, raw = cand[keep], raw[keep]
            if not len(cand):
                out.append((pid, []))
                continue
            norm = norms[pid]
            theirs = other_norm[cand]
            score = raw / (norm * np.where(theirs > 0, theirs, norm))
            rounded = np.round(score, 4)
            if len(cand) > per_paper:  # everything at or above the per_paper-th best rounded score (ties included)
                bar = np.partition(rounded, len(rounded) - per_paper)[len(rounded) - per_paper]
                pick = np.nonzero(rounded >= bar)[0]
            else:
                pick = np.arange(len(cand))
            ranked = sorted(((-float(rounded[k]), ids[cand[k]], float(score[k])) for k in pick))[:per_paper]
            out.append((pid, [(s, other) for _, other, s in ranked]))
    return out
