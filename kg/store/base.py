"""The store interface: every read the API needs, batched, and one atomic write.

Batch methods take a list of keys and return one answer per key, in order, so
that DataLoaders can call them once per request level.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from contextlib import AbstractContextManager, nullcontext
from collections.abc import Callable, Collection, Sequence
from typing import Any

from kg.errors import InvalidArgument
from kg.graph.build import GraphBatch
from kg.graph.shares import Posting
from kg.models import (
    Author,
    Authorship,
    Coauthor,
    CoauthorAnswer,
    Concept,
    Facets,
    Institution,
    Page,
    Paper,
    PaperSource,
    Reference,
    RelatedConcept,
    RelatedPaper,
    RelatedPaperAnswer,
    ResearchArea,
    Stats,
    Suggestion,
)

from kg.store.reads import Read, read_level_by_level
from kg.works.merge import filled_fields
from kg.store.shapes import (  # noqa: F401  (re-exported: the interface speaks in them)
    COAUTHORS_FIRST,
    EVERY_MENTION,
    PAPER_ORDERS,
    RELATED_CONCEPTS_SAMPLE,
    RELATED_LIMIT,
    SUGGEST_CANDIDATES,
    Network,
    PaperFilter,
    rank_suggestions,
    read_by_key,
    references_from,
)

__all__ = ["BatchedReads", "Store", "PaperFilter", "Network", "rank_suggestions", "references_from"]


class BatchedReads(ABC):
    """Reads by many keys at once, each answer in the order asked (None or [] for unknown keys).

    What the API's per-request DataLoaders are built from: one call per relation per
    level of a query, however many parents ask.
    """

    @abstractmethod
    def papers_by_ids(self, ids: Sequence[str]) -> list[Paper | None]: ...

    @abstractmethod
    def authors_by_keys(self, keys: Sequence[str]) -> list[Author | None]: ...

    @abstractmethod
    def concepts_by_keys(self, keys: Sequence[str]) -> list[Concept | None]: ...

    @abstractmethod
    def areas_by_paths(self, paths: Sequence[str]) -> list[ResearchArea | None]: ...

    @abstractmethod
    def authors_of_papers(self, ids: Sequence[str]) -> list[list[Author]]:
        """Byline order."""

    @abstractmethod
    def areas_of_papers(self, ids: Sequence[str]) -> list[list[ResearchArea]]: ...

    @abstractmethod
    def authorships_of_authors(self, keys: Sequence[str]) -> list[list[tuple[str, str | None, str | None]]]:
        """Each person's (paper id, name as written there, why the people stage took it for them), by paper id."""

    @abstractmethod
    def authorships_of_papers(self, ids: Sequence[str]) -> list[list[Authorship]]:
        """Each paper's byline, in order: the name as written, the person, the affiliation and source id there."""

    @abstractmethod
    def sources_of_papers(self, ids: Sequence[str]) -> list[list[PaperSource]]:
        """Each paper's records as stored, in the order they joined it (``kg.works``; [] for a paper stored before
        kg kept sources). A paper of one source keeps that source's title, abstract … on itself only
        (``kg.works.merge.filled`` reads them back)."""

    @abstractmethod
    def references_of_papers(self, ids: Sequence[str]) -> list[list[Reference]]:
        """What each paper cites: the papers kg has (by id, each once), then the works it has not (by key)."""

    @abstractmethod
    def citing_papers(self, ids: Sequence[str]) -> list[list[str]]: ...  # who cites each (by any key), by id

    @abstractmethod
    def citing_keys(self, keys: Sequence[str]) -> list[list[str]]: ...  # who cites each reference key, by id

    @abstractmethod
    def concepts_of_papers(self, ids: Sequence[str], first: int | None = None) -> list[list[Concept]]:
        """Each paper's key concepts, heaviest first; with ``first``, up to that many of every concept it
        mentions: the key ones first, then its minor mentions, each heaviest first."""

    def lists_of(self, kind: str, keys: Sequence[str], names: Collection[str]) -> dict[str, list[list]]:
        """Several lists of papers (``authors``, ``areas``, ``concepts``) or of authors (``papers``,
        ``coauthors``) at once, each exactly as its own method gives it: what a query asks for side by
        side under one node. A store may answer them in one round trip."""
        methods: dict[tuple[str, str], Callable[[Sequence[str]], list[list[Any]]]] = {
            ("paper", "authors"): self.authors_of_papers,
            ("paper", "areas"): self.areas_of_papers,
            ("paper", "concepts"): self.concepts_of_papers,
            ("author", "papers"): self.papers_of_authors,
            ("author", "coauthors"): self.coauthors_of,
        }
        unknown = sorted(n for n in names if (kind, n) not in methods)
        if unknown:
            raise ValueError(f"no such {kind} lists: {unknown}")
        return {name: methods[kind, name](keys) for name in names}

    @abstractmethod
    def related_papers(self, ids: Sequence[str], limit: int) -> list[list[RelatedPaper]]:
        """Best score first, then id; never the paper itself."""

    def related_answers(self, ids: Sequence[str], first: int) -> list[list[RelatedPaperAnswer]]:
        """Each paper's first ``first`` related papers with the papers and their shared concepts read: the one
        answer the API, its compiled operations and the CLI give (``related_papers`` says in what order)."""
        rows = [rs[:first] for rs in self.related_papers(ids, max(first, 1))]
        papers = read_by_key(self.papers_by_ids, [r.paper_id for rs in rows for r in rs])
        concepts = read_by_key(self.concepts_by_keys, [k for rs in rows for r in rs for k in r.shared])
        return [
            [
                RelatedPaperAnswer(p, r.score, [c for k in r.shared if (c := concepts.get(k)) is not None], p.year)
                for r in rs
                if (p := papers.get(r.paper_id)) is not None
            ]
            for rs in rows
        ]

    @abstractmethod
    def papers_of_authors(self, keys: Sequence[str]) -> list[list[Paper]]: ...

    @abstractmethod
    def paper_counts_of_authors(self, keys: Sequence[str]) -> list[int]: ...

    @abstractmethod
    def coauthors_of(self, keys: Sequence[str]) -> list[list[Coauthor]]:
        """Most joint papers first, then key."""

    def coauthor_answers(self, keys: Sequence[str], first: int) -> list[list[CoauthorAnswer]]:
        """Each author's first ``first`` co-authors with the people read (``coauthors_of`` says in what order)."""
        rows = [rs[:first] for rs in self.coauthors_of(keys)]
        people = read_by_key(self.authors_by_keys, [r.author_key for rs in rows for r in rs])
        return [[CoauthorAnswer(a, r.joint_papers) for r in rs if (a := people.get(r.author_key)) is not None] for rs in rows]

    @abstractmethod
    def paper_counts_of_concepts(self, keys: Sequence[str]) -> list[int]: ...

    @abstractmethod
    def related_concepts(self, keys: Sequence[str], limit: int) -> list[list[RelatedConcept]]:
        """Concepts that co-occur most often on the ``RELATED_CONCEPTS_SAMPLE`` papers most about each concept
        (heaviest mention first, then paper id): bounded work, however common the concept."""

    @abstractmethod
    def children_of_areas(self, paths: Sequence[str]) -> list[list[ResearchArea]]: ...

    @abstractmethod
    def institutions_of_authors(self, keys: Sequence[str]) -> list[list[tuple[Institution, int]]]:
        """Each author's institutions with the papers naming them, most first."""

    @abstractmethod
    def paper_counts_of_areas(self, paths: Sequence[str]) -> list[int]: ...


class Store(BatchedReads):
    """What the service needs from a graph store."""

    kind: str = "abstract"

    # -- reading a whole request (``kg.store.reads``) ------------------------------------
    def read_tree(self, roots: Sequence[Read]) -> dict[str, Any]:
        """A read tree's answer (see ``kg.store.reads``): by default level by level through the batched reads."""
        return read_level_by_level(self, roots)

    def async_tree_reads(self, settings) -> Any:
        """A reader answering read trees on an async driver, made for the calling event loop (``await
        reader.read_tree(roots)``, None for a tree it cannot take; ``await reader.close()``), or None when the
        store has none (default: none; the API then reads in a worker thread)."""
        return None

    # -- lifecycle ---------------------------------------------------------------------
    def check(self) -> None:
        """Raise StoreError/StoreUnavailable unless the store can serve."""

    def close(self) -> None:
        """Release connections."""

    def migrate(self) -> list[str]:
        """Apply pending schema migrations (Neo4j); the names of those applied."""
        raise InvalidArgument(
            f"kg migrate works on Neo4j, not on the {self.kind} store: set NEO4J_URI (e.g. the URI `kg neo4j start` prints)"
        )

    def warm(self) -> None:
        """Build in-memory indexes ahead of the first requests (default: none to build)."""

    def refresh(self) -> None:
        """Pick up what other processes wrote, once at the start of a request (default: nothing to do)."""

    def reading(self) -> AbstractContextManager:
        """Held by the API around each read it runs in a worker thread, so that the store's own bookkeeping
        (the embedded store's catch-up) never changes what a read is looking at (default: nothing to hold)."""
        return nullcontext()

    def writer_lock(self) -> AbstractContextManager:
        """Held for a whole ingest, so that two ingests run one after the other (default: none)."""
        return nullcontext()

    # -- writing -----------------------------------------------------------------------
    @abstractmethod
    def author_keys_of_ids(self, ids: Sequence[str]) -> dict[str, str]:
        """The author key each known source author id (orcid:…, openalex:…, s2:…) belongs to."""

    @abstractmethod
    def people_in_blocks(self, blocks: Sequence[str], *, heads: bool = False) -> list[tuple[str, str, str, str]]:
        """(key, name, block, profile JSON) of every person in these name blocks (``kg.authors``); with ``heads``,
        each profile's head only (``Profile.head``: papers and given names, what a name's lookup reads)."""

    @abstractmethod
    def author_aliases(self, *, keys: Sequence[str] = (), blocks: Sequence[str] = ()) -> dict[str, str]:
        """Ids of people merged into others (``kg authors merge``) -> the id each now means: those asked
        for by id, and those whose name falls in one of ``blocks``."""

    @abstractmethod
    def corrections(self) -> list[dict]:
        """The corrections users made of who is who, oldest first (what each asked, and when)."""

    @abstractmethod
    def existing_papers(self, ids: Sequence[str]) -> set[str]: ...

    @abstractmethod
    def papers_known_by(self, keys: Sequence[str]) -> dict[str, str]:
        """The paper each key names (an id, DOI, arXiv id … a record of it carried; the smallest id if several),
        keys no paper holds left out: what ``kg.works`` treats as hard evidence."""

    @abstractmethod
    def papers_in_blocks(self, blocks: Sequence[str], limit: int | None = None) -> dict[str, list[str]]:
        """The papers whose records' titles fall in each block (``kg.works.fold.title_blocks``), by id; empty
        blocks left out. With ``limit``, a block holding more papers gives that many of them, no more: the caller
        wants to know only that it holds many (a common title word), not which."""

    def work_records(self, ids: Sequence[str]) -> dict[str, list[tuple[list[str], str, dict]]]:
        """What matching compares of each stored paper: for each of its records, the keys it carried, the file it was
        read from and its fields (``kg.works.merge.filled``; a paper stored before kg kept sources: its own fields,
        no keys)."""
        out: dict[str, list[tuple[list[str], str, dict]]] = {}
        for paper, sources in zip(self.papers_by_ids(ids), self.sources_of_papers(ids)):
            if paper is None:
                continue
            if not sources:
                sources = [PaperSource(paper.id, "", "", 0, "")]
            data = filled_fields([s.data for s in sources], paper)
            out[paper.id] = [(d.get("keys") or [], s.file, d) for s, d in zip(sources, data)]
        return out

    @abstractmethod
    def papers_with_concepts(self, keys: Sequence[str]) -> dict[str, list[Posting]]:
        """Concept key -> (paper id, mention weight, paper's concept norm) of the papers that mention it,
        sorted by id; absent keys are left out."""

    @abstractmethod
    def topics_of_papers(self, ids: Sequence[str]) -> dict[str, str]:
        """Paper id -> its stored signature (topic vector and term weights, ``kg.extract.topics.encode``);
        papers without one, or absent, are left out."""

    @abstractmethod
    def apply(self, batch: GraphBatch) -> None:
        """Write the batch, everything or nothing. Applying a batch twice adds its co-author increments twice."""

    # -- reading: single answers -------------------------------------------------------
    @abstractmethod
    def stats(self) -> Stats: ...

    @abstractmethod
    def resolve_concept(self, exact: Sequence[str], names: Sequence[str]) -> str | None:
        """The first key of ``exact`` that is a concept, else the concept with the most papers (then
        the smallest key) whose lower-cased name or alias is in ``names``. The service makes both
        lists from a user's spelling (``kg.service.concept_lookup_terms``)."""

    @abstractmethod
    def find_papers(self, paper_filter: PaperFilter, offset: int, limit: int, *, count: bool = True) -> Page:
        """Papers by id; with a concept filter, by that mention's weight (heaviest first), then id.
        With ``count=False`` the page's ``total`` is None (a store may then skip counting)."""

    def count_papers(self, paper_filter: PaperFilter) -> int:
        """How many papers the filter matches."""
        return self.find_papers(paper_filter, 0, 0).total or 0  # counted: ``count`` is on

    @abstractmethod
    def paper_facets(self, paper_filter: PaperFilter) -> Facets:
        """Papers per year and per venue among those the filter matches (``order`` is ignored)."""

    @abstractmethod
    def find_authors(self, search: str | None, offset: int, limit: int) -> Page: ...

    @abstractmethod
    def find_concepts(self, search: str | None, offset: int, limit: int) -> Page: ...

    @abstractmethod
    def top_areas(self) -> list[ResearchArea]: ...

    @abstractmethod
    def search(self, query: str, limit: int) -> list[tuple[str, float]]:
        """Full-text search over titles and abstracts: (paper id, score), best first."""

    @abstractmethod
    def suggest(self, prefix: str, limit: int) -> list[Suggestion]:
        """Authors, concepts and papers for a search box: every word typed is the start of a word
        of the name (or a concept alias, or a paper title); up to ``limit`` of each kind."""

    # -- reading: over time, and counts (``kg.overview``) ---------------------------------
    @abstractmethod
    def paper_years(self, kind: str, keys: Sequence[str]) -> list[list[tuple[int, int]]]:
        """(year, papers) of each author's (``kind="author"``) or concept's papers with a known year, oldest first."""

    @abstractmethod
    def concept_counts(self, paper_filter: PaperFilter, venues: Collection[str] | None = None) -> tuple[int, dict[str, int]]:
        """How many papers the filter matches (of these venues, when given), and how many of them mention each concept."""

    @abstractmethod
    def degree_histograms(self) -> dict[str, dict[int, int]]:
        """How long the graph's lists are: for each of ``papers_per_author``, ``authors_per_paper``,
        ``concepts_per_paper`` and ``references_per_paper``, how many nodes have each length (zero left out)."""

    @abstractmethod
    def coauthor_network(self, key: str, depth: int, limit: int | None = None) -> Network:
        """Authors within ``depth`` co-author hops (all, or the ``limit`` kept by ``nearest_first``) and the edges among them."""

    @abstractmethod
    def collaboration_path(self, source: str, target: str) -> list[Author] | None: ...
