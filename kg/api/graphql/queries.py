"""The root Query: short resolvers over the service."""

from __future__ import annotations

from enum import Enum
from typing import Annotated

from functools import partial

import strawberry
from strawberry.types.nodes import SelectedField

from kg.api.graphql.context import Info
from kg.api.graphql.pagination import DEFAULT_FIRST, Connection, check_first, connection, page_window
from kg.api.graphql.rows import author_ref
from kg.api.graphql.types.area import ResearchAreaType
from kg.api.graphql.types.author import AuthorType
from kg.api.graphql.types.concept import ConceptType
from kg.api.graphql.types.overview import FieldMapType, TrendingConceptType, TrendsType, field_map, trending, trends_report
from kg.api.graphql.types.paper import PaperType, SearchHitType, paper_page
from kg.service import PaperQuery

__all__ = ["Query", "paper_query", "StatsType", "PaperFilterInput", "PaperOrderEnum", "PaperFacetsType"]


@strawberry.type(name="Stats")
class StatsType:
    papers: int
    authors: int
    concepts: int
    research_areas: int = strawberry.field(description="Top-level areas and leaves.")
    coauthor_edges: int = strawberry.field(description="Distinct co-author pairs.")
    shared_concept_edges: int = strawberry.field(description="Distinct paper pairs joined by a shares-concept edge.")


async def _trends(info: Info, since, until, area, venue, first, min_papers):
    """The trends report and its concepts as GraphQL objects (``trendingConcepts`` and ``trends``)."""
    first, overview, call = check_first(first, 20), info.context.service.overview, info.context.call
    least = None if min_papers is None else max(min_papers, 1)
    report = await call(
        partial(overview.trending, since=since, until=until, area=area, venue=venue, first=first, min_papers=least)
    )
    keys = [t.concept_key for t in report.trends]
    found = await info.context.loaders.concept.load_many(keys)
    lines = await info.context.loaders.concept_timeline.load_many(keys)
    return report, trending(report, {c.key: c for c in found if c}, dict(zip(keys, lines)))


def _selects(selections, name: str) -> bool:
    """Whether a selection set asks for the field ``name``, directly or inside a fragment."""
    return any(f.name == name if isinstance(f, SelectedField) else _selects(f.selections, name) for f in selections)


@strawberry.type(name="Person", description="One bearer of a name, and what tells them apart from the others.")
class PersonType:
    author: AuthorType
    paper_count: int
    affiliations: list[str] = strawberry.field(description="Institutions on their papers, most papers first (up to 3).")
    first_year: int | None
    last_year: int | None
    venues: list[str] = strawberry.field(description="Venues (without the year), most papers first (up to 3).")
    top_concepts: list[str] = strawberry.field(description="Concept names, most papers first (up to 3).")
    hint: str = strawberry.field(description="All of that in one line.")
    bears_name: bool = strawberry.field(
        default=True,
        description="Whether they bear the name asked for; false when no one does and these are the people whose "
        "names are nearest to it (did you mean), nearest first.",
    )


@strawberry.input(name="PaperFilter", description="All given fields must hold (AND).")
class PaperFilterInput:
    area: str | None = strawberry.field(default=None, description="A top-level area or a full path.")
    concept: str | None = strawberry.field(default=None, description="A concept's name or any alias.")
    author: str | None = strawberry.field(default=None, description="An author's name, case- and space-insensitive.")
    text: str | None = strawberry.field(default=None, description="Words that must all appear in title or abstract.")
    year_from: int | None = strawberry.field(default=None, description="Published in or after this year.")
    year_to: int | None = strawberry.field(default=None, description="Published in or before this year.")
    venue: str | None = strawberry.field(
        default=None, description='A venue exactly as `paperFacets` lists it, e.g. "NeurIPS 2012".'
    )


@strawberry.enum(name="PaperOrder")
class PaperOrderEnum(Enum):
    ID = "id"
    CITATIONS = strawberry.enum_value("citations", description="Most cited first; papers without a count last.")
    YEAR = strawberry.enum_value("year", description="Newest first; papers without a year last.")


@strawberry.enum(name="SuggestionKind")
class SuggestionKind(Enum):
    CONCEPT = "concept"
    AUTHOR = "author"
    PAPER = "paper"


@strawberry.type(name="Suggestion")
class SuggestionType:
    kind: SuggestionKind
    id: strawberry.ID = strawberry.field(description="The concept's name key, the author's id or the paper's id.")
    label: str
    papers: int = strawberry.field(description="An author's or concept's papers; a paper's citations (0 if unknown).")
    hint: str | None = strawberry.field(
        default=None, description="An author's places, venues, years and concepts: what tells people of one name apart."
    )


@strawberry.type(name="YearCount")
class YearCountType:
    year: int
    papers: int


@strawberry.type(name="VenueCount")
class VenueCountType:
    venue: str
    papers: int


@strawberry.type(name="PaperFacets")
class PaperFacetsType:
    years: list[YearCountType] = strawberry.field(description="Papers per year, oldest first.")
    venues: list[VenueCountType] = strawberry.field(description="Papers per venue, most first.")


def paper_query(f: PaperFilterInput | None, order: "PaperOrderEnum | None" = None) -> PaperQuery:
    f = f or PaperFilterInput()
    return PaperQuery(
        f.area, f.concept, f.author, f.text, f.year_from, f.year_to, f.venue, order.value if order is not None else "id"
    )


@strawberry.type
class Query:
    @strawberry.field
    async def stats(self, info: Info) -> StatsType:
        s = await info.context.call(info.context.service.stats)
        return StatsType(
            papers=s.papers,
            authors=s.authors,
            concepts=s.concepts,
            research_areas=s.research_areas,
            coauthor_edges=s.coauthor_edges,
            shared_concept_edges=s.shared_concept_edges,
        )

    @strawberry.field
    async def paper(self, info: Info, id: strawberry.ID) -> PaperType | None:
        found = await info.context.loaders.paper.load(str(id))
        if found is None and (pid := await info.context.call(info.context.service.paper_id, str(id))) is not None:
            found = await info.context.loaders.paper.load(pid)  # an id of one of its records (a DOI, a Zotero key …)
        return PaperType(model=found) if found else None

    @strawberry.field
    async def papers(
        self,
        info: Info,
        filter: PaperFilterInput | None = None,
        first: int | None = 20,
        after: str | None = None,
        order_by: PaperOrderEnum = PaperOrderEnum.ID,
    ) -> Connection[PaperType]:
        query, service = paper_query(filter, order_by), info.context.service
        return await paper_page(
            info, partial(service.papers, query, count=False), partial(service.count_papers, query), first, after
        )

    @strawberry.field(description="Counts per year and per venue of the papers a filter matches.")
    async def paper_facets(self, info: Info, filter: PaperFilterInput | None = None) -> PaperFacetsType:
        facets = await info.context.call(info.context.service.paper_facets, paper_query(filter))
        return PaperFacetsType(
            years=[YearCountType(year=y, papers=n) for y, n in facets.years],
            venues=[VenueCountType(venue=v, papers=n) for v, n in facets.venues],
        )

    @strawberry.field(
        description="One person: by `id`, or by a `name` only one person bears (case, accents and spacing "
        "aside; an error lists the ids when several people bear it: see `people`)."
    )
    async def author(self, info: Info, name: str | None = None, id: strawberry.ID | None = None) -> AuthorType | None:
        ref = author_ref(name, id)
        if id is not None:  # an id is a key: read as it is, no name to resolve
            found = await info.context.loaders.author.load(ref)
            if found is None and (to := await info.context.call(info.context.service.merged_into, ref)) is not None:
                found = await info.context.loaders.author.load(to)  # an id merged into another person means that person
        else:
            found = await info.context.call(info.context.service.author, ref)
        return AuthorType(model=found) if found else None

    @strawberry.field(
        description="Everyone who bears a name (accents, case, initials and word order as people type them), most papers "
        "first, each with what tells them apart; when no one does, the people whose names are nearest (`bearsName` false)."
    )
    async def people(self, info: Info, name: str) -> list[PersonType]:
        found = await info.context.call(info.context.service.people, name)
        exact = bool(found)
        if not exact:
            found = await info.context.call(info.context.service.nearest_people, name)
        return [
            PersonType(
                author=AuthorType(model=p.author),
                paper_count=p.papers,
                affiliations=list(p.affiliations),
                first_year=p.years[0] if p.years else None,
                last_year=p.years[1] if p.years else None,
                venues=list(p.venues),
                top_concepts=list(p.concepts),
                hint=p.describe(),
                bears_name=exact,
            )
            for p in found
        ]

    @strawberry.field(description="Most papers first.")
    async def authors(
        self, info: Info, search: str | None = None, first: int | None = 20, after: str | None = None
    ) -> Connection[AuthorType]:
        offset, limit = page_window(first, after, default=DEFAULT_FIRST)
        page = await info.context.call(info.context.service.authors, search, offset, limit)
        return connection(page.items, page.total, offset, lambda a: AuthorType(model=a))

    @strawberry.field(description="By canonical name or any alias, case-insensitive.")
    async def concept(self, info: Info, name: str) -> ConceptType | None:
        found = await info.context.call(info.context.service.concept, name)
        return ConceptType(model=found) if found else None

    @strawberry.field(description="Most papers first.")
    async def concepts(
        self, info: Info, search: str | None = None, first: int | None = 20, after: str | None = None
    ) -> Connection[ConceptType]:
        offset, limit = page_window(first, after, default=DEFAULT_FIRST)
        page = await info.context.call(info.context.service.concepts, search, offset, limit)
        return connection(page.items, page.total, offset, lambda c: ConceptType(model=c))

    @strawberry.field(
        description="Concepts whose share of papers grew most from the window before to `since`..`until` "
        "(default: the last two years known, widened for a small library until both windows hold a quarter of its "
        "papers), within an area or a venue if given; counting only venues with papers in both windows, and concepts "
        "on at least `minPapers` papers of the recent window (default: 3 in a field, fewer in a small library). "
        "Score: see `TrendingConcept.score`."
    )
    async def trending_concepts(
        self,
        info: Info,
        since: int | None = None,
        until: int | None = None,
        area: str | None = None,
        venue: str | None = None,
        first: int | None = 20,
        min_papers: int | None = None,
    ) -> list[TrendingConceptType]:
        return (await _trends(info, since, until, area, venue, first, min_papers))[1]

    @strawberry.field(
        description="The concepts on the rise as `trendingConcepts` gives them, with the windows compared, the least "
        "papers a concept needed, and when none is listed, why (in terms of what the store holds)."
    )
    async def trends(
        self,
        info: Info,
        since: int | None = None,
        until: int | None = None,
        area: str | None = None,
        venue: str | None = None,
        first: int | None = 20,
        min_papers: int | None = None,
    ) -> TrendsType:
        return trends_report(*await _trends(info, since, until, area, venue, first, min_papers))

    @strawberry.field(
        description="The `first` concepts with most papers (at most 300), linked where papers share them, "
        "in communities: the field at a glance."
    )
    async def field_map(self, info: Info, first: int | None = 150) -> FieldMapType:
        first = check_first(first, 150, most=300)
        found = await info.context.call(info.context.service.overview.field_map, first)
        concepts = await info.context.loaders.concept.load_many([k for k, _, _ in found.concepts])
        return field_map(found, {c.key: c for c in concepts if c})

    @strawberry.field(description="Top-level areas.")
    async def research_areas(self, info: Info) -> list[ResearchAreaType]:
        return [ResearchAreaType(model=a) for a in await info.context.call(info.context.service.research_areas)]

    @strawberry.field(description="A research area by its full path.")
    async def research_area(self, info: Info, path: str) -> ResearchAreaType | None:
        found = await info.context.loaders.area.load(path)
        return ResearchAreaType(model=found) if found else None

    @strawberry.field(description="Full-text search over titles and abstracts, best first.")
    async def search(self, info: Info, query: str, first: int | None = 10) -> list[SearchHitType]:
        first = check_first(first, 10)
        hits = await info.context.call(info.context.service.search, query, first)
        return [SearchHitType(paper=PaperType(model=p), score=s) for p, s in hits]

    @strawberry.field(
        description="Autocomplete for a search box: concepts, then authors, then papers, whose words start "
        "with the words typed (concept aliases count, e.g. SAM); up to `first` of each kind, "
        "most papers (for papers: citations) first."
    )
    async def suggest(self, info: Info, prefix: str, first: int | None = 5) -> list[SuggestionType]:
        first = check_first(first, 5)
        found = await info.context.call(info.context.service.suggest, prefix, first)
        authors = [s.key for s in found if s.kind == "author"]
        asked = authors and _selects(info.selected_fields[0].selections, "hint")
        hints = await info.context.call(info.context.service.person_hints, authors) if asked else {}
        return [
            SuggestionType(
                kind=SuggestionKind(s.kind),
                id=strawberry.ID(s.key),
                label=s.label,
                papers=s.papers,
                hint=hints[s.key].describe() if s.key in hints else None,
            )
            for s in found
        ]

    @strawberry.field(description="Shortest co-author path, endpoints included; null when there is none.")
    async def collaboration_path(
        self, info: Info, source: Annotated[str, strawberry.argument(name="from")], to: str
    ) -> list[AuthorType] | None:
        path = await info.context.call(info.context.service.collaboration_path, source, to)
        return None if path is None else [AuthorType(model=a) for a in path]
