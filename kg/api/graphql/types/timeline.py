"""Papers per year, as authors and concepts give them (``kg.overview.Overview.timelines``)."""

from __future__ import annotations

import strawberry

from kg.overview import YearCount

__all__ = ["YearShareType", "timeline"]


@strawberry.type(name="YearShare", description="Papers in one year; for a concept, also their share of that year's papers.")
class YearShareType:
    year: int
    papers: int
    share: float | None = strawberry.field(description="Of all the year's papers in the store (concepts only).")


def timeline(years: list[YearCount]) -> list[YearShareType]:
    return [YearShareType(year=y.year, papers=y.papers, share=y.share) for y in years]
