"""DataLoaders, created once per request so their cache lives one request.

Each loader calls one batched store method once per tick, whatever the number
of parents asking.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from functools import partial

from starlette.concurrency import run_in_threadpool
from strawberry.dataloader import DataLoader

from kg.service import KGService

__all__ = ["Loaders", "RELATED_LIMIT"]

RELATED_LIMIT = 100  # the most a `related(first:)` may ask for


async def _batch(fn: Callable[[Sequence], list], keys: list) -> list:
    return await run_in_threadpool(fn, list(keys))


def _loader(fn: Callable[[Sequence], list]) -> DataLoader:
    return DataLoader(load_fn=partial(_batch, fn))


@dataclass
class Loaders:
    paper: DataLoader
    author: DataLoader
    concept: DataLoader
    area: DataLoader
    paper_authors: DataLoader
    paper_areas: DataLoader
    paper_concepts: DataLoader
    paper_related: DataLoader
    author_papers: DataLoader
    author_paper_count: DataLoader
    author_coauthors: DataLoader
    concept_paper_count: DataLoader
    concept_related: DataLoader
    area_children: DataLoader
    area_paper_count: DataLoader

    @classmethod
    def create(cls, service: KGService) -> "Loaders":
        s = service.store
        return cls(
            paper=_loader(s.papers_by_ids),
            author=_loader(s.authors_by_keys),
            concept=_loader(s.concepts_by_keys),
            area=_loader(s.areas_by_paths),
            paper_authors=_loader(s.authors_of_papers),
            paper_areas=_loader(s.areas_of_papers),
            paper_concepts=_loader(s.concepts_of_papers),
            paper_related=_loader(partial(_with_limit, s.related_papers)),
            author_papers=_loader(s.papers_of_authors),
            author_paper_count=_loader(s.paper_counts_of_authors),
            author_coauthors=_loader(s.coauthors_of),
            concept_paper_count=_loader(s.paper_counts_of_concepts),
            concept_related=_loader(partial(_with_limit, s.related_concepts)),
            area_children=_loader(s.children_of_areas),
            area_paper_count=_loader(s.paper_counts_of_areas),
        )


def _with_limit(fn: Callable[[Sequence, int], list], keys: Sequence) -> list:
    return fn(keys, RELATED_LIMIT)
