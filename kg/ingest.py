"""Ingest: files -> records -> concepts -> a graph batch -> the store, in committed chunks.

The service's ``ingest`` runs this; nothing else writes to a store.
"""

from __future__ import annotations

import logging
import time
from collections import Counter, defaultdict
from collections.abc import Callable, Iterable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING

from kg.authors.assign import Assigner, People
from kg.authors.stage import assign_in_order, batch_mentions, people_of, rewrite
from kg.config import Settings
from kg.errors import ReaderError
from kg.graph.correction import PaperCorrection
from kg.graph.rerank import related_ranker
from kg.graph.shares import mention_weights, shared_concept_edges
from kg.models import SourceRecord, Stats
from kg.readers import OnError, expand_paths, read_path
from kg.readers._lines import line_limit
from kg.store.base import Store

if TYPE_CHECKING:
    from kg.extract.pipeline import DocumentInput, ExtractedConcept

__all__ = ["STAGES", "Ingest", "IngestSummary", "FileReport", "Progress", "no_progress"]

log = logging.getLogger(__name__)

# What each chunk's time goes to: which records are one paper, concept extraction, who is who, shares-concept links,
# the store's write.
STAGES = ("works", "extract", "people", "links", "write")

Progress = Callable[[Iterable, int, str], Iterable]


@dataclass(slots=True)
class FileReport:
    """What one file gave: records read, the papers they made, the records that joined a paper (another file's,
    or an earlier record's of this one), those kg already had (the same file and record id) and those refused."""

    path: str
    records: int = 0
    new: int = 0
    joined: int = 0
    present: int = 0
    refused: int = 0


@dataclass(frozen=True, slots=True)
class IngestSummary:
    files: int
    records: int
    papers_added: int
    papers_already_present: int
    repeated_listings: int
    before: Stats
    after: Stats
    seconds: float
    stage_seconds: dict = field(default_factory=dict)  # STAGES -> seconds; the rest is reading and merging
    skipped_files: list = field(default_factory=list)  # (path, why) a folder held and kg passed over
    differing: list = field(default_factory=list)  # (paper id, file, line) of listings that differ from the paper kept
    file_reports: list = field(default_factory=list)  # FileReport per file, in the order read

    @property
    def people_seconds(self) -> float:  # of the seconds, the people stage's (kg.authors): who is who
        return self.stage_seconds.get("people", 0.0)


def _ignore(error, text) -> None:
    """Bad records met again on the second, streaming read: the first read already reported them."""


def _in_chunks(items: Iterable[SourceRecord], size: int) -> Iterator[list[SourceRecord]]:
    chunk: list[SourceRecord] = []
    for item in items:
        chunk.append(item)
        if len(chunk) == size:
            yield chunk
            chunk = []
    if chunk:
        yield chunk


@contextmanager
def _timed(spent: defaultdict[str, float], stage: str) -> Iterator[None]:
    started = time.perf_counter()
    try:
        yield
    finally:
        spent[stage] += time.perf_counter() - started


def no_progress(items: Iterable, total: int, label: str) -> Iterable:
    return items


class Ingest:
    """One ingest into one store, with the service's settings and extractor."""

    _paper_correction: PaperCorrection | None  # a user's correction of which records are one paper, written with it

    def __init__(
        self,
        store: Store,
        settings: Settings,
        extract: Callable[[Sequence["DocumentInput"], Progress], list[list["ExtractedConcept"]]],
    ) -> None:
        self.store = store
        self.settings = settings
        self.extract = extract
        self._reports: dict[str, FileReport] = {}  # per file read, this run
        self._fresh_run()

    def run(
        self, paths: Sequence[str | Path], *, progress: Progress = no_progress, on_error: OnError | None = None
    ) -> IngestSummary:
        """(see ``_run``; lines past ``KG_MAX_LINE_BYTES`` are refused as they are read)"""
        with line_limit(self.settings.max_line_bytes):
            return self._run(paths, progress=progress, on_error=on_error)

    def _run(
        self, paths: Sequence[str | Path], *, progress: Progress = no_progress, on_error: OnError | None = None
    ) -> IngestSummary:
        """Add the papers of files or folders to the graph: incremental, idempotent, resumable.

        Every record is read and checked first, so a bad record fails the ingest
        before anything is written. Up to ``KG_INGEST_CHUNK`` records are then one
        all-or-nothing write. A longer input streams in chunks of that many
        records, each committed on its own: memory stays bounded, and an ingest
        killed part-way, run again, skips the chunks already stored and ends with
        the graph an uninterrupted run gives. Ingests into one store run one after
        the other (the store's writer lock). With ``on_error``, bad records are
        handed to it and the rest is ingested.
        """
        started = time.perf_counter()
        self.store.check()
        skipped: list[tuple[Path, str]] = []  # (path, why) a folder held that kg passes over
        files = expand_paths(paths, skipped)
        self._reports = {str(f): FileReport(str(f)) for f in files}
        on_error = self._counting(on_error)
        size = self.settings.ingest_chunk
        held: list[SourceRecord] | None = []  # the records themselves while they fit in one chunk
        n_records = 0
        for record in (r for f in files for r in read_path(f, on_error)):
            n_records += 1
            self._reports[record.source].records += 1
            if held is not None:
                held.append(record)
                if len(held) > size:
                    held = None
        if held is not None:
            chunks: Iterable[list[SourceRecord]] = [held] if held else []
            inner = progress
        else:  # read again, streaming; pass 1 already reported the bad records
            stream = (r for f in files for r in read_path(f, None if on_error is None else _ignore))
            chunks = _in_chunks(progress(stream, n_records, "ingesting"), size)
            inner = no_progress
        totals: Counter[str] = Counter()
        with self.store.writer_lock():
            self._fresh_run(on_error)
            before = self.store.stats()
            for chunk in chunks:
                added, present, repeated = self._chunk(chunk, before.papers + totals["added"], inner)
                totals.update(added=added, present=present, repeated=repeated)
            self._signatures.clear()  # what a run read is not kept past it
        return IngestSummary(
            files=len(files),
            records=n_records,
            papers_added=totals["added"],
            papers_already_present=totals["present"],
            repeated_listings=totals["repeated"],
            before=before,
            after=self.store.stats(),
            seconds=time.perf_counter() - started,
            stage_seconds={name: self._stages[name] for name in STAGES},
            skipped_files=skipped,
            differing=self._differing,
            file_reports=list(self._reports.values()),
        )

    def correct_papers(self, work: Callable[[], tuple]) -> dict:
        """Write a user's correction of which records are one paper (``kg.works.corrections``; ``work`` works it out,
        under the writer lock, as ``(correction, record or None)``), in one write with the ingest of the record a
        split takes out: made a paper of its own, never the one it left. What the user asked, as kept."""
        with self.store.writer_lock():
            self._fresh_run()
            correction, record = work()
            if record is not None:
                from kg.works.keys import source_key

                self._apart.update({(record.source, source_key(record)): {correction.paper.id}})
            self._paper_correction = correction
            self._chunk([record] if record is not None else [], self.store.stats().papers, no_progress)
            self._fresh_run()
        return correction.record

    def _counting(self, on_error: OnError | None) -> OnError | None:
        """``on_error`` that also counts each file's refused records (the first read's; the streaming second read
        passes them over)."""
        if on_error is None:
            return None

        def counted(error: ReaderError, text: str) -> None:
            report = self._reports.get(error.path)
            if report is not None:
                report.refused += 1
            on_error(error, text)

        return counted

    def _fresh_run(self, on_error: OnError | None = None) -> None:
        """What one run keeps between its chunks, read from the store as it is now."""
        self._on_error = on_error
        self._signatures: dict[str, str] = {}  # stored papers' signatures read so far (never rewritten)
        self._stages: defaultdict[str, float] = defaultdict(float)  # seconds per stage, over the run
        self._differing: list[tuple[str, str, int]] = []
        self._apart: dict[tuple[str, str], set[str]] = {}  # a split's record -> the paper it leaves
        self._paper_correction = None

    def _chunk(self, records: list[SourceRecord], papers_before: int, progress: Progress) -> tuple[int, int, int]:
        """One all-or-nothing write: (papers added, papers already present, repeated listings merged)."""
        from kg.graph.chunk import build_chunk  # brings spaCy: imported by an ingest, not by every server and command

        started, spent = time.perf_counter(), defaultdict[str, float](float)

        def extract(documents, _):
            with _timed(spent, "extract"):
                return self.extract(documents, progress)

        with _timed(spent, "works"):
            items = self._papers_of(records)
        chunk = build_chunk(items, extract, max_coauthor_byline=self.settings.max_coauthor_byline)
        self._note_differing(chunk.merged)
        batch = chunk.batch
        with _timed(spent, "people"):
            self._assign_people(batch)
        with _timed(spent, "links"):
            self._link_new_papers(batch, papers_before + len(chunk.new))
        batch.paper_correction = c = self._paper_correction
        if c is not None and c.shared:  # a split-off record's ids the paper it left keeps name that paper alone
            batch.known_as = [(pid, key) for pid, key in batch.known_as if key not in set(c.shared)]
        if batch.papers or batch.in_area or batch.paper_correction:  # an empty file writes nothing
            with _timed(spent, "write"):
                self.store.apply(batch)
            self._signatures.update((p.id, p.topic) for p in batch.papers if p.topic)
        for stage, seconds in spent.items():
            self._stages[stage] += seconds
        log.info(
            "chunk of %d records, %d new papers (store had %d): %.1fs; %s",
            len(records),
            len(chunk.new),
            papers_before,
            time.perf_counter() - started,
            ", ".join(f"{name} {spent[name]:.1f}s" for name in STAGES),
        )
        return len(chunk.new), len(chunk.known), len(records) - len(chunk.merged)

    def _papers_of(self, records: list[SourceRecord]) -> list:
        """The work-identity stage (``kg.works``): the chunk's records grouped into papers, new and stored."""
        from kg.works.model import load_model
        from kg.works.resolve import Works
        from kg.works.keys import source_key
        from kg.works.stage import papers_of, resolve

        model = load_model(str(self.settings.works_model) if self.settings.works_model else None)
        freed = set(self._paper_correction.unlinked) if self._paper_correction is not None else set()
        works = Works(self.store, model, apart=self._apart, freed=freed)
        decisions = resolve(records, works)
        ids = [pid for pid in dict.fromkeys(d.paper for d in decisions) if works.papers[pid].stored]
        stored = dict(zip(ids, zip(self.store.papers_by_ids(ids), self.store.sources_of_papers(ids))))
        had = {(s.file, s.key) for _, sources in stored.values() for s in sources}
        for d in decisions:
            report = self._reports.setdefault(d.record.source, FileReport(d.record.source))
            identity = (d.record.source, source_key(d.record))
            if identity in had:
                report.present += 1
            elif d.why == "first record":
                report.new += 1
            else:
                report.joined += 1
            had.add(identity)
        return papers_of(decisions, {pid: (paper, sources) for pid, (paper, sources) in stored.items() if paper is not None})

    def _note_differing(self, merged) -> None:
        """Listings re-read from a file under one id with another title or abstract (the first is kept): counted,
        named in the summary, and handed to ``on_error`` (``--rejects``) when there is one."""
        for m in merged:
            for record in m.differing:
                self._differing.append((m.id, record.source, record.line))
                if self._on_error is not None:
                    self._on_error(
                        ReaderError(
                            record.source,
                            record.line,
                            f"paper {m.id} is already read from this file with another "
                            "title or abstract: the first is kept, this listing is not",
                        ),
                        "",
                    )

    def _assign_people(self, batch) -> None:
        """The people stage (``kg.authors``): each new byline name becomes a known person or a new one."""
        mentions = batch_mentions(batch, max_coauthor_byline=self.settings.max_coauthor_byline)
        known = People(self.store)  # read afresh for each chunk: memory holds a chunk's blocks, not the store's
        known.prepare(m for _, m in mentions)
        keys, people = people_of(assign_in_order(Assigner(known), mentions))
        rewrite(batch, keys, people, self.settings.max_coauthor_byline)

    def _link_new_papers(self, batch, n_papers: int) -> None:
        """Shares-concept edges chosen by the new papers, and their concept norms; stored edges stay as they are."""
        mine = {p.id: p.topic for p in batch.papers if p.topic}
        touched = mention_weights(batch.every_mention())
        keys = sorted({k for ks in touched.values() for k in ks})
        index = self.store.papers_with_concepts(keys)

        def topics_of(ids):
            missing = [i for i in ids if i not in mine and i not in self._signatures]
            if missing:
                self._signatures.update(self.store.topics_of_papers(missing))
            return {**{i: self._signatures[i] for i in ids if i in self._signatures}, **mine}

        batch.shared, norms, stats = shared_concept_edges(
            touched,
            index,
            n_papers,
            per_paper=self.settings.related_per_paper,
            topics_of=topics_of,
            years={p.id: p.year for p in batch.papers},
            ranker=related_ranker(self.settings),
        )
        batch.set_concept_norms(norms)
        batch.set_link_stats(stats)
