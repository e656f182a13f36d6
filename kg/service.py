"""Use cases: ingest, look up, search, relate. The API and the CLI call only this module."""

from __future__ import annotations

import time
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, replace
from pathlib import Path

from kg.config import Settings
from kg.errors import InvalidArgument
from kg.extract.pipeline import ConceptExtractor, DocumentInput, ExtractedConcept
from kg.graph.build import build_batch, merge_records, shared_concept_edges
from kg.graph.identity import author_key
from kg.models import Author, Concept, Page, Paper, ResearchArea, SourceRecord, Stats
from kg.readers import expand_paths, read_path
from kg.store.base import Network, PaperFilter, Store

__all__ = ["KGService", "IngestSummary", "PaperQuery"]

Progress = Callable[[Iterable, int, str], Iterable]


@dataclass(frozen=True, slots=True)
class PaperQuery:
    """A user's paper filter, in the user's spelling."""

    area: str | None = None
    concept: str | None = None
    author: str | None = None
    text: str | None = None


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

    def lines(self) -> list[str]:
        b, a = self.before, self.after
        return [
            f"read {self.records} records from {self.files} file(s) in {self.seconds:.1f}s",
            f"papers: +{self.papers_added} new, {self.papers_already_present} already present, "
            f"{self.repeated_listings} repeated listing(s) merged",
            f"authors +{a.authors - b.authors}, concepts +{a.concepts - b.concepts}, "
            f"research areas +{a.research_areas - b.research_areas}",
            f"co-author pairs {b.coauthor_edges} -> {a.coauthor_edges}, "
            f"shares-concept pairs {b.shared_concept_edges} -> {a.shared_concept_edges}",
            f"totals: {a.papers} papers, {a.authors} authors, {a.concepts} concepts, {a.research_areas} areas",
        ]


def _no_progress(items: Iterable, total: int, label: str) -> Iterable:
    return items


class KGService:
    """The knowledge graph's use cases over one store."""

    def __init__(self, store: Store, settings: Settings, *, extractor: ConceptExtractor | None = None) -> None:
        self.store = store
        self.settings = settings
        self._extractor = extractor

    @property
    def extractor(self) -> ConceptExtractor:
        if self._extractor is None:
            self._extractor = ConceptExtractor.load(
                model=self.settings.spacy_model,
                ranker=self.settings.concept_model,
                top_n=self.settings.concepts_per_paper,
                n_process=self.settings.workers,
            )
        return self._extractor

    # -- ingest ----------------------------------------------------------------------------
    def read(self, paths: Sequence[str | Path]) -> tuple[int, list[SourceRecord]]:
        """Every record of every file, or a ReaderError before anything is written."""
        files = expand_paths(paths)
        return len(files), [r for f in files for r in read_path(f)]

    def extract(self, documents: Sequence[DocumentInput], progress: Progress = _no_progress) -> list[list[ExtractedConcept]]:
        return self.extractor.extract(documents, progress=progress)

    def ingest(self, paths: Sequence[str | Path], *, progress: Progress = _no_progress) -> IngestSummary:
        """Add the papers of files or folders to the graph: incremental, idempotent, atomic."""
        started = time.perf_counter()
        self.store.check()
        n_files, records = self.read(paths)
        merged = merge_records(records)
        before = self.store.stats()
        existing = self.store.existing_papers([m.id for m in merged])
        new = [m for m in merged if m.id not in existing]
        found = self.extract([DocumentInput(m.record.abstract, tuple(m.keywords), m.record.title or "") for m in new], progress)
        batch = build_batch(merged, {m.id: c for m, c in zip(new, found, strict=True)}, new_ids={m.id for m in new})
        self._link_new_papers(batch, before.papers + len(new))
        self.store.apply(batch)
        return IngestSummary(
            files=n_files,
            records=len(records),
            papers_added=len(new),
            papers_already_present=len(existing),
            repeated_listings=len(records) - len(merged),
            before=before,
            after=self.store.stats(),
            seconds=time.perf_counter() - started,
        )

    def _link_new_papers(self, batch, n_papers: int) -> None:
        """Shares-concept edges chosen by the new papers, and their concept norms; stored edges stay as they are."""
        touched: dict[str, dict[str, float]] = {}
        for pid, key, weight in batch.mentions:
            touched.setdefault(pid, {})[key] = weight
        keys = sorted({k for ks in touched.values() for k in ks})
        index = self.store.papers_with_concepts(keys)
        batch.shared, norms = shared_concept_edges(touched, index, n_papers, per_paper=self.settings.related_per_paper)
        batch.papers = [replace(p, concept_norm=round(norms.get(p.id, 0.0), 6)) for p in batch.papers]

    # -- reads -----------------------------------------------------------------------------
    def stats(self) -> Stats:
        return self.store.stats()

    def author(self, name: str) -> Author | None:
        return self.store.authors_by_keys([author_key(name)])[0]

    def concept(self, name: str) -> Concept | None:
        key = self.store.resolve_concept(name)
        return None if key is None else self.store.concepts_by_keys([key])[0]

    def research_areas(self) -> list[ResearchArea]:
        return self.store.top_areas()

    def papers(self, query: PaperQuery, offset: int, limit: int) -> Page:
        concept_key = None
        if query.concept is not None:
            concept_key = self.store.resolve_concept(query.concept)
            if concept_key is None:
                return Page([], 0)
        flt = PaperFilter(
            area=" ".join(query.area.split()) if query.area else None,
            concept=concept_key,
            author=author_key(query.author) if query.author is not None else None,
            text=query.text or None,
        )
        return self.store.find_papers(flt, offset, limit)

    def papers_with_concept_key(self, key: str, offset: int, limit: int) -> Page:
        return self.store.find_papers(PaperFilter(concept=key), offset, limit)

    def authors(self, search: str | None, offset: int, limit: int) -> Page:
        return self.store.find_authors(search, offset, limit)

    def concepts(self, search: str | None, offset: int, limit: int) -> Page:
        return self.store.find_concepts(search, offset, limit)

    def search(self, query: str, limit: int) -> list[tuple[Paper, float]]:
        hits = self.store.search(query, limit) if query.strip() else []
        papers = self.store.papers_by_ids([pid for pid, _ in hits])
        return [(p, score) for p, (_, score) in zip(papers, hits, strict=True) if p is not None]

    def network(self, author: Author, depth: int) -> Network:
        if not 1 <= depth <= self.settings.max_network_depth:
            raise InvalidArgument(f"depth must be between 1 and {self.settings.max_network_depth}, got {depth}")
        return self.store.coauthor_network(author.key, depth)

    def collaboration_path(self, source: str, target: str) -> list[Author] | None:
        return self.store.collaboration_path(author_key(source), author_key(target))
