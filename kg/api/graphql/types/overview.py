"""Time and the field as a whole: timelines, rising concepts and the field map (``kg.overview``)."""

from __future__ import annotations

import strawberry

from kg.api.graphql.types.concept import ConceptType
from kg.api.graphql.types.timeline import YearShareType, timeline
from kg.models import Concept
from kg.overview import FieldMap, Trends, why_no_trends

__all__ = [
    "TrendingConceptType",
    "TrendsType",
    "FieldMapType",
    "MapConceptType",
    "MapLinkType",
    "trending",
    "trends_report",
    "field_map",
]


@strawberry.type(name="TrendingConcept", description="A concept whose share of papers grew, the windows compared, and its years.")
class TrendingConceptType:
    concept: ConceptType
    score: float = strawberry.field(
        description="z-score of the log-odds ratio with an informative Dirichlet prior "
        "(Monroe et al. 2008): growth weighed by evidence."
    )
    papers: int = strawberry.field(description="Its papers in the recent window (`since`..`until`).")
    earlier_papers: int = strawberry.field(description="Its papers in the window as long just before it.")
    share: float = strawberry.field(description="Of the recent window's papers counted.")
    earlier_share: float
    since: int
    until: int
    earlier_from: int
    earlier_to: int
    venues: list[str] | None = strawberry.field(
        description="The venues counted: those with papers in both windows (null: every paper, when papers have no venues)."
    )
    timeline: list[YearShareType] = strawberry.field(description="Its papers per year in the whole store.")


@strawberry.type(name="Trends", description="The concepts on the rise, with the windows compared and why none, if none.")
class TrendsType:
    since: int | None = strawberry.field(description="The recent window, inclusive (null: no paper has a year).")
    until: int | None
    earlier_from: int | None = strawberry.field(description="The window it is compared with: as long, just before.")
    earlier_to: int | None
    papers: int = strawberry.field(description="Papers counted in the recent window.")
    earlier_papers: int = strawberry.field(description="Papers counted in the window before.")
    min_papers: int = strawberry.field(description="The least papers of the recent window a concept needed.")
    note: str | None = strawberry.field(
        description="Why no concept is listed, in terms of what the store holds (null when some are)."
    )
    concepts: list[TrendingConceptType]


def trends_report(report: Trends, concepts: list[TrendingConceptType]) -> TrendsType:
    return TrendsType(
        since=report.since,
        until=report.until,
        earlier_from=report.earlier_from,
        earlier_to=report.earlier_to,
        papers=report.papers,
        earlier_papers=report.earlier_papers,
        min_papers=report.min_papers,
        note=None if concepts else why_no_trends(report),
        concepts=concepts,
    )


def trending(report: Trends, concepts: dict[str, Concept], timelines: dict) -> list[TrendingConceptType]:
    """The report's concepts (read by key into ``concepts``, with their ``timelines``) as GraphQL objects."""
    out = []
    for t in report.trends:
        if t.concept_key in concepts:
            out.append(
                TrendingConceptType(
                    concept=ConceptType(model=concepts[t.concept_key]),
                    score=t.score,
                    papers=t.papers,
                    earlier_papers=t.earlier_papers,
                    share=t.share,
                    earlier_share=t.earlier_share,
                    since=report.since,
                    until=report.until,
                    earlier_from=report.earlier_from,
                    earlier_to=report.earlier_to,
                    venues=report.venues,
                    timeline=timeline(timelines[t.concept_key]),
                )
            )
    return out


@strawberry.type(name="MapConcept")
class MapConceptType:
    concept: ConceptType
    papers: int
    community: int = strawberry.field(description="Louvain community (weighted by shared papers, fixed seed), largest first.")


@strawberry.type(name="MapLink")
class MapLinkType:
    source: strawberry.ID
    target: strawberry.ID
    shared_papers: int = strawberry.field(description="Papers mentioning both, among the 200 most about each.")


@strawberry.type(name="FieldMap", description="The concepts with most papers, linked where papers share them.")
class FieldMapType:
    concepts: list[MapConceptType]
    links: list[MapLinkType]


def field_map(found: FieldMap, concepts: dict[str, Concept]) -> FieldMapType:
    return FieldMapType(
        concepts=[
            MapConceptType(concept=ConceptType(model=concepts[k]), papers=n, community=c)
            for k, n, c in found.concepts
            if k in concepts
        ],
        links=[MapLinkType(source=strawberry.ID(a), target=strawberry.ID(b), shared_papers=w) for a, b, w in found.links],
    )
