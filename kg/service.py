"""Use cases: ingest, look up, search, relate. The API and the CLI call only this module."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from functools import partial
from typing import TYPE_CHECKING
from pathlib import Path

from kg import deadline
from kg.config import Settings
from kg.authors import corrections
from kg.authors.lookup import PersonHint, close_people, hints, people_named, person_hints, resolve, settled
from kg.errors import AmbiguousAuthor, InvalidArgument
from kg.extract.abbreviations import keyword_parts
from kg.extract.normalize import phrase_key
from kg.graph.algorithms import NetworkView, network_view
from kg.graph.build import GraphBatch
from kg.graph.identity import author_key
from kg.ingest import Ingest, IngestSummary, Progress, no_progress
from kg.overview import Overview
from kg.models import Author, Concept, Facets, Page, Paper, ResearchArea, Stats, Suggestion
from kg.readers import OnError
from kg.store.base import PAPER_ORDERS, BatchedReads, PaperFilter, Store

if TYPE_CHECKING:  # spaCy loads only when something is extracted: `kg stats` and reads stay fast
    from kg.extract.pipeline import ConceptExtractor, DocumentInput, ExtractedConcept

__all__ = ["KGService", "IngestSummary", "PaperQuery", "concept_lookup_terms"]


MAX_NAME_CHARS = 300  # the longest name or id a person is looked up by


def concept_lookup_terms(name: str) -> tuple[list[str], list[str]]:
    """How a user's spelling of a concept is looked up, on every store: (keys to try exactly,
    in order; lower-cased names to match against concept names and aliases).

    >>> concept_lookup_terms("Xray  Methods")
    (['xray method', 'xray methods'], ['xray methods', 'xray method'])
    >>> concept_lookup_terms("Large Language Models (LLMs)")[0]  # spelled the way authors write keywords
    ['large language model', 'large language models']
    """
    wanted = " ".join(keyword_parts(name)[0].lower().split())
    key = phrase_key(wanted)
    return list(dict.fromkeys([key, wanted])), list(dict.fromkeys([wanted, key]))


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


class KGService:
    """The knowledge graph's use cases over one store."""

    def __init__(self, store: Store, settings: Settings, *, extractor: ConceptExtractor | None = None) -> None:
        self.store = store
        self.settings = settings
        self._extractor = extractor
        self.overview = Overview(store)  # the field map, papers over time, rising concepts

    def close(self) -> None:
        self.store.close()

    @property
    def kind(self) -> str:
        """Which store serves: ``embedded`` or ``neo4j``."""
        return self.store.kind

    @property
    def where(self) -> str:
        """Which store this is, in words (``the embedded store at /path``, ``Neo4j at bolt://… (database neo4j)``)."""
        s = self.settings
        return (
            f"Neo4j at {s.neo4j_uri} (database {s.neo4j_database})"
            if self.kind == "neo4j"
            else f"the embedded store at {s.data_dir.resolve()}"
        )

    @property
    def batched_reads(self) -> BatchedReads:
        """Reads by many keys at once: what the API's DataLoaders are built from."""
        return self.store

    def async_tree_reads(self):
        """The store's reader for whole compiled operations on an async driver (made for the calling event
        loop, closed with ``await reader.close()``), or None when the store has none."""
        return self.store.async_tree_reads(self.settings)

    def check(self) -> None:
        """Raise StoreError/StoreUnavailable unless the store can serve (health)."""
        self.store.check()

    def warm(self) -> None:
        """Build the store's in-memory indexes ahead of the first requests."""
        self.store.warm()

    def migrate(self) -> list[str]:
        """Apply the store's pending schema migrations; the names of those applied."""
        return self.store.migrate()

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
    def extract(self, documents: Sequence["DocumentInput"], progress: Progress = no_progress) -> list[list["ExtractedConcept"]]:
        return self.extractor.extract(documents, progress=progress)

    def ingest(
        self, paths: Sequence[str | Path], *, progress: Progress = no_progress, on_error: OnError | None = None
    ) -> IngestSummary:
        """Add the papers of files or folders to the graph: incremental, idempotent, resumable (see ``kg.ingest``)."""
        return Ingest(self.store, self.settings, self.extract).run(paths, progress=progress, on_error=on_error)

    # -- reads -----------------------------------------------------------------------------
    def stats(self) -> Stats:
        return self.store.stats()

    def author(self, name: str) -> Author | None:
        """A person by id, or by a name only one person bears (``AmbiguousAuthor`` when several do)."""
        return self.store.authors_by_keys([self.author_id(name)])[0]

    def author_by_id(self, key: str) -> Author | None:
        """A person by id; an id merged into another person (``kg authors merge``) gives that person."""
        found = self.store.authors_by_keys([key])[0]
        return found if found is not None or (to := self.merged_into(key)) is None else self.store.authors_by_keys([to])[0]

    def paper_id(self, ref: str) -> str | None:
        """The paper any id names: its own, a record's of it (a Zotero key, a DOI, an OpenAlex ``W…`` …), or one merged
        into it; None when no paper holds it."""
        return self.store.papers_known_by([ref]).get(ref)

    def paper(self, ref: str) -> Paper | None:
        """A paper by its id or by any id one of its records carried."""
        found = self.store.papers_by_ids([ref])[0]
        if found is None and (pid := self.paper_id(ref)) is not None:
            found = self.store.papers_by_ids([pid])[0]
        return found

    def merged_into(self, key: str) -> str | None:  # the survivor's id, for an id merged away
        return self.store.author_aliases(keys=[key]).get(key)

    def author_id(self, ref: str) -> str:
        """The id a user's reference means: an id as it is (``yang liu~2``; one merged away, its survivor), else a
        name's one person, else the name's key (a store from before people). Several of that name: ``AmbiguousAuthor``."""
        if len(ref) > MAX_NAME_CHARS:  # folding and blocking a 90 KB "name" costs seconds, and names no one
            raise InvalidArgument(f"a person's name or id is at most {MAX_NAME_CHARS} characters; this one has {len(ref):,}")
        exact, found = resolve(self.store, ref, heads=True)  # the profiles' heads: papers and given names
        return self.settle_author(ref, exact, found)

    def settle_author(self, ref: str, exact: str | None, found: list) -> str:
        """The id a reference means, given its lookup (``kg.authors.lookup.resolve``): reads more only for a
        reference spelled as an id (one merged away?) and for a name several people bear (``AmbiguousAuthor``)."""
        if (key := settled(ref, exact, found)) is not None:
            return key
        if ref == author_key(ref) and (to := self.merged_into(ref)) is not None:
            return to
        if len(found) > 1:  # what tells them apart is in their whole profiles
            raise AmbiguousAuthor(ref, [(p.author.key, p.describe()) for p in hints(self.store, resolve(self.store, ref)[1])])
        return found[0][0] if found else author_key(ref)  # else the key a store from before people gave it

    def person_hints(self, keys: list[str]) -> dict[str, PersonHint]:  # what tells each apart from others of their name
        return person_hints(self.store, keys)

    def merge_authors(self, keep: str, other: str) -> dict:
        """Two people are one: ``other``'s papers join ``keep``, whose id survives (``other``'s resolves to it)."""
        return self._correct(lambda: corrections.merge(self.store, keep, other))

    def split_author(self, key: str, papers: Sequence[str]) -> dict:
        """Some papers of a person are someone else's: they move to a new person, whose id the answer names."""
        return self._correct(lambda: corrections.split(self.store, key, papers, self.settings.max_coauthor_byline))

    def merge_papers(self, keep: str, other: str) -> dict:
        """Two papers are one: ``other``'s records join ``keep``, whose id survives (``other``'s ids name it)."""
        from kg.works import corrections as paper_corrections

        work = partial(paper_corrections.merge, self.store, keep, other, self.settings.max_coauthor_byline)
        return Ingest(self.store, self.settings, self.extract).correct_papers(lambda: (work(), None))

    def split_paper(self, ref: str, source: str) -> dict:
        """A record of a paper is another paper: it becomes one of its own (the answer names it)."""
        from kg.works import corrections as paper_corrections

        ingest = Ingest(self.store, self.settings, self.extract)
        record = ingest.correct_papers(lambda: paper_corrections.split(self.store, ref, source))
        made = self.paper_id(record["source"]) if record.get("source") else None
        return record | {"to": made}

    def _correct(self, work) -> dict:
        with self.store.writer_lock():  # no ingest runs meanwhile: the correction is worked out on what it changes
            self.store.apply(GraphBatch(correction=(correction := work())))
        return correction.record

    def corrections(self) -> list[dict]:  # the corrections users made of who is who, oldest first
        return self.store.corrections()

    def people(self, name: str) -> list[PersonHint]:
        """Everyone who bears a name, most papers first, with what tells them apart."""
        return people_named(self.store, name)

    def nearest_people(self, name: str, limit: int = 5) -> list[PersonHint]:
        """The people whose names are nearest to one no one bears ("did you mean"), nearest first."""
        keys = [a.key for a in close_people(self.store, name, limit)]
        hints = person_hints(self.store, keys)
        return [hints[k] for k in keys if k in hints]

    def concept_key(self, name: str) -> str | None:
        """The key of the concept a user's spelling names (canonical name or any alias), if any."""
        return self.store.resolve_concept(*concept_lookup_terms(name))

    def concept(self, name: str) -> Concept | None:
        key = self.concept_key(name)
        return None if key is None else self.store.concepts_by_keys([key])[0]

    def research_areas(self) -> list[ResearchArea]:
        return self.store.top_areas()

    def _check_words(self, text: str, what: str) -> None:
        """Searches and text filters are bounded the same way on every store."""
        words, most = len(text.split()), self.settings.max_query_words
        if words > most or len(text) > 40 * most:
            raise InvalidArgument(f"{what} has {words} words ({len(text)} characters); at most {most} words are allowed")

    def paper_filter(self, query: PaperQuery) -> PaperFilter | None:
        """The store's filter for a user's query; None when it names a concept nobody mentions."""
        if query.text:
            self._check_words(query.text, "the text filter")
        if query.order not in PAPER_ORDERS:
            raise InvalidArgument(f"order must be one of {', '.join(PAPER_ORDERS)}")
        concept_key = None
        if query.concept is not None:
            concept_key = self.store.resolve_concept(*concept_lookup_terms(query.concept))
            if concept_key is None:
                return None
        return PaperFilter(
            area=" ".join(query.area.split()) if query.area else None,
            concept=concept_key,
            author=self.author_id(query.author) if query.author is not None else None,
            text=query.text or None,
            year_from=query.year_from,
            year_to=query.year_to,
            venue=" ".join(query.venue.split()) if query.venue else None,
            order=query.order,
        )

    def papers(self, query: PaperQuery, offset: int, limit: int, *, count: bool = True) -> Page:
        """A page of the papers the query matches; ``count=False`` leaves ``total`` None (see ``count_papers``)."""
        paper_filter = self.paper_filter(query)
        if paper_filter is None:
            return Page([], 0 if count else None)
        return self.store.find_papers(paper_filter, offset, limit, count=count)

    def count_papers(self, query: PaperQuery) -> int:
        paper_filter = self.paper_filter(query)
        return 0 if paper_filter is None else self.store.count_papers(paper_filter)

    def paper_facets(self, query: PaperQuery) -> Facets:
        """Papers per year and per venue among those the query matches."""
        paper_filter = self.paper_filter(query)
        return Facets([], []) if paper_filter is None else self.store.paper_facets(paper_filter)

    def papers_with_concept_key(self, key: str, offset: int, limit: int, *, count: bool = True) -> Page:
        return self.store.find_papers(PaperFilter(concept=key), offset, limit, count=count)

    def count_papers_with_concept_key(self, key: str) -> int:
        return self.store.count_papers(PaperFilter(concept=key))

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
        net = self.store.coauthor_network(author.key, depth, limit)
        deadline.check()
        return network_view(net)

    def collaboration_path(self, source: str, target: str) -> list[Author] | None:
        return self.store.collaboration_path(self.author_id(source), self.author_id(target))

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
            key = self.store.resolve_concept(*concept_lookup_terms(concept))
            if key is None:
                raise InvalidArgument(f"no concept named {concept!r}; try: kg concept {concept!r}")
            return export.concept_neighbourhood(self.store, key)
        return export.whole_graph(self.store)
