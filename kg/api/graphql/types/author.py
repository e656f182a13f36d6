"""Author, Coauthor and the co-author network."""

from __future__ import annotations

import strawberry

from kg.api.graphql.context import Info
from kg.api.graphql.pagination import check_first
from kg.api.graphql.types.paper import PaperType
from kg.api.graphql.types.timeline import YearShareType, timeline
from kg.models import Author
from kg.store.base import COAUTHORS_FIRST

__all__ = ["AuthorType", "AuthorshipEvidenceType", "AffiliationType", "CoauthorType", "CoauthorEdgeType", "CoauthorNetworkType"]


@strawberry.type(name="Author")
class AuthorType:
    model: strawberry.Private[Author]

    @strawberry.field(description="The normalised name (case and spacing folded).")
    def id(self) -> strawberry.ID:
        return strawberry.ID(self.model.key)

    @strawberry.field
    def name(self) -> str:
        return self.model.name

    @strawberry.field
    async def paper_count(self, info: Info) -> int:
        return await info.context.loaders.author_paper_count.load(self.model.key)

    @strawberry.field
    async def papers(self, info: Info) -> list[PaperType]:
        return [PaperType(model=p) for p in await info.context.loaders.author_lists.load((self.model.key, "papers"))]

    @strawberry.field(description="Their papers per year, oldest first (`share` is null).")
    async def timeline(self, info: Info) -> list[YearShareType]:
        return timeline(await info.context.loaders.author_timeline.load(self.model.key))

    @strawberry.field(description="Most joint papers first; the first `first` (at most 100) of them.")
    async def coauthors(self, info: Info, first: int | None = COAUTHORS_FIRST) -> list["CoauthorType"]:
        first = check_first(first, COAUTHORS_FIRST)
        found = await info.context.loaders.author_coauthors.load((self.model.key, first))
        return [CoauthorType(author=AuthorType(model=c.author), joint_papers=c.joint_papers) for c in found]

    @strawberry.field(
        description="Why each paper is this person's: the name as written there and what decided it "
        "(co-authors, affiliation, concepts, venue and years shared with their earlier papers)."
    )
    async def evidence(self, info: Info) -> list["AuthorshipEvidenceType"]:
        [rows] = await info.context.call(info.context.service.store.authorships_of_authors, [self.model.key])
        return [AuthorshipEvidenceType(paper_id=strawberry.ID(p), name_as_written=n, why=w) for p, n, w in rows]

    @strawberry.field(description="Institutions named beside this author on their papers, most papers first.")
    async def institutions(self, info: Info) -> list["AffiliationType"]:
        rows = await info.context.loaders.author_institutions.load(self.model.key)
        return [AffiliationType(name=i.name, papers=n) for i, n in rows]

    @strawberry.field(
        description="Authors within `depth` co-author hops, and the co-author edges among them. "
        "With `first`, only the nearest `first` authors (then those with most co-authors inside)."
    )
    async def network(self, info: Info, depth: int | None = 2, first: int | None = None) -> "CoauthorNetworkType":
        net = await info.context.call(info.context.service.network, self.model, 2 if depth is None else depth, first)
        return CoauthorNetworkType(
            nodes=[AuthorType(model=a) for a in net.nodes],
            edges=[CoauthorEdgeType(source=strawberry.ID(s), target=strawberry.ID(t), weight=w) for s, t, w in net.edges],
            total_nodes=net.total_nodes,
            communities=[[strawberry.ID(k) for k in c] for c in net.communities],
        )


@strawberry.type(name="AuthorshipEvidence")
class AuthorshipEvidenceType:
    paper_id: strawberry.ID
    name_as_written: str | None = strawberry.field(
        description="The name on that paper's byline (null: stored before kg knew people)."
    )
    why: str | None = strawberry.field(description="What decided that this name there is this person.")


@strawberry.type(name="Affiliation")
class AffiliationType:
    name: str = strawberry.field(description="The institution, as the source names it.")
    papers: int = strawberry.field(description="This author's papers that name it.")


@strawberry.type(name="Coauthor")
class CoauthorType:
    author: AuthorType
    joint_papers: int


@strawberry.type(name="CoauthorEdge")
class CoauthorEdgeType:
    source: strawberry.ID
    target: strawberry.ID
    weight: int


@strawberry.type(name="CoauthorNetwork")
class CoauthorNetworkType:
    nodes: list[AuthorType]
    edges: list[CoauthorEdgeType]
    total_nodes: int = strawberry.field(description="Authors within the depth, before `first` cut them.")
    communities: list[list[strawberry.ID]] = strawberry.field(
        description="Louvain communities of the authors returned (weighted by joint papers, fixed seed), largest first."
    )
