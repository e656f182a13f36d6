"""Paper, RelatedPaper, CitationLink and SearchHit."""

from __future__ import annotations

import asyncio
from typing import TYPE_CHECKING, Annotated

import strawberry

from kg.api.graphql.context import Info
from kg.api.graphql.pagination import Connection, check_first, lazily_counted
from kg.graph.coupling import citation_links
from kg.models import Paper, RelatedPaperAnswer
from kg.works.merge import filled

if TYPE_CHECKING:
    from kg.api.graphql.types.area import ResearchAreaType
    from kg.api.graphql.types.author import AuthorType
    from kg.api.graphql.types.concept import ConceptType

__all__ = [
    "AuthorshipType",
    "CitationLinkType",
    "PaperSourceType",
    "PaperType",
    "ReferenceType",
    "RelatedPaperType",
    "SearchHitType",
    "paper_page",
]

_Author = Annotated["AuthorType", strawberry.lazy("kg.api.graphql.types.author")]
_Concept = Annotated["ConceptType", strawberry.lazy("kg.api.graphql.types.concept")]
_Area = Annotated["ResearchAreaType", strawberry.lazy("kg.api.graphql.types.area")]


@strawberry.type(name="Paper", description="A paper: from a listing (no title) or a record with a title.")
class PaperType:
    model: strawberry.Private[Paper]

    @strawberry.field
    def id(self) -> strawberry.ID:
        return strawberry.ID(self.model.id)

    @strawberry.field(description="Null when the source has no title.")
    def title(self) -> str | None:
        return self.model.title

    @strawberry.field(description="The title, or for title-less papers the abstract's first sentence.")
    def label(self) -> str:
        return self.model.label

    @strawberry.field
    def abstract(self) -> str:
        return self.model.abstract

    @strawberry.field
    def venue(self) -> str | None:
        return self.model.venue

    @strawberry.field(description="Citation count where the source gives one.")
    def citations(self) -> int | None:
        return self.model.citations

    @strawberry.field
    def year(self) -> int | None:
        return self.model.year

    @strawberry.field(description="True when the byline ended in 'et al.' (等): authors lists only those named.")
    def authors_truncated(self) -> bool:
        return self.model.authors_truncated

    @strawberry.field(description="Byline order.")
    async def authors(self, info: Info) -> list[_Author]:
        from kg.api.graphql.types.author import AuthorType

        return [AuthorType(model=a) for a in await info.context.loaders.paper_lists.load((self.model.id, "authors"))]

    @strawberry.field(
        description="The byline, in order: each name as written on this paper, the person kg took it for, "
        "and the affiliation written beside it (the OpenAlex shape)."
    )
    async def authorships(self, info: Info) -> list["AuthorshipType"]:
        from kg.api.graphql.types.author import AuthorType

        return [
            AuthorshipType(
                position=r.position, name=r.name or r.author.name, affiliation=r.affiliation, author=AuthorType(model=r.author)
            )
            for r in await info.context.loaders.paper_authorships.load(self.model.id)
        ]

    @strawberry.field(
        description="The records this paper was read from, in the order they joined it: one per export or listing "
        "that holds it (kg decides which records are one paper: ids they share, else a learned match of title, authors, "
        "year and venue)."
    )
    async def sources(self, info: Info) -> list["PaperSourceType"]:
        kept = filled(await info.context.loaders.paper_sources.load(self.model.id), self.model)
        return [
            PaperSourceType(
                id=strawberry.ID(s.key),
                format=s.format,
                file=s.file,
                line=s.line,
                why=s.why,
                title=(d := s.data).get("title"),
                year=d.get("year"),
                venue=d.get("venue"),
            )
            for s in kept
        ]

    @strawberry.field(
        description="What this paper cites, where its source lists references: the papers kg has first, "
        "then works kg does not have yet (each joins when a paper known by its key is ingested)."
    )
    async def references(self, info: Info) -> list["ReferenceType"]:
        rows = await info.context.loaders.paper_references.load(self.model.id)
        papers = await info.context.loaders.paper.load_many([r.paper_id for r in rows if r.paper_id])
        by_id = {p.id: p for p in papers if p is not None}
        return [
            ReferenceType(key=strawberry.ID(r.key), paper=PaperType(model=by_id[r.paper_id]) if r.paper_id in by_id else None)
            for r in rows
        ]

    @strawberry.field(description="The papers kg has that cite this one, by id.")
    async def cited_by(self, info: Info, first: int | None = 100) -> list["PaperType"]:
        first = check_first(first, 100)
        ids = (await info.context.loaders.paper_cited_by.load(self.model.id))[:first]
        return [PaperType(model=p) for p in await info.context.loaders.paper.load_many(ids) if p is not None]

    @strawberry.field(description="How many papers kg has cite this one (its citations within the store).")
    async def cited_by_count(self, info: Info) -> int:
        return len(await info.context.loaders.paper_cited_by.load(self.model.id))

    @strawberry.field(
        description="Papers linked to this one through citations, most links first: those that cite what "
        "it cites (`bothCite`, bibliographic coupling) and those cited beside it (`citedTogetherBy`, "
        "co-citation). Empty where no source listed references. Of a much-cited work, and of a much-cited "
        "paper, the first `KG_CITATION_FANOUT` (1,000) citing papers by id are read."
    )
    async def citation_links(self, info: Info, first: int | None = 10) -> list["CitationLinkType"]:
        first = check_first(first, 100)
        loaders = info.context.loaders
        cap = info.context.service.settings.citation_fanout  # a work cited by thousands is read no further
        refs = await loaders.paper_references.load(self.model.id)
        citing_each = await asyncio.gather(
            *(loaders.paper_cited_by.load(r.paper_id) if r.paper_id else loaders.key_cited_by.load(r.key) for r in refs)
        )  # gathered: each loader reads them in one call
        citing_each = [citing[:cap] for citing in citing_each]
        citers = (await loaders.paper_cited_by.load(self.model.id))[:cap]
        links = citation_links(self.model.id, refs, citing_each, citers, await loaders.paper_references.load_many(citers))[:first]
        ids = {link.paper for link in links} | {i for link in links for i in link.cited_together_by}
        ids |= {r.paper_id for link in links for r in link.both_cite if r.paper_id}
        by_id = {p.id: PaperType(model=p) for p in await loaders.paper.load_many(sorted(ids)) if p is not None}
        return [
            CitationLinkType(
                paper=by_id[link.paper],
                strength=link.strength,
                both_cite=[ReferenceType(key=strawberry.ID(r.key), paper=by_id.get(r.paper_id)) for r in link.both_cite],
                cited_together_by=[by_id[i] for i in link.cited_together_by if i in by_id],
            )
            for link in links
            if link.paper in by_id
        ]

    @strawberry.field
    async def areas(self, info: Info) -> list[_Area]:
        from kg.api.graphql.types.area import ResearchAreaType

        return [ResearchAreaType(model=a) for a in await info.context.loaders.paper_lists.load((self.model.id, "areas"))]

    @strawberry.field(
        description="Key concepts, most important first. With `first`, up to that many of every concept the paper "
        "mentions: the key ones first, then the concepts it names in passing (a vocabulary term or a defined "
        "abbreviation below its key concepts), each most important first."
    )
    async def concepts(self, info: Info, first: int | None = None) -> list[_Concept]:
        from kg.api.graphql.types.concept import ConceptType

        if first is None:
            found = await info.context.loaders.paper_lists.load((self.model.id, "concepts"))
        else:
            first = check_first(first, 0)  # checked before anything is read
            found = (await info.context.loaders.paper_mentions.load(self.model.id))[:first]
        return [ConceptType(model=c) for c in found]

    @strawberry.field(
        description="Papers joined by shared concepts, best first (by default, those a model learned "
        "from citation links finds likeliest to cite or be cited by this one); never the paper itself."
    )
    async def related(self, info: Info, first: int | None = 10) -> list["RelatedPaperType"]:
        first = check_first(first, 10)
        found = await info.context.loaders.paper_related.load((self.model.id, first))
        return [RelatedPaperType(model=r, source=self.model.id) for r in found]


@strawberry.type(name="PaperSource", description="One record a paper was read from, and why kg took it for this paper.")
class PaperSourceType:
    id: strawberry.ID = strawberry.field(
        description="The record's own id (a Zotero key, an EID, a DOI …): paper(id:) finds the paper by it."
    )
    format: str = strawberry.field(description="What kg read it as: Scopus CSV, RIS, OpenAlex work, listing …")
    file: str = strawberry.field(description="The file it was read from, as given to kg ingest.")
    line: int = strawberry.field(description="Its line (or item) in that file.")
    why: str = strawberry.field(
        description="Why it is this paper: 'first record', 'the same doi:…' (an id both carry), or 'matched 0.97 (title, "
        "authors, year)': the matching model's probability and what the records share."
    )
    title: str | None = strawberry.field(description="The title this record gives.")
    year: int | None = strawberry.field(description="The year this record gives.")
    venue: str | None = strawberry.field(description="The venue this record gives.")


@strawberry.type(name="Authorship", description="One name on a paper's byline.")
class AuthorshipType:
    position: int = strawberry.field(description="Byline position, from 0.")
    name: str = strawberry.field(description="The name as written on this paper.")
    affiliation: str | None = strawberry.field(description="The institution written beside it, if the source gives one.")
    author: _Author = strawberry.field(description="The person kg took this name for.")


@strawberry.type(name="Reference", description="A work a paper cites.")
class ReferenceType:
    key: strawberry.ID = strawberry.field(description="How it is cited: arxiv:…, doi:…, a source's id, or title:… (folded).")
    paper: PaperType | None = strawberry.field(description="The paper kg has for it; null while kg has none.")


@strawberry.type(name="CitationLink", description="A paper linked to another through citations, with why.")
class CitationLinkType:
    paper: PaperType
    strength: int = strawberry.field(description="How many works both cite plus how many papers cite both.")
    both_cite: list[ReferenceType] = strawberry.field(description="The works both papers cite (kg's papers first).")
    cited_together_by: list[PaperType] = strawberry.field(description="The papers kg has that cite both.")


@strawberry.type(name="RelatedPaper", description="A paper joined to another by the concepts they share.")
class RelatedPaperType:
    """One related paper as the store answers it (``related_answers``): each field reads that answer."""

    model: strawberry.Private[RelatedPaperAnswer]
    source: strawberry.Private[str]  # the paper whose related papers these are

    @strawberry.field
    def paper(self) -> PaperType:
        return PaperType(model=self.model.paper)

    @strawberry.field(
        description="How strongly the two are related, 0 to 1: by default the citation model's "
        "likelihood of a citation between them, leaned toward their similarity."
    )
    def score(self) -> float:
        return self.model.score

    @strawberry.field(description="The related paper's year, if known.")
    def year(self) -> int | None:
        return self.model.year

    @strawberry.field(description="The concepts both papers have, rarest first.")
    def shared_concepts(self) -> list[_Concept]:
        from kg.api.graphql.types.concept import ConceptType

        return [ConceptType(model=c) for c in self.model.shared]

    @strawberry.field(
        description="Why the two are related, in words, in this order: the concepts both are about, "
        "the people who wrote both, and what citations say (one cites the other; the works both cite; the papers "
        "that cite both)."
    )
    async def reasons(self, info: Info) -> list[str]:
        key = (self.source, self.model.paper.id, tuple(c.name for c in self.model.shared))
        return await info.context.loaders.related_reasons.load(key)


@strawberry.type(name="SearchHit")
class SearchHitType:
    paper: PaperType
    score: float


async def paper_page(info: Info, fetch, count, first: int | None, after: str | None) -> Connection[PaperType]:
    """A page of papers as a connection: ``fetch(offset, limit)`` reads the page (uncounted), and ``count()``
    the total, only when a client asks for it."""
    return await lazily_counted(info.context.call, fetch, count, first, after, lambda p: PaperType(model=p))
