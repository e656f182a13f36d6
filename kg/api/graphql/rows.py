"""What a compiled operation's answer is made of (``tree``, ``shape``): a page, the leaves read off
each model (a related paper's and a co-author's link included), and the check of ``author``'s arguments."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, NamedTuple

from kg.api.graphql.pagination import encode_cursor
from kg.errors import InvalidArgument

__all__ = ["Connection", "LEAVES", "author_ref"]


class Connection(NamedTuple):
    """A page as ``PageInfo`` reads it: its items, where it starts, whether more follow."""

    items: list
    offset: int
    has_next: bool


LEAVES: dict[tuple[str, str], Callable[[Any], Any]] = {
    ("Paper", "id"): lambda p: p.id,
    ("Paper", "title"): lambda p: p.title,
    ("Paper", "label"): lambda p: p.label,
    ("Paper", "abstract"): lambda p: p.abstract,
    ("Paper", "venue"): lambda p: p.venue,
    ("Paper", "citations"): lambda p: p.citations,
    ("Paper", "year"): lambda p: p.year,
    ("Paper", "authorsTruncated"): lambda p: p.authors_truncated,
    ("Author", "id"): lambda a: a.key,
    ("Author", "name"): lambda a: a.name,
    ("Concept", "id"): lambda c: c.key,
    ("Concept", "name"): lambda c: c.name,
    ("Concept", "aliases"): lambda c: list(c.aliases),
    ("ResearchArea", "id"): lambda r: r.path,
    ("ResearchArea", "name"): lambda r: r.name,
    ("ResearchArea", "path"): lambda r: r.path,
    ("RelatedPaper", "score"): lambda r: r.score,
    ("RelatedPaper", "year"): lambda r: r.year,
    ("Coauthor", "jointPapers"): lambda r: r.joint_papers,
    ("PaperEdge", "cursor"): lambda e: e.cursor,  # answered by ``shape`` from the item's place in its page
    ("PageInfo", "hasNextPage"): lambda c: c.has_next,
    ("PageInfo", "endCursor"): lambda c: encode_cursor(c.offset + len(c.items) - 1) if c.items else None,
}


def author_ref(name: str | None, id: str | None) -> str:
    """``author(id:)`` or ``author(name:)``: exactly one of them."""
    if (name is None) == (id is None):
        raise InvalidArgument("author takes `id` or `name` (one of them)")
    if id is not None:
        return str(id)
    assert name is not None  # one of the two, checked above
    return name
