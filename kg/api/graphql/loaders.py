"""DataLoaders, created once per request so their cache lives one request.

Each loader calls one batched store method once per tick, whatever the number
of parents asking.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Callable, Sequence
from contextlib import asynccontextmanager
from contextvars import ContextVar
from dataclasses import dataclass
from functools import partial
from weakref import WeakKeyDictionary

import anyio
from strawberry.dataloader import DataLoader

from kg import deadline
from kg.api.fairness import check_budget, client_gate, count_work
from kg.explain import related_reasons
from kg.service import KGService
from kg.store.base import RELATED_LIMIT  # the most a `related(first:)` may ask for

__all__ = ["Loaders", "RELATED_LIMIT", "call_store", "start_request_reads", "READ_THREADS", "READS_PER_REQUEST"]

READ_THREADS = 8  # store reads in flight at once in one process, across all requests
READS_PER_REQUEST = 1  # of which one request may hold: a request asking for forty networks cannot take them all
_request_reads: ContextVar[asyncio.Semaphore | None] = ContextVar("kg_request_reads", default=None)


def start_request_reads() -> None:
    """Give the calling request (its context) its own share of the read threads."""
    _request_reads.set(asyncio.Semaphore(READS_PER_REQUEST))


async def call_store(service: KGService, fn, *args):
    """Run a store-bound call in a worker thread, never on the event loop: however long it runs, the loop
    keeps answering (``/healthz``, other requests). The worker carries the request's deadline (its context
    is copied) and starts nothing once it has passed; the read holds the store's ``reading()`` section.
    Reads share their own ``READ_THREADS`` threads, so health checks never queue behind them."""
    deadline.check()
    gate, share = _request_reads.get(), client_gate()
    async with _held(share), _held(gate):  # the client's share of the read threads, and the request's
        return await _in_thread(service, fn, *args)


@asynccontextmanager
async def _held(gate: asyncio.Semaphore | None):
    if gate is None:
        yield
        return
    async with gate:
        yield


async def _in_thread(service: KGService, fn, *args):
    # Abandoned when the request is cancelled at its deadline: the worker stops at its next check, alone.
    return await anyio.to_thread.run_sync(partial(_read, service, fn, *args), limiter=_read_limiter(), abandon_on_cancel=True)


def _read(service: KGService, fn, *args):
    """One read in a worker thread: its CPU time charged to the request's client as it goes (at each deadline check
    of a long read, and at its end), and stopped when that client's budget is spent (``fairness.check_budget``)."""
    deadline.check()
    check_budget()  # a request queued behind its client's other reads starts nothing once the budget is spent
    counted = [time.thread_time()]

    def charge() -> None:
        now = time.thread_time()
        count_work(now - counted[0])
        counted[0] = now
        check_budget()

    token = deadline.metered(charge)
    try:
        with service.store.reading():
            return fn(*args)
    finally:
        deadline.stop(token)
        count_work(time.thread_time() - counted[0])  # the request's work, for its client's budget


_limiters: WeakKeyDictionary = WeakKeyDictionary()


def _read_limiter() -> anyio.CapacityLimiter:
    """The read threads' limiter of the running event loop (a limiter belongs to one loop)."""
    loop = asyncio.get_running_loop()
    limiter = _limiters.get(loop)
    if limiter is None:
        limiter = _limiters[loop] = anyio.CapacityLimiter(READ_THREADS)
    return limiter


async def _batch(service: KGService, fn: Callable[[Sequence], list], keys: list) -> list:
    return await call_store(service, fn, list(keys))


def _loader(service: KGService, fn: Callable[[Sequence], list]) -> DataLoader:
    return DataLoader(load_fn=partial(_batch, service, fn))


@dataclass
class Loaders:
    paper: DataLoader
    author: DataLoader
    concept: DataLoader
    area: DataLoader
    paper_lists: DataLoader  # (paper id, "authors" | "areas" | "concepts"): siblings load in one store call
    author_lists: DataLoader  # (author key, "papers" | "coauthors"): the same for an author
    author_coauthors: DataLoader  # (author key, first) -> their co-authors, with the people read
    paper_related: DataLoader  # (paper id, first) -> its related papers, with their papers and shared concepts read
    paper_mentions: DataLoader  # paper id -> every concept it mentions, key ones first (up to RELATED_LIMIT)
    paper_authorships: DataLoader
    paper_references: DataLoader
    paper_sources: DataLoader  # paper id -> the records it was read from (kg.works)
    paper_cited_by: DataLoader
    key_cited_by: DataLoader  # a reference key -> the papers citing it
    author_paper_count: DataLoader
    author_institutions: DataLoader
    concept_paper_count: DataLoader
    concept_related: DataLoader
    area_children: DataLoader
    area_paper_count: DataLoader
    author_timeline: DataLoader
    concept_timeline: DataLoader
    related_reasons: DataLoader  # (paper id, related paper id, shared concept names) -> why, in words

    @classmethod
    def create(cls, service: KGService) -> "Loaders":
        s = service.batched_reads
        load = partial(_loader, service)
        return cls(
            paper=load(s.papers_by_ids),
            author=load(s.authors_by_keys),
            concept=load(s.concepts_by_keys),
            area=load(s.areas_by_paths),
            paper_lists=load(partial(_lists, s, "paper")),
            author_lists=load(partial(_lists, s, "author")),
            paper_related=load(partial(_by_first, s.related_answers)),
            author_coauthors=load(partial(_by_first, s.coauthor_answers)),
            paper_mentions=load(partial(_with_limit, s.concepts_of_papers)),
            paper_authorships=load(s.authorships_of_papers),
            paper_references=load(s.references_of_papers),
            paper_sources=load(s.sources_of_papers),
            paper_cited_by=load(s.citing_papers),
            key_cited_by=load(s.citing_keys),
            author_paper_count=load(s.paper_counts_of_authors),
            author_institutions=load(s.institutions_of_authors),
            concept_paper_count=load(s.paper_counts_of_concepts),
            concept_related=load(partial(_with_limit, s.related_concepts)),
            area_children=load(s.children_of_areas),
            area_paper_count=load(s.paper_counts_of_areas),
            author_timeline=load(partial(service.overview.timelines, "author")),
            concept_timeline=load(partial(service.overview.timelines, "concept")),
            related_reasons=load(partial(related_reasons, s)),
        )


def _lists(reads, kind: str, keys: Sequence[tuple[str, str]]) -> list[list]:
    """(node key, list name) keys -> one ``lists_of`` call for all the names asked together."""
    nodes = list(dict.fromkeys(key for key, _ in keys))
    found = reads.lists_of(kind, nodes, sorted({name for _, name in keys}))
    row = {key: i for i, key in enumerate(nodes)}
    return [found[name][row[key]] for key, name in keys]


def _by_first(fn: Callable[[Sequence, int], list], keys: Sequence[tuple[str, int]]) -> list:
    """(key, first) keys -> one call of ``fn(keys, first)`` for each ``first`` asked."""
    found: dict[tuple[str, int], list] = {}
    for first in sorted({f for _, f in keys}):
        wanted = list(dict.fromkeys(k for k, f in keys if f == first))
        found.update(((k, first), v) for k, v in zip(wanted, fn(wanted, first)))
    return [found[key] for key in keys]


def _with_limit(fn: Callable[[Sequence, int], list], keys: Sequence) -> list:
    return fn(keys, RELATED_LIMIT)
