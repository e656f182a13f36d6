"""The embedded store's reads over time and counts: papers per year of an author or a concept, how many papers
of a selection mention each concept, and how long the graph's lists are."""

from __future__ import annotations

from collections import Counter
from collections.abc import Collection, Sequence

from kg.store.base import PaperFilter
from kg.store.embedded.graph import GraphView, node_id

__all__ = ["YearReads"]

# (histogram name, edge type, counted at the edge's source or target)
_DEGREES = (
    ("papers_per_author", "AUTHORED", 0),
    ("authors_per_paper", "AUTHORED", 1),
    ("concepts_per_paper", "MENTIONS", 0),
    ("references_per_paper", "CITES", 0),
)


class YearReads(GraphView):
    """Counts the overview reads (``kg.overview``) are made of; the store gives ``_matching_papers``."""

    def _matching_papers(self, paper_filter: PaperFilter) -> list[str]:  # pragma: no cover - Lookups defines it
        raise NotImplementedError

    def paper_years(self, kind: str, keys: Sequence[str]) -> list[list[tuple[int, int]]]:
        edge, outgoing = {"author": ("AUTHORED", True), "concept": ("MENTIONS", False)}[kind]
        nodes = self.graph.nodes
        out = []
        for key in keys:
            node = node_id(kind, key)
            papers = (self._out(node, edge) if outgoing else self._in(node, edge)) if node in self.graph else ()
            years = Counter(nodes[p].get("year") for p, _ in papers)
            years.pop(None, None)
            out.append(sorted(years.items()))
        return out

    def concept_counts(self, paper_filter: PaperFilter, venues: Collection[str] | None = None) -> tuple[int, dict[str, int]]:
        nodes = self.graph.nodes
        papers = self._matching_papers(paper_filter)
        if venues is not None:
            papers = [p for p in papers if nodes[p].get("venue") in venues]
        counts: Counter[str] = Counter()
        for p in papers:
            counts.update(nodes[c]["key"] for c, _ in self._out(p, "MENTIONS"))
        return len(papers), dict(counts)

    def degree_histograms(self) -> dict[str, dict[int, int]]:
        def build() -> dict[str, dict[int, int]]:
            degrees: dict[str, Counter] = {name: Counter() for name, _, _ in _DEGREES}
            for u, v, d in self.graph.edges(data=True):
                for name, etype, end in _DEGREES:
                    if d["type"] == etype:
                        degrees[name][(u, v)[end]] += 1
            return {name: dict(Counter(c.values())) for name, c in degrees.items()}

        return self._cached("degree_histograms", build)
