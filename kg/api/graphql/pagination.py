"""Relay-style connections over offset pages, with validated arguments."""

from __future__ import annotations

import base64
import binascii
from collections.abc import Awaitable, Callable
from typing import Generic, TypeVar

import strawberry

from kg.errors import InvalidArgument

__all__ = ["Connection", "Edge", "PageInfo", "page_window", "check_first", "MAX_FIRST", "DEFAULT_FIRST", "connection", "uncounted_connection"]

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
        return self.total if self.total is not None else await self.count()


DEFAULT_FIRST = 20


def check_first(first: int | None, default: int) -> int:
    """`first` as given (null means the default), or InvalidArgument when outside 0..100."""
    if first is None:
        return default
    name = "first"
    if not 0 <= first <= MAX_FIRST:
        raise InvalidArgument(f"`{name}` must be between 0 and {MAX_FIRST}, got {first}")
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


def uncounted_connection(items: list, offset: int, limit: int, wrap, count: Callable[[], Awaitable[int]]) -> Connection:
    """A page fetched with one item more than ``limit`` (that one only tells whether there is a next page);
    the total is counted only when a client selects ``totalCount``."""
    connection_ = connection(items[:limit], offset + len(items), offset, wrap)
    return Connection(edges=connection_.edges, page_info=connection_.page_info, count=count)
