"""Why two papers are related, in words: one answer for the API (``RelatedPaper.reasons``) and the CLI
(``kg related``).

For each pair, in this order: the concepts both are about (the ones their shares-concept edge keeps),
the people who wrote both, whether one cites the other, the works both cite (bibliographic coupling)
and the papers that cite both (co-citation). Every pair asked at once costs four batched reads.
"""

from __future__ import annotations

from collections.abc import Sequence

from kg.graph.coupling import PairCitations, pair_citations
from kg.store.base import BatchedReads

__all__ = ["Pair", "listed", "related_reasons", "related_evidence", "citation_mark"]

SHOWN = 5  # names given in one reason before "+N more"
Pair = tuple[str, str, tuple[str, ...]]  # a paper, a paper related to it, the names of the concepts they share


def listed(names: Sequence[str], shown: int = SHOWN) -> str:
    """Names joined with commas, the rest counted.

    >>> listed(["a", "b"])
    'a, b'
    >>> listed(["a", "b", "c"], shown=2)
    'a, b (+1 more)'
    """
    more = f" (+{len(names) - shown} more)" if len(names) > shown else ""
    return ", ".join(names[:shown]) + more


def related_reasons(reads: BatchedReads, pairs: Sequence[Pair]) -> list[list[str]]:
    """The reasons of each pair, seen from its first paper ("this paper") toward the second ("it")."""
    return [reasons for reasons, _ in related_evidence(reads, pairs)]


def citation_mark(c: PairCitations) -> str:
    """What ties two papers through citations, in a few words: 'cites', 'cited by', 'both cite 3', 'cited together 2
    times' (joined by '; '), or '' when nothing does.

    >>> citation_mark(PairCitations(1, 0, (), ("p9", "p8")))
    'cites; cited together 2 times'
    """
    marks = ["cites"] * bool(c.cites) + ["cited by"] * bool(c.cited_by)
    if c.both_cite:
        marks.append(f"both cite {len(c.both_cite)}")
    if c.cited_together_by:
        n = len(c.cited_together_by)
        marks.append(f"cited together {n} time{'s' if n != 1 else ''}")
    return "; ".join(marks)


def related_evidence(reads: BatchedReads, pairs: Sequence[Pair]) -> list[tuple[list[str], PairCitations]]:
    """The reasons of each pair (``related_reasons``) and what ties the two through citations."""
    if not pairs:
        return []
    ids = sorted({p for a, b, _ in pairs for p in (a, b)})
    authors = dict(zip(ids, reads.authors_of_papers(ids)))
    refs = dict(zip(ids, reads.references_of_papers(ids)))
    citers = dict(zip(ids, reads.citing_papers(ids)))
    found = [pair_citations(a, b, refs[a], refs[b], citers[a], citers[b]) for a, b, _ in pairs]
    named = sorted(
        {r.paper_id for c in found for r in c.both_cite if r.paper_id} | {i for c in found for i in c.cited_together_by}
    )
    titles = {p.id: p.label for p in reads.papers_by_ids(named) if p is not None} if named else {}
    return [(_words(shared, authors[a], authors[b], c, titles), c) for (a, b, shared), c in zip(pairs, found)]


def _words(shared: Sequence[str], authors_a, authors_b, c: PairCitations, titles: dict[str, str]) -> list[str]:
    reasons = [f"both about {listed(shared)}"] if shared else []
    theirs = {a.key for a in authors_b}
    if common := [a.name for a in authors_a if a.key in theirs]:
        reasons.append(f"both by {listed(common)}")
    reasons += ["this paper cites it"] * c.cites + ["it cites this paper"] * c.cited_by
    if c.both_cite:
        reasons.append(f"both cite {listed([titles.get(r.paper_id or '', r.key) for r in c.both_cite])}")
    if c.cited_together_by:
        reasons.append(f"cited together by {listed([titles.get(i, i) for i in c.cited_together_by])}")
    return reasons
