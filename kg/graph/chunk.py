"""One chunk of papers as a graph batch: the step the single-machine ingest and the Spark stages share.

A chunk's records come grouped into papers (``kg.works`` decides which records are one paper), the
papers the store does not hold yet have their concepts extracted, and the batch gets its nodes, edges
and topic signatures. What comes after differs by engine and is not here: the single-machine ingest
then decides who is who and links the new papers against the store (``kg.ingest``); Spark does both
over the whole corpus, a name block and a concept block at a time (``kg.spark``).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass

from kg.extract.pipeline import DocumentInput, ExtractedConcept
from kg.extract.topics import paper_topics
from kg.graph.build import GraphBatch, MergedRecord, build_batch

__all__ = ["Chunk", "build_chunk"]

# The concepts of the new papers' documents (the merged records they came from beside them, in order).
Extract = Callable[[list[DocumentInput], list[MergedRecord]], Sequence[Sequence[ExtractedConcept]]]


@dataclass(frozen=True, slots=True)
class Chunk:
    """A built chunk: its batch, its merged records, the ids among them already known, and the new ones."""

    batch: GraphBatch
    merged: list[MergedRecord]
    known: set[str]
    new: list[MergedRecord]


def build_chunk(
    merged: Sequence[MergedRecord],
    extract: Extract,
    *,
    max_coauthor_byline: int,
    known_author_ids: Mapping[str, str] | None = None,
) -> Chunk:
    """The chunk's batch, keyed by name (the people stage keys it by person) and without shares-concept edges.

    A paper stored already, or made by an earlier chunk (``MergedRecord.stored``), gains only what its
    records add (areas, sources, ids, references, merged fields). ``extract`` is called once, with the new
    papers only.
    """
    merged = list(merged)
    known = {m.id for m in merged if m.stored}
    new = [m for m in merged if not m.stored]
    documents = [DocumentInput(m.record.abstract, tuple(m.keywords), m.record.title or "") for m in new]
    found = extract(documents, new) if new else []
    batch = build_batch(
        merged,
        {m.id: c for m, c in zip(new, found, strict=True)},
        new_ids={m.id for m in new},
        max_coauthor_byline=max_coauthor_byline,
        known_author_ids=known_author_ids,
    )
    batch.set_topics(paper_topics(batch.papers))
    return Chunk(batch, merged, known, new)
