"""Concept and RelatedConcept."""

from __future__ import annotations

from functools import partial

import strawberry

from kg.api.graphql.context import Info
from kg.api.graphql.pagination import Connection, check_first
from kg.api.graphql.types.paper import PaperType, paper_page
from kg.api.graphql.types.timeline import YearShareType, timeline
from kg.models import Concept

__all__ = ["ConceptType", "RelatedConceptType"]


@strawberry.type(name="Concept")
class ConceptType:
    model: strawberry.Private[Concept]

    @strawberry.field(description="The normalised key of the canonical name.")
    def id(self) -> strawberry.ID:
        return strawberry.ID(self.model.key)

    @strawberry.field
    def name(self) -> str:
        return self.model.name

    @strawberry.field(description="Other names, abbreviations included.")
    def aliases(self) -> list[str]:
        return list(self.model.aliases)

    @strawberry.field(description="The broader concept the vocabulary names, if any.")
    async def broader(self, info: Info) -> "ConceptType | None":
        if self.model.broader is None:
            return None
        found = await info.context.loaders.concept.load(self.model.broader)
        return ConceptType(model=found) if found else None

    @strawberry.field
    async def paper_count(self, info: Info) -> int:
        return await info.context.loaders.concept_paper_count.load(self.model.key)

    @strawberry.field(description="Its papers per year, oldest first, each with its share of that year's papers.")
    async def timeline(self, info: Info) -> list[YearShareType]:
        return timeline(await info.context.loaders.concept_timeline.load(self.model.key))

    @strawberry.field(description="Papers that mention it, the ones most about it first.")
    async def papers(self, info: Info, first: int | None = 20, after: str | None = None) -> Connection[PaperType]:
        service, key = info.context.service, self.model.key
        fetch, count = (
            partial(service.papers_with_concept_key, key, count=False),
            partial(service.count_papers_with_concept_key, key),
        )
        return await paper_page(info, fetch, count, first, after)

    @strawberry.field(description="Concepts that share papers with this one, most shared first.")
    async def related(self, info: Info, first: int | None = 10) -> list["RelatedConceptType"]:
        first = check_first(first, 10)
        rows = (await info.context.loaders.concept_related.load(self.model.key))[:first]
        found = await info.context.loaders.concept.load_many([r.concept_key for r in rows])
        return [
            RelatedConceptType(concept=ConceptType(model=c), shared_papers=r.shared_papers)
            for r, c in zip(rows, found, strict=True)
            if c
        ]


@strawberry.type(name="RelatedConcept")
class RelatedConceptType:
    concept: ConceptType
    shared_papers: int
