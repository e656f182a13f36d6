"""The embedded store's batched reads: one call answers many parents (what the API's DataLoaders call)."""

from __future__ import annotations

import heapq
from collections import Counter

from kg.models import Authorship, Coauthor, Institution, PaperSource, RelatedConcept, RelatedPaper
from kg.store.base import RELATED_CONCEPTS_SAMPLE, RELATED_LIMIT, references_from
from kg.store.embedded.graph import GraphView, node_id

__all__ = ["EmbeddedBatchedReads"]


class EmbeddedBatchedReads(GraphView):
    """Each method answers a list of parents with a list of answers, in order (None or [] for unknown ones)."""

    def papers_by_ids(self, ids):
        return self._get("paper", ids, self._paper)

    def authors_by_keys(self, keys):
        return self._get("author", keys, self._author)

    def concepts_by_keys(self, keys):
        return self._get("concept", keys, self._concept)

    def areas_by_paths(self, paths):
        return self._get("area", paths, self._area)

    def _byline(self, pid: str) -> list:
        """A paper's (author node, AUTHORED data) in byline order ([] for an unknown paper)."""
        node = node_id("paper", pid)
        return sorted(self._in(node, "AUTHORED"), key=lambda md: md[1]["position"]) if node in self.graph else []

    def authors_of_papers(self, ids):
        return [[self._author(m) for m, _ in self._byline(pid)] for pid in ids]

    def authorships_of_papers(self, ids):
        return [
            [
                Authorship(pid, d["position"], d.get("name"), self._author(m), d.get("place"), d.get("source_id"))
                for m, d in self._byline(pid)
            ]
            for pid in ids
        ]

    def sources_of_papers(self, ids):
        nodes = self.graph.nodes
        found = (nodes.get(node_id("paper", pid)) for pid in ids)
        return [[PaperSource.decode(s) for s in d.get("sources", ())] if d else [] for d in found]

    def references_of_papers(self, ids):
        out = []
        nodes = self.graph.nodes
        for pid in ids:
            node = node_id("paper", pid)
            rows = []
            for ref, d in self._out(node, "CITES") if node in self.graph else ():
                papers = [nodes[p]["id"] for p, _ in self._in(ref, "KNOWN_AS") if p != node]
                rows.append((d["n"], nodes[ref]["key"], min(papers) if papers else None))
            out.append(references_from(rows))
        return out

    def citing_papers(self, ids):
        out = []
        nodes = self.graph.nodes
        for pid in ids:
            node = node_id("paper", pid)
            refs = [r for r, _ in self._out(node, "KNOWN_AS")] if node in self.graph else []
            out.append(sorted({nodes[p]["id"] for r in refs for p, _ in self._in(r, "CITES") if p != node}))
        return out

    def citing_keys(self, keys):
        nodes = self.graph.nodes
        refs = (node_id("ref", key) for key in keys)
        return [sorted({nodes[p]["id"] for p, _ in self._in(r, "CITES")}) if r in self.graph else [] for r in refs]

    def authorships_of_authors(self, keys):
        out = []
        nodes = self.graph.nodes
        for key in keys:
            node = node_id("author", key)
            rows = self._out(node, "AUTHORED") if node in self.graph else ()
            out.append(sorted((nodes[p]["id"], d.get("name"), d.get("why")) for p, d in rows))
        return out

    def _areas_linked(self, kind: str, keys, edges) -> list[list]:
        """For each node, the areas ``edges(node)`` leads to, by path ([] for an unknown node)."""
        nodes = [node_id(kind, k) for k in keys]
        return [sorted((self._area(m) for m, _ in edges(n)), key=lambda a: a.path) if n in self.graph else [] for n in nodes]

    def areas_of_papers(self, ids):
        return self._areas_linked("paper", ids, lambda n: self._out(n, "IN_AREA"))

    def concepts_of_papers(self, ids, first=None):
        out = []
        for pid in ids:
            node = node_id("paper", pid)
            rows = list(self._out(node, "MENTIONS")) if node in self.graph else []
            if first is None:
                rows = [(m, d) for m, d in rows if not d.get("minor")]
            rows.sort(key=lambda md: (bool(md[1].get("minor")), -md[1]["weight"], self.graph.nodes[md[0]]["key"]))
            out.append([self._concept(m) for m, _ in rows[:first]])
        return out

    def related_papers(self, ids, limit):
        out = []
        for pid in ids:
            node = node_id("paper", pid)
            rows = []
            if node in self.graph:
                for m, d in self._both(node, "SHARES_CONCEPT"):
                    rows.append(RelatedPaper(self.graph.nodes[m]["id"], tuple(d["concepts"]), d["score"]))
            rows.sort(key=lambda r: (-r.score, r.paper_id))
            out.append(rows[:limit])
        return out

    def papers_of_authors(self, keys):
        out = []
        for key in keys:
            node = node_id("author", key)
            papers = [self._paper(m) for m, _ in self._out(node, "AUTHORED")] if node in self.graph else []
            out.append(sorted(papers, key=lambda p: p.id))
        return out

    def paper_counts_of_authors(self, keys):
        return [
            sum(1 for _ in self._out(node_id("author", k), "AUTHORED")) if node_id("author", k) in self.graph else 0 for k in keys
        ]

    def coauthors_of(self, keys):
        out = []
        for key in keys:
            node = node_id("author", key)
            rows = (
                [Coauthor(self.graph.nodes[m]["key"], w) for m, w in self._coauthor_adjacency(node)] if node in self.graph else []
            )
            out.append(sorted(rows, key=lambda c: (-c.joint_papers, c.author_key)))
        return out

    def paper_counts_of_concepts(self, keys):
        return [
            sum(1 for _ in self._in(node_id("concept", k), "MENTIONS")) if node_id("concept", k) in self.graph else 0
            for k in keys
        ]

    def related_concepts(self, keys, limit):
        # Each concept's ranking is an index over the graph, built the first time it is asked for.
        known: dict[str, list[RelatedConcept]] = self._cached("related_concepts", dict)
        out = []
        for key in keys:
            if key not in known:
                known[key] = self._rank_related_concepts(key)
            out.append(known[key][:limit])
        return out

    def _rank_related_concepts(self, key: str) -> list[RelatedConcept]:
        node = node_id("concept", key)
        counts: Counter[str] = Counter()
        if node in self.graph:
            nodes = self.graph.nodes
            mentions = heapq.nsmallest(
                RELATED_CONCEPTS_SAMPLE, self._in(node, "MENTIONS"), key=lambda pd: (-pd[1]["weight"], nodes[pd[0]]["id"])
            )
            for paper, _ in mentions:
                for other, _ in self._out(paper, "MENTIONS"):
                    if other != node:
                        counts[nodes[other]["key"]] += 1
        ranked = sorted(counts.items(), key=lambda kv: (-kv[1], kv[0]))[:RELATED_LIMIT]
        return [RelatedConcept(k, c) for k, c in ranked]

    def children_of_areas(self, paths):
        return self._areas_linked("area", paths, lambda n: self._in(n, "SUBAREA_OF"))

    def institutions_of_authors(self, keys):
        out = []
        for key in keys:
            node = node_id("author", key)
            rows = (
                [(self.graph.nodes[m], d["papers"]) for m, d in self._out(node, "AFFILIATED_WITH")] if node in self.graph else []
            )
            rows.sort(key=lambda r: (-r[1], r[0]["key"]))
            out.append([(Institution(d["key"], d["name"]), n) for d, n in rows])
        return out

    def paper_counts_of_areas(self, paths):
        out = []
        for path in paths:
            node = node_id("area", path)
            if node not in self.graph:
                out.append(0)
                continue
            areas = [node] + [m for m, _ in self._in(node, "SUBAREA_OF")]
            out.append(len({p for a in areas for p, _ in self._in(a, "IN_AREA")}))
        return out
