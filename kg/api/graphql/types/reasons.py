"""Why two papers are related, in words (``RelatedPaper.reasons``): what the API reads about the pair, said plainly."""

from __future__ import annotations

import asyncio

from kg.graph.coupling import pair_citations

__all__ = ["related_reasons", "listed"]

SHOWN = 5  # names given in one reason before "+N more"


def listed(names: list[str], shown: int = SHOWN) -> str:
    """Names joined with commas, the rest counted.

    >>> listed(["a", "b"])
    'a, b'
    >>> listed(["a", "b", "c"], shown=2)
    'a, b (+1 more)'
    """
    more = f" (+{len(names) - shown} more)" if len(names) > shown else ""
    return ", ".join(names[:shown]) + more


async def related_reasons(loaders, source: str, other: str, shared: list) -> list[str]:
    """The reasons ``other`` is related to ``source``: ``shared`` are the concepts the edge keeps, and the rest
    is read through the request's loaders (one batched read per kind for every related paper asked at once)."""
    authors_a, authors_b, refs_a, refs_b, citers_a, citers_b = await asyncio.gather(
        loaders.paper_lists.load((source, "authors")),
        loaders.paper_lists.load((other, "authors")),
        loaders.paper_references.load(source),
        loaders.paper_references.load(other),
        loaders.paper_cited_by.load(source),
        loaders.paper_cited_by.load(other),
    )
    reasons = [f"both about {listed([c.name for c in shared])}"] if shared else []
    theirs = {a.key for a in authors_b}
    if common := [a.name for a in authors_a if a.key in theirs]:
        reasons.append(f"both by {listed(common)}")
    pair = pair_citations(source, other, refs_a, refs_b, citers_a, citers_b)
    reasons += ["this paper cites it"] * pair.cites + ["it cites this paper"] * pair.cited_by
    ids = sorted({r.paper_id for r in pair.both_cite if r.paper_id} | set(pair.cited_together_by))
    titles = {p.id: p.label for p in await loaders.paper.load_many(ids) if p is not None}
    if pair.both_cite:
        reasons.append(f"both cite {listed([titles.get(r.paper_id, r.key) if r.paper_id else r.key for r in pair.both_cite])}")
    if pair.cited_together_by:
        reasons.append(f"cited together by {listed([titles.get(i, i) for i in pair.cited_together_by])}")
    return reasons
