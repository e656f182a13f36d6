"""Relay-style connections over offset pages, with validated arguments."""

from __future__ import annotations

import base64
import binascii
from collections.abc import Awaitable, Callable
from typing import Generic, TypeVar

import strawberry

from kg.errors import InvalidArgument

__all__ = [
    "Connection",
    "Edge",
    "PageInfo",
    "page_window",
    "check_first",
    "MAX_FIRST",
    "DEFAULT_FIRST",
    "connection",
    "lazily_counted",
]

T = TypeVar("T")
MAX_FIRST = 100
_PREFIX = "offset:"


@strawberry.type
class PageInfo:
    has_next_page: bool
    end_cursor: str | None


@strawberry.type
class Edge(Generic[T]):
    cursor: str
    node: T


@strawberry.type
class Connection(Generic[T]):
    edges: list[Edge[T]]
    page_info: PageInfo
    total: strawberry.Private[int | None] = None
    count: strawberry.Private[Callable[[], Awaitable[int]] | None] = None  # asked only if totalCount is selected

    @strawberry.field
    async def total_count(self) -> int:
        if self.total is not None:
            return self.total
        assert self.count is not None, "a connection has its total or a way to count it"
        return await self.count()


DEFAULT_FIRST = 20


def check_first(first: int | None, default: int, *, most: int = MAX_FIRST) -> int:
    """`first` as given (null means the default), or InvalidArgument when outside 0..most (100 unless said)."""
    if first is None:
        return default
    if not 0 <= first <= most:
        raise InvalidArgument(f"`first` must be between 0 and {most}, got {first}")
    return first


def encode_cursor(offset: int) -> str:
    return base64.urlsafe_b64encode(f"{_PREFIX}{offset}".encode()).decode()


def decode_cursor(cursor: str) -> int:
    try:
        text = base64.urlsafe_b64decode(cursor.encode()).decode()
        if not text.startswith(_PREFIX):
            raise ValueError
        offset = int(text[len(_PREFIX) :])
        if offset < 0:
            raise ValueError
    except (ValueError, binascii.Error, UnicodeError):
        shown = cursor if len(cursor) <= 40 else f"{cursor[:40]}… ({len(cursor)} characters)"
        raise InvalidArgument(f"malformed cursor {shown!r}: pass an endCursor or edge cursor from an earlier page") from None
    return offset


def page_window(first: int | None, after: str | None, default: int = DEFAULT_FIRST) -> tuple[int, int]:
    """(offset, limit) for `first` items after the cursor."""
    limit = check_first(first, default)
    return (decode_cursor(after) + 1 if after else 0), limit


def connection(items: list, total: int, offset: int, wrap) -> Connection:
    edges = [Edge(cursor=encode_cursor(offset + i), node=wrap(item)) for i, item in enumerate(items)]
    end = edges[-1].cursor if edges else None
    return Connection(edges=edges, page_info=PageInfo(has_next_page=offset + len(items) < total, end_cursor=end), total=total)


async def lazily_counted(call, fetch, count, first: int | None, after: str | None, wrap) -> Connection:
    """A connection whose total is counted only when a client selects ``totalCount``.

    ``fetch(offset, limit)`` gives a Page (its ``total`` is not read: stores skip counting for it); it is asked
    for one item more than the page, which only tells whether there is a next page. ``count()`` gives the
    total. Both run through ``call``.
    """
    offset, limit = page_window(first, after)
    page = await call(fetch, offset, limit + 1)
    edges = [Edge(cursor=encode_cursor(offset + i), node=wrap(item)) for i, item in enumerate(page.items[:limit])]
    info = PageInfo(has_next_page=len(page.items) > limit, end_cursor=edges[-1].cursor if edges else None)
    return Connection(edges=edges, page_info=info, count=lambda: call(count))
