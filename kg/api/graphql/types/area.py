"""ResearchArea: a hierarchy keyed by full path ('Theory · Everything Else')."""

from __future__ import annotations

from functools import partial

import strawberry

from kg.api.graphql.context import Info
from kg.api.graphql.pagination import Connection
from kg.api.graphql.types.paper import PaperType, paper_page
from kg.models import ResearchArea
from kg.service import PaperQuery

__all__ = ["ResearchAreaType"]


@strawberry.type(name="ResearchArea")
class ResearchAreaType:
    model: strawberry.Private[ResearchArea]

    @strawberry.field(description="The full path.")
    def id(self) -> strawberry.ID:
        return strawberry.ID(self.model.path)

    @strawberry.field
    def name(self) -> str:
        return self.model.name

    @strawberry.field
    def path(self) -> str:
        return self.model.path

    @strawberry.field
    async def parent(self, info: Info) -> "ResearchAreaType | None":
        if self.model.parent is None:
            return None
        found = await info.context.loaders.area.load(self.model.parent)
        return ResearchAreaType(model=found) if found else None

    @strawberry.field
    async def children(self, info: Info) -> list["ResearchAreaType"]:
        return [ResearchAreaType(model=a) for a in await info.context.loaders.area_children.load(self.model.path)]

    @strawberry.field(description="Distinct papers in this area or any area under it.")
    async def paper_count(self, info: Info) -> int:
        return await info.context.loaders.area_paper_count.load(self.model.path)

    @strawberry.field
    async def papers(self, info: Info, first: int | None = 20, after: str | None = None) -> Connection[PaperType]:
        query, service = PaperQuery(area=self.model.path), info.context.service
        return await paper_page(
            info, partial(service.papers, query, count=False), partial(service.count_papers, query), first, after
        )
