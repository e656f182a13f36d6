"""Papers linked through what they cite: bibliographic coupling and co-citation, each link with its reasons.

Two papers are *coupled* when both cite the same work, and *co-cited* when a third paper cites
both. A link's strength is how many works both cite plus how many papers cite both (Kessler 1963;
Small 1973). The reads come from a store (``references_of_papers``, ``citing_papers``,
``citing_keys``); this module only counts them.

>>> from kg.models import Reference
>>> refs = [Reference("arxiv:1706.03762", "p1"), Reference("title:a work kg lacks")]
>>> links = citation_links("me", refs, [["me", "p2"], ["me", "p2", "p3"]], ["p4"], [[Reference("x", "me"), Reference("y", "p3")]])
>>> [(link.paper, [r.key for r in link.both_cite], list(link.cited_together_by)) for link in links]
[('p2', ['arxiv:1706.03762', 'title:a work kg lacks'], []), ('p3', ['title:a work kg lacks'], ['p4'])]
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Sequence
from dataclasses import dataclass

from kg.models import Reference

__all__ = ["CitationLink", "PairCitations", "citation_links", "pair_citations"]


@dataclass(frozen=True, slots=True)
class CitationLink:
    """Another paper linked to this one: the works both cite, and the papers that cite both."""

    paper: str
    both_cite: tuple[Reference, ...]
    cited_together_by: tuple[str, ...]

    @property
    def strength(self) -> int:
        return len(self.both_cite) + len(self.cited_together_by)


def citation_links(
    paper: str,
    references: Sequence[Reference],
    citing_each: Sequence[Sequence[str]],
    citers: Sequence[str],
    references_of_citers: Sequence[Sequence[Reference]],
) -> list[CitationLink]:
    """``paper``'s links, strongest first (then by id): ``citing_each`` holds the papers citing each of its
    ``references``; ``references_of_citers`` what each paper citing it (``citers``) cites."""
    both: dict[str, list[Reference]] = defaultdict(list)
    for ref, citing in zip(references, citing_each):
        for other in citing:  # each paper once: the reads give them distinct
            if other not in (paper, ref.paper_id):
                both[other].append(ref)
    together: dict[str, set[str]] = defaultdict(set)
    for citer, refs in zip(citers, references_of_citers):
        for ref in refs:
            if ref.paper_id and ref.paper_id not in (paper, citer):
                together[ref.paper_id].add(citer)
    links = [CitationLink(p, tuple(both.get(p, ())), tuple(sorted(together.get(p, ())))) for p in both.keys() | together.keys()]
    return sorted(links, key=lambda link: (-link.strength, link.paper))


@dataclass(frozen=True, slots=True)
class PairCitations:
    """What citations say about two papers: whether either cites the other, the works both cite (each
    once), and the papers that cite both."""

    cites: bool  # the first paper cites the second
    cited_by: bool  # the second cites the first
    both_cite: tuple[Reference, ...]
    cited_together_by: tuple[str, ...]


def pair_citations(
    a: str, b: str, refs_a: Sequence[Reference], refs_b: Sequence[Reference], citers_a: Sequence[str], citers_b: Sequence[str]
) -> PairCitations:
    """Citations between papers ``a`` and ``b`` and around them: their references and the papers citing each.

    A work kg has is one work whichever key each paper cites it by; a work kg lacks is matched by its key.

    >>> from kg.models import Reference
    >>> pair = pair_citations("a", "b", [Reference("doi:x", "p1"), Reference("arxiv:2", "b")],
    ...                       [Reference("arxiv:1", "p1"), Reference("title:z")], ["c", "d"], ["d", "a"])
    >>> pair.cites, pair.cited_by, [r.key for r in pair.both_cite], pair.cited_together_by
    (True, False, ['doi:x'], ('d',))
    """
    theirs = {r.paper_id or r.key for r in refs_b}
    both: dict[str, Reference] = {}
    for ref in refs_a:
        work = ref.paper_id or ref.key
        if work in theirs and ref.paper_id not in (a, b):
            both.setdefault(work, ref)
    together = tuple(sorted(set(citers_a) & set(citers_b) - {a, b}))
    return PairCitations(
        any(r.paper_id == b for r in refs_a), any(r.paper_id == a for r in refs_b), tuple(both.values()), together
    )
