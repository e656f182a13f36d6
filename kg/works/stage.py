"""The work-identity stage of an ingest: a chunk's records as papers, each with its sources and merged fields.

``resolve`` assigns each record to a paper (``Works``); ``papers_of`` groups the decisions by paper
into the ``MergedRecord``s the graph is built from. A paper this ingest makes is built from the merged
record of its records; a paper stored before gains the new records as sources, and its fields are
merged again over every source (``kg.works.merge``), so that the order files come in changes nothing.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence

from kg.graph.build import MergedRecord, paper_of, same_text
from kg.graph.identity import paper_id
from kg.models import Paper, PaperSource, SourceRecord
from kg.readers.formats import title_key
from kg.works.fold import Vocabulary, load_vocabulary, title_blocks
from kg.works.keys import joining_keys, record_keys, source_key
from kg.works.merge import fields_of, filled, merged_record, slim, source_of
from kg.works.resolve import Decision, Works

__all__ = ["resolve", "papers_of", "source_key", "chunk_items"]


def resolve(records: Sequence[SourceRecord], works: Works) -> list[Decision]:
    """Each record's paper, in order (the stored papers they may be are read first, in one go)."""
    works.prepare(records)
    return [works.assign(r) for r in records]


def papers_of(
    decisions: Sequence[Decision],
    stored: Mapping[str, tuple[Paper, Sequence[PaperSource]]],
    vocabulary: Vocabulary | None = None,
) -> list[MergedRecord]:
    """The decisions grouped by paper, in first-seen order. ``stored`` holds each stored paper they name, with its
    sources; a stored paper's item carries its sources and fields anew only when a record adds a source."""
    vocabulary = vocabulary or load_vocabulary()
    groups: dict[str, list[Decision]] = {}
    for d in decisions:
        groups.setdefault(d.paper, []).append(d)
    return [_paper(pid, ds, stored.get(pid), vocabulary) for pid, ds in groups.items()]


def chunk_items(
    pid: str, chunks: Iterable[tuple[int, list[Decision]]], vocabulary: Vocabulary | None = None
) -> list[tuple[int, MergedRecord]]:
    """One paper's items chunk by chunk, each as an ingest in chunks makes it: the paper the chunks before it stored
    (fields and sources) is what the next one merges its records into. For an engine that sees every chunk at once
    (Spark), so that it writes what the single-machine ingest writes."""
    vocabulary = vocabulary or load_vocabulary()
    stored: tuple[Paper, Sequence[PaperSource]] | None = None
    out = []
    for chunk, decisions in chunks:
        item = _paper(pid, decisions, stored, vocabulary)
        out.append((chunk, item))
        if item.sources:
            stored = (paper_of(item), item.sources)
    return out


def _paper(pid: str, decisions: list[Decision], stored, vocabulary: Vocabulary) -> MergedRecord:
    paper, kept = stored if stored is not None else (None, ())
    sources = filled(kept, paper) if paper is not None else []
    seen = {(s.file, s.key): s for s in sources}
    first: dict[tuple[str, str], SourceRecord] = {}
    adding: list[SourceRecord] = []
    cited: list[tuple[int, tuple[tuple[str, ...], ...]]] = []
    differing: list[SourceRecord] = []
    for d in decisions:
        r = d.record
        identity = (r.source, source_key(r))
        if identity in first:
            if not same_text(r, first[identity]):
                differing.append(r)
            continue
        first[identity] = r
        if identity in seen:  # read before, from this file: its text is the one kept
            if not _same(r, seen[identity]):
                differing.append(r)
            continue
        why = "first record" if paper is None and not adding else d.why
        sources.append(source_of(r, identity[1], why, d.keys))
        adding.append(r)
        if r.references:
            cited.append((len(sources) - 1, r.references))
    records = [d.record for d in decisions]
    item = MergedRecord(pid, records[0], stored=paper is not None, differing=differing)
    for r in records:
        if r.area and r.area not in item.areas:
            item.areas.append(r.area)
        for kw in r.keywords:
            if kw not in item.keywords:
                item.keywords.append(kw)
    if not adding:
        return item
    fields = fields_of(sources)
    item.record = merged_record(adding[0], adding, fields)
    item.sources = slim(sources)
    item.keys = _keys(adding)
    item.blocks = list(dict.fromkeys(b for r in adding for b in title_blocks(r.title, vocabulary)))
    item.cited = cited
    return item


def _same(record: SourceRecord, source: PaperSource) -> bool:
    """Whether a record re-read from a file gives the text its source (``filled``) gave."""
    data = source.data
    return same_text(record, Paper("", data.get("title"), "", data.get("abstract") or ""))


def _keys(records: Iterable[SourceRecord]) -> list[str]:
    """Every key the records name their paper by: ids, the id each would have had alone, and the title."""
    found = (k for r in records for k in (*joining_keys(r), *record_keys(r), paper_id(r), title_key(r.title)))
    return list(dict.fromkeys(k for k in found if k))
