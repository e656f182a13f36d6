"""Use cases: ingest, look up, search, relate. The API and the CLI call only this module."""

from __future__ import annotations

import difflib
import time
from collections import Counter
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass, field, replace
from typing import TYPE_CHECKING
from pathlib import Path

from kg.config import Settings
from kg.errors import InvalidArgument
from kg.graph.build import build_batch, merge_records, shared_concept_edges
from kg.graph.identity import author_key
from kg.models import Author, Concept, Facets, Page, Paper, ResearchArea, SourceRecord, Stats, Suggestion
from kg.readers import OnError, expand_paths, read_path
from kg.store.base import PAPER_ORDERS, Network, PaperFilter, Store

if TYPE_CHECKING:  # spaCy loads only when something is extracted: `kg stats` and reads stay fast
    from kg.extract.pipeline import ConceptExtractor, DocumentInput, ExtractedConcept

__all__ = ["KGService", "IngestSummary", "PaperQuery"]

Progress = Callable[[Iterable, int, str], Iterable]


@dataclass(frozen=True, slots=True)
class PaperQuery:
    """A user's paper filter, in the user's spelling."""

    area: str | None = None
    concept: str | None = None
    author: str | None = None
    text: str | None = None
    year_from: int | None = None
    year_to: int | None = None
    venue: str | None = None
    order: str = "id"  # id | citations | year


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


@dataclass(frozen=True, slots=True)
class NetworkView:
    nodes: list[Author]
    edges: list[tuple[str, str, int]]  # source key, target key, joint papers
    total_nodes: int  # before the cap
    communities: list[list[str]]  # author keys, largest community first


def network_view(net: Network) -> NetworkView:
    """A network with its Louvain communities (weighted by joint papers, fixed seed), largest first.

    >>> from kg.models import Author
    >>> net = Network([Author(k, k) for k in "abcde"], [("a", "b", 3), ("a", "c", 2), ("b", "c", 2), ("d", "e", 1)], 9)
    >>> view = network_view(net)
    >>> view.communities, view.total_nodes
    ([['a', 'b', 'c'], ['d', 'e']], 9)
    """
    import networkx as nx

    g = nx.Graph()
    g.add_nodes_from(sorted(a.key for a in net.nodes))
    g.add_weighted_edges_from(sorted(net.edges))
    found = nx.community.louvain_communities(g, weight="weight", seed=7) if g.number_of_nodes() else []
    communities = sorted((sorted(c) for c in found), key=lambda c: (-len(c), c[0]))
    return NetworkView(net.nodes, net.edges, net.within if net.within is not None else len(net.nodes), communities)


@dataclass(frozen=True, slots=True)
class PaperCard:
    paper: Paper
    authors: list[Author]
    areas: list[ResearchArea]
    concepts: list[Concept]


@dataclass(frozen=True, slots=True)
class RelatedCard:
    paper: Paper
    score: float
    shared: list[Concept]


@dataclass(frozen=True, slots=True)
class NamedCoauthor:
    key: str
    name: str
    joint_papers: int


@dataclass(frozen=True, slots=True)
class AuthorCard:
    author: Author | None
    paper_count: int = 0
    papers: list[Paper] = field(default_factory=list)
    coauthors: list[NamedCoauthor] = field(default_factory=list)
    suggestions: list[Author] = field(default_factory=list)  # close names, when there is no exact one


@dataclass(frozen=True, slots=True)
class NamedRelatedConcept:
    key: str
    name: str
    shared_papers: int


@dataclass(frozen=True, slots=True)
class ConceptCard:
    concept: Concept
    paper_count: int
    broader: str | None
    papers: list[Paper]
    related: list[NamedRelatedConcept]


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


def _no_progress(items: Iterable, total: int, label: str) -> Iterable:
    return items


class KGService:
    """The knowledge graph's use cases over one store."""

    def __init__(self, store: Store, settings: Settings, *, extractor: ConceptExtractor | None = None) -> None:
        self.store = store
        self.settings = settings
        self._extractor = extractor

    def close(self) -> None:
        self.store.close()

    def refresh(self) -> None:
        self.store.refresh()

    def __enter__(self) -> "KGService":
        return self

    def __exit__(self, *exc) -> None:
        self.close()

    @property
    def extractor(self) -> "ConceptExtractor":
        if self._extractor is None:
            from kg.extract.pipeline import ConceptExtractor

            self._extractor = ConceptExtractor.load(
                model=self.settings.spacy_model,
                ranker=self.settings.concept_model,
                top_n=self.settings.concepts_per_paper,
                n_process=self.settings.workers,
            )
        return self._extractor

    # -- ingest ----------------------------------------------------------------------------
    def extract(self, documents: Sequence["DocumentInput"], progress: Progress = _no_progress) -> list[list["ExtractedConcept"]]:
        return self.extractor.extract(documents, progress=progress)

    def ingest(
        self, paths: Sequence[str | Path], *, progress: Progress = _no_progress, on_error: OnError | None = None
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
        files = expand_paths(paths)
        size = self.settings.ingest_chunk
        held: list[SourceRecord] | None = []  # the records themselves while they fit in one chunk
        n_records = 0
        for record in (r for f in files for r in read_path(f, on_error)):
            n_records += 1
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
            inner = _no_progress
        totals = Counter()
        with self.store.writer_lock():
            before = self.store.stats()
            for chunk in chunks:
                added, present, repeated = self._ingest_chunk(chunk, before.papers + totals["added"], inner)
                totals.update(added=added, present=present, repeated=repeated)
        return IngestSummary(
            files=len(files),
            records=n_records,
            papers_added=totals["added"],
            papers_already_present=totals["present"],
            repeated_listings=totals["repeated"],
            before=before,
            after=self.store.stats(),
            seconds=time.perf_counter() - started,
        )

    def _ingest_chunk(self, records: list[SourceRecord], papers_before: int, progress: Progress) -> tuple[int, int, int]:
        """One all-or-nothing write: (papers added, papers already present, repeated listings merged)."""
        from kg.extract.pipeline import DocumentInput

        merged = merge_records(records)
        existing = self.store.existing_papers([m.id for m in merged])
        new = [m for m in merged if m.id not in existing]
        source_ids = sorted({i for m in new for i in (m.record.author_ids or ()) if i})
        documents = [DocumentInput(m.record.abstract, tuple(m.keywords), m.record.title or "") for m in new]
        found = self.extract(documents, progress) if documents else []
        batch = build_batch(
            merged,
            {m.id: c for m, c in zip(new, found, strict=True)},
            new_ids={m.id for m in new},
            max_coauthor_byline=self.settings.max_coauthor_byline,
            known_author_ids=self.store.author_keys_of_ids(source_ids),
        )
        self._link_new_papers(batch, papers_before + len(new))
        if batch.papers or batch.in_area:  # an empty file writes nothing
            self.store.apply(batch)
        return len(new), len(existing), len(records) - len(merged)

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

    def _check_words(self, text: str, what: str) -> None:
        """Searches and text filters are bounded the same way on every store."""
        words, most = len(text.split()), self.settings.max_query_words
        if words > most or len(text) > 40 * most:
            raise InvalidArgument(f"{what} has {words} words ({len(text)} characters); at most {most} words are allowed")

    def _paper_filter(self, query: PaperQuery) -> PaperFilter | None:
        """The store's filter for a user's query; None when it names a concept nobody mentions."""
        if query.text:
            self._check_words(query.text, "the text filter")
        if query.order not in PAPER_ORDERS:
            raise InvalidArgument(f"order must be one of {', '.join(PAPER_ORDERS)}")
        concept_key = None
        if query.concept is not None:
            concept_key = self.store.resolve_concept(query.concept)
            if concept_key is None:
                return None
        return PaperFilter(
            area=" ".join(query.area.split()) if query.area else None,
            concept=concept_key,
            author=author_key(query.author) if query.author is not None else None,
            text=query.text or None,
            year_from=query.year_from,
            year_to=query.year_to,
            venue=" ".join(query.venue.split()) if query.venue else None,
            order=query.order,
        )

    def papers(self, query: PaperQuery, offset: int, limit: int) -> Page:
        flt = self._paper_filter(query)
        return Page([], 0) if flt is None else self.store.find_papers(flt, offset, limit)

    def paper_facets(self, query: PaperQuery) -> Facets:
        """Papers per year and per venue among those the query matches."""
        flt = self._paper_filter(query)
        return Facets([], []) if flt is None else self.store.paper_facets(flt)

    def papers_with_concept_key(self, key: str, offset: int, limit: int) -> Page:
        return self.store.find_papers(PaperFilter(concept=key), offset, limit)

    def authors(self, search: str | None, offset: int, limit: int) -> Page:
        return self.store.find_authors(search, offset, limit)

    def concepts(self, search: str | None, offset: int, limit: int) -> Page:
        return self.store.find_concepts(search, offset, limit)

    def search(self, query: str, limit: int) -> list[tuple[Paper, float]]:
        self._check_words(query, "the search")
        hits = self.store.search(query, limit) if query.strip() else []
        papers = self.store.papers_by_ids([pid for pid, _ in hits])
        return [(p, score) for p, (_, score) in zip(papers, hits, strict=True) if p is not None]

    def suggest(self, prefix: str, limit: int) -> list[Suggestion]:
        """Concepts, authors and papers whose words start with the words typed (a search box's autocomplete)."""
        self._check_words(prefix, "the prefix")
        return self.store.suggest(prefix, limit)

    def network(self, author: Author, depth: int, limit: int | None = None) -> "NetworkView":
        """The co-author network within ``depth`` hops; with ``limit``, its nearest authors, then those with
        most co-authors (the store cuts it, so a big network is never fetched whole).

        Communities (Louvain, weighted by joint papers, fixed seed) are computed on the authors returned.
        """
        if not 1 <= depth <= self.settings.max_network_depth:
            raise InvalidArgument(f"depth must be between 1 and {self.settings.max_network_depth}, got {depth}")
        if limit is not None and limit < 1:
            raise InvalidArgument(f"first must be at least 1, got {limit}")
        return network_view(self.store.coauthor_network(author.key, depth, limit))

    def collaboration_path(self, source: str, target: str) -> list[Author] | None:
        return self.store.collaboration_path(author_key(source), author_key(target))

    def export_graph(self, *, author: str | None = None, depth: int = 1, concept: str | None = None):
        """The whole graph, an author's co-author network, or a concept's papers, as a networkx graph."""
        from kg import export

        if author is not None:
            found = self.author(author)
            if found is None:
                raise InvalidArgument(f"no author named {author!r}; try: kg author {author!r}")
            if not 1 <= depth <= self.settings.max_network_depth:
                raise InvalidArgument(f"depth must be between 1 and {self.settings.max_network_depth}, got {depth}")
            return export.author_neighbourhood(self.store, found.key, depth)
        if concept is not None:
            key = self.store.resolve_concept(concept)
            if key is None:
                raise InvalidArgument(f"no concept named {concept!r}; try: kg concept {concept!r}")
            return export.concept_neighbourhood(self.store, key)
        return export.whole_graph(self.store)

    # -- cards: one answer with its surroundings (the CLI's answers) ---------------------------
    def paper_card(self, paper_id: str) -> PaperCard | None:
        [paper] = self.store.papers_by_ids([paper_id])
        if paper is None:
            return None
        return PaperCard(
            paper,
            self.store.authors_of_papers([paper_id])[0],
            self.store.areas_of_papers([paper_id])[0],
            self.store.concepts_of_papers([paper_id])[0],
        )

    def related(self, paper_id: str, limit: int) -> list[RelatedCard] | None:
        """Papers linked by shared concepts, strongest first; None for an unknown paper."""
        if self.store.papers_by_ids([paper_id])[0] is None:
            return None
        found = self.store.related_papers([paper_id], limit)[0]
        papers = self.store.papers_by_ids([r.paper_id for r in found])
        keys = sorted({k for r in found for k in r.shared})
        concepts = dict(zip(keys, self.store.concepts_by_keys(keys), strict=True))
        return [
            RelatedCard(p, r.score, [concepts[k] for k in r.shared if concepts.get(k) is not None])
            for r, p in zip(found, papers, strict=True)
            if p is not None
        ]

    def author_card(self, name: str, limit: int) -> AuthorCard:
        """An author with papers and co-authors, or close names when none is called exactly that."""
        found = self.author(name)
        if found is None:
            return AuthorCard(None, suggestions=self._close_authors(name, limit))
        papers = self.store.papers_of_authors([found.key])[0]
        coauthors = self.store.coauthors_of([found.key])[0][:limit]
        people = self.store.authors_by_keys([c.author_key for c in coauthors])
        named = [NamedCoauthor(c.author_key, a.name if a else c.author_key, c.joint_papers) for c, a in zip(coauthors, people, strict=True)]
        return AuthorCard(found, len(papers), papers[:limit], named)

    def _close_authors(self, name: str, limit: int) -> list[Author]:
        """Authors whose names share a word with ``name``, the most similar first."""
        seen: dict[str, Author] = {}
        for word in sorted(set(author_key(name).split()), key=len, reverse=True):
            for a in self.store.find_authors(word, 0, 200).items:
                seen.setdefault(a.key, a)
        wanted = " ".join(sorted(author_key(name).split()))  # word order aside: 'lin wei' is close to 'wei lin'

        def closeness(a: Author) -> float:
            return difflib.SequenceMatcher(None, wanted, " ".join(sorted(a.key.split()))).ratio()

        return sorted(seen.values(), key=lambda a: (-closeness(a), a.key))[:limit]

    def concept_card(self, name: str, limit: int) -> ConceptCard | None:
        found = self.concept(name)
        if found is None:
            return None
        broader = self.store.concepts_by_keys([found.broader])[0] if found.broader else None
        related = self.store.related_concepts([found.key], limit)[0]
        names = self.store.concepts_by_keys([r.concept_key for r in related])
        return ConceptCard(
            found,
            self.store.paper_counts_of_concepts([found.key])[0],
            broader.name if broader else None,
            self.papers_with_concept_key(found.key, 0, limit).items,
            [NamedRelatedConcept(r.concept_key, c.name if c else r.concept_key, r.shared_papers) for r, c in zip(related, names, strict=True)],
        )
