"""Cards: one paper, author or concept with its surroundings, as the CLI's answers show them."""

from __future__ import annotations

from dataclasses import dataclass, field

from kg.authors.lookup import close_people
from kg.explain import citation_mark, related_evidence
from kg.models import Author, Concept, Paper, PaperSource, ResearchArea
from kg.store.base import EVERY_MENTION, PaperFilter, Store
from kg.store.shapes import read_by_key
from kg.works.merge import filled

__all__ = ["Cards", "PaperCard", "RelatedCard", "AuthorCard", "ConceptCard", "NamedCoauthor", "NamedRelatedConcept"]


@dataclass(frozen=True, slots=True)
class PaperCard:
    paper: Paper
    authors: list[Author]
    areas: list[ResearchArea]
    concepts: list[Concept]  # its key concepts
    also_named: list[Concept] = field(default_factory=list)  # the concepts it names below them (minor mentions)
    sources: list[PaperSource] = field(default_factory=list)  # the records it was read from, each with its fields
    references: list[tuple[str, Paper | None]] = field(default_factory=list)  # (key, the paper kg has for it or None)
    cited_by: list[Paper] = field(default_factory=list)  # the papers kg has that cite it


@dataclass(frozen=True, slots=True)
class RelatedCard:
    paper: Paper
    score: float
    shared: list[Concept]
    reasons: list[str] = field(default_factory=list)  # why, in words (``kg.explain``)
    citation: str = ""  # what ties the two through citations: 'cites', 'cited by', 'both cite 3' … (``citation_mark``)


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
    evidence: list[tuple[str, str | None, str | None]] = field(default_factory=list)  # (paper id, name as written, why)


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


class Cards:
    """Builds cards from a store's reads; a name a user typed is looked up before (``KGService.author``,
    ``KGService.concept``)."""

    def __init__(self, store: Store) -> None:
        self.store = store

    def _paper(self, ref: str) -> Paper | None:
        """A paper by its id, or by any id one of its records carried."""
        [paper] = self.store.papers_by_ids([ref])
        if paper is None and (pid := self.store.papers_known_by([ref]).get(ref)) is not None:
            [paper] = self.store.papers_by_ids([pid])
        return paper

    def paper_card(self, ref: str) -> PaperCard | None:
        paper = self._paper(ref)
        if paper is None:
            return None
        paper_id = paper.id
        key = self.store.concepts_of_papers([paper_id])[0]
        every = self.store.concepts_of_papers([paper_id], EVERY_MENTION)[0]
        return PaperCard(
            paper,
            self.store.authors_of_papers([paper_id])[0],
            self.store.areas_of_papers([paper_id])[0],
            key,
            every[len(key) :],
            filled(self.store.sources_of_papers([paper_id])[0], paper),
            *self._citations(paper_id),
        )

    def _citations(self, paper_id: str) -> tuple[list[tuple[str, Paper | None]], list[Paper]]:
        """What a paper cites (each reference's key, with the paper kg has for it) and the papers citing it."""
        refs = self.store.references_of_papers([paper_id])[0]
        citing = self.store.citing_papers([paper_id])[0]
        papers = read_by_key(self.store.papers_by_ids, [r.paper_id for r in refs if r.paper_id] + citing)
        return [(r.key, papers.get(r.paper_id) if r.paper_id else None) for r in refs], [papers[i] for i in citing if i in papers]

    def related(self, ref: str, limit: int) -> list[RelatedCard] | None:
        """Papers linked by shared concepts, strongest first; None for an unknown paper."""
        paper = self._paper(ref)
        if paper is None:
            return None
        paper_id = paper.id
        found = self.store.related_answers([paper_id], limit)[0]
        pairs = [(paper_id, r.paper.id, tuple(c.name for c in r.shared)) for r in found]
        return [
            RelatedCard(r.paper, r.score, r.shared, why, citation_mark(c))
            for r, (why, c) in zip(found, related_evidence(self.store, pairs), strict=True)
        ]

    def author_card(self, found: Author | None, name: str, limit: int) -> AuthorCard:
        """A person (``found`` for ``name``) with papers and co-authors, or close names when there is none."""
        if found is None:
            return AuthorCard(None, suggestions=close_people(self.store, name, limit))
        papers = self.store.papers_of_authors([found.key])[0]
        named = [
            NamedCoauthor(c.author.key, c.author.name, c.joint_papers) for c in self.store.coauthor_answers([found.key], limit)[0]
        ]
        evidence = self.store.authorships_of_authors([found.key])[0][:limit]
        return AuthorCard(found, len(papers), papers[:limit], named, evidence=evidence)

    def concept_card(self, found: Concept | None, limit: int) -> ConceptCard | None:
        if found is None:
            return None
        broader = self.store.concepts_by_keys([found.broader])[0] if found.broader else None
        related = self.store.related_concepts([found.key], limit)[0]
        names = self.store.concepts_by_keys([r.concept_key for r in related])
        return ConceptCard(
            found,
            self.store.paper_counts_of_concepts([found.key])[0],
            broader.name if broader else None,
            self.store.find_papers(PaperFilter(concept=found.key), 0, limit, count=False).items,
            [
                NamedRelatedConcept(r.concept_key, c.name if c else r.concept_key, r.shared_papers)
                for r, c in zip(related, names, strict=True)
            ],
        )
