"""Plain shapes the store interface speaks in: a resolved paper filter, a network, and helpers both stores share."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass

from kg.models import Author, Paper, Reference, Suggestion

__all__ = [
    "PaperFilter",
    "Network",
    "rank_suggestions",
    "references_from",
    "paper_from",
    "read_by_key",
    "PAPER_ORDERS",
    "RELATED_CONCEPTS_SAMPLE",
    "RELATED_LIMIT",
    "EVERY_MENTION",
    "COAUTHORS_FIRST",
    "SUGGEST_CANDIDATES",
]


@dataclass(frozen=True, slots=True)
class PaperFilter:
    """Resolved filter: keys, not user spellings. All set fields must hold (AND)."""

    area: str | None = None  # a top-level or a full area path, case-insensitive
    concept: str | None = None  # concept key
    author: str | None = None  # author key
    text: str | None = None  # every word in title or abstract, case-insensitive
    year_from: int | None = None  # inclusive
    year_to: int | None = None  # inclusive
    venue: str | None = None  # exact, as the facets list it
    order: str = "id"  # "id"; "citations" or "year": most first (unknown last), then by id

    def selects_all(self) -> bool:
        """No condition set: every paper (in whatever order)."""
        return all(v is None for v in (self.area, self.concept, self.author, self.text, self.year_from, self.year_to, self.venue))


PAPER_ORDERS = ("id", "citations", "year")
RELATED_CONCEPTS_SAMPLE = 200  # a concept's related concepts co-occur on its papers most about it, at most this many
RELATED_LIMIT = 100  # the most related papers or concepts the API asks a store for (its loaders' limit)
EVERY_MENTION = 10_000  # more concepts than any paper mentions: ``concepts_of_papers(ids, EVERY_MENTION)`` is all of them
COAUTHORS_FIRST = 100  # an author's co-authors (most joint papers first) one list holds by default, and at most
SUGGEST_CANDIDATES = 2000  # Neo4j ranks at most this many full-text matches (the embedded store ranks all)
_KIND_ORDER = {"concept": 0, "author": 1, "paper": 2}


def rank_suggestions(found: Sequence[Suggestion], limit: int) -> list[Suggestion]:
    """Up to ``limit`` of each kind, concepts then authors then papers; exact names first, then most papers (citations)."""
    ordered = sorted(found, key=lambda s: (_KIND_ORDER[s.kind], not s.exact, -s.papers, s.label.casefold(), s.key))
    taken: dict[str, int] = {}
    out = []
    for s in ordered:
        if taken.get(s.kind, 0) < limit:
            taken[s.kind] = taken.get(s.kind, 0) + 1
            out.append(s)
    return out


def references_from(rows: Iterable[tuple[int, str, str | None]]) -> list[Reference]:
    """A paper's references from (reference number, key, the paper kg has for it or None) rows: one per reference (the
    paper any of its keys names, else its smallest key), each paper once, papers kg has first."""
    best: dict[int, tuple] = {}
    for n, key, paper in rows:
        rank = (paper is None, paper or key, key)
        if n not in best or rank < best[n][0]:
            best[n] = (rank, Reference(key, paper))
    found: dict[str, Reference] = {}
    for _, ref in sorted(best.values(), key=lambda x: x[0]):
        found.setdefault(ref.paper_id or ref.key, ref)
    return list(found.values())


@dataclass(frozen=True, slots=True)
class Network:
    nodes: list[Author]
    edges: list[tuple[str, str, int]]  # source key, target key, joint papers
    within: int | None = None  # authors within the depth before a limit cut them (None: no cut)


def paper_from(d) -> Paper:
    """A paper from the properties both stores keep on its node (a graph node's attributes, a Neo4j map)."""
    return Paper(
        d["id"],
        d.get("title"),
        d["label"],
        d["abstract"],
        d.get("venue"),
        d.get("year"),
        bool(d.get("authors_truncated")),
        d.get("concept_norm") or 0.0,
        d.get("citations"),
    )


def read_by_key(read: Callable[[Sequence[str]], list], keys: Iterable[str]) -> dict:
    """One batched read of the distinct keys: key -> what it found (None for nothing)."""
    unique = list(dict.fromkeys(keys))
    return dict(zip(unique, read(unique))) if unique else {}
