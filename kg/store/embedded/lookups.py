"""The embedded store's lookups: filters and pages, facets, search and autocomplete, co-author networks and paths."""

from __future__ import annotations

from collections import Counter, defaultdict

import networkx as nx

from kg.models import AREA_SEPARATOR, Author, Facets, Page, ResearchArea, Stats, Suggestion
from kg.graph.algorithms import first_shortest_path, nearest_first, within_depth
from kg.store.base import PAPER_ORDERS, Network, PaperFilter, rank_suggestions
from kg.store.embedded.graph import GraphView, node_id
from kg.store.textsearch import BM25Index, PrefixIndex, words_of

__all__ = ["Lookups"]


class Lookups(GraphView):
    """Reads that scan or rank: counts, filtered pages, facets, search, autocomplete, networks, paths."""

    def stats(self) -> Stats:
        self.refresh()

        def count() -> Stats:
            kinds = Counter(d["kind"] for _, d in self.graph.nodes(data=True))
            types = Counter(d["type"] for _, _, d in self.graph.edges(data=True))
            return Stats(
                kinds["paper"], kinds["author"], kinds["concept"], kinds["area"], types["CO_AUTHORED"], types["SHARES_CONCEPT"]
            )

        return self._cached("stats", count)

    def _alias_index(self) -> dict[str, list[str]]:
        def build() -> dict[str, list[str]]:
            index: dict[str, list[str]] = defaultdict(list)
            for _, d in self._nodes("concept"):
                for name in {d["name"].lower(), *(a.lower() for a in d["aliases"])}:
                    index[name].append(d["key"])
            return index

        return self._cached("aliases", build)

    def resolve_concept(self, exact, names) -> str | None:
        for key in exact:
            if node_id("concept", key) in self.graph:
                return key
        keys = sorted({k for n in names for k in self._alias_index().get(n, ())})
        if not keys:
            return None
        counts = self.paper_counts_of_concepts(keys)
        return min(zip(keys, counts), key=lambda kc: (-kc[1], kc[0]))[0]

    def _paper_matches(self, node: str, paper_filter: PaperFilter) -> bool:
        g = self.graph
        if paper_filter.author is not None and not g.has_edge(node_id("author", paper_filter.author), node):
            return False
        if paper_filter.concept is not None and not g.has_edge(node, node_id("concept", paper_filter.concept)):
            return False
        if paper_filter.area is not None:
            wanted = paper_filter.area.lower()
            paths = [g.nodes[a]["path"].lower() for a, _ in self._out(node, "IN_AREA")]
            if not any(p == wanted or p.split(AREA_SEPARATOR.lower())[0] == wanted for p in paths):
                return False
        if paper_filter.year_from is not None or paper_filter.year_to is not None or paper_filter.venue is not None:
            d = g.nodes[node]
            year = d.get("year")
            if paper_filter.year_from is not None and (year is None or year < paper_filter.year_from):
                return False
            if paper_filter.year_to is not None and (year is None or year > paper_filter.year_to):
                return False
            if paper_filter.venue is not None and d.get("venue") != paper_filter.venue:
                return False
        if paper_filter.text:
            d = g.nodes[node]
            hay = f"{d.get('title') or ''} {d['abstract']}".lower()
            if not all(word in hay for word in paper_filter.text.lower().split()):
                return False
        return True

    def _matching_papers(self, paper_filter: PaperFilter) -> list[str]:
        """Nodes of the papers the filter matches, unordered (every paper comes from a cached list)."""
        g = self.graph
        if paper_filter.author is not None:
            node = node_id("author", paper_filter.author)
            pool = [p for p, _ in self._out(node, "AUTHORED")] if node in g else []
        elif paper_filter.concept is not None:
            node = node_id("concept", paper_filter.concept)
            pool = [p for p, _ in self._in(node, "MENTIONS")] if node in g else []
        else:
            pool = self._papers_in_order("id")
        return pool if paper_filter.selects_all() else [n for n in pool if self._paper_matches(n, paper_filter)]

    def _papers_in_order(self, order: str) -> list[str]:
        """Every paper node in one of the orders, sorted once per graph version."""
        return self._cached(
            f"papers_by_{order}", lambda: sorted((n for n, _ in self._nodes("paper")), key=self._order_key(order))
        )

    def _order_key(self, order: str):
        nodes = self.graph.nodes
        if order == "id":
            return lambda n: nodes[n]["id"]
        assert order in PAPER_ORDERS, order  # "citations" or "year": the node attribute of that name, most first
        return lambda n: (-(nodes[n].get(order) if nodes[n].get(order) is not None else -1), nodes[n]["id"])

    def find_papers(self, paper_filter: PaperFilter, offset: int, limit: int, *, count: bool = True) -> Page:
        g = self.graph
        if paper_filter.selects_all():  # every paper: from the cached order
            pool = self._papers_in_order(paper_filter.order)
            return Page([self._paper(n) for n in pool[offset : offset + limit]], len(pool))
        hits = self._matching_papers(paper_filter)
        if paper_filter.concept is not None and paper_filter.order == "id":  # the papers most about the concept first
            concept = node_id("concept", paper_filter.concept)
            hits.sort(key=lambda n: (-g.edges[n, concept]["weight"], g.nodes[n]["id"]))
        else:
            hits.sort(key=self._order_key(paper_filter.order))
        return Page([self._paper(n) for n in hits[offset : offset + limit]], len(hits))

    def count_papers(self, paper_filter: PaperFilter) -> int:
        """The matches counted, not sorted or turned into papers (as ``find_papers`` would)."""
        return len(self._matching_papers(paper_filter))

    def paper_facets(self, paper_filter: PaperFilter) -> Facets:
        def count() -> Facets:
            nodes = self.graph.nodes
            years: Counter[int] = Counter()
            venues: Counter[str] = Counter()
            for n in self._matching_papers(paper_filter):
                d = nodes[n]
                if d.get("year") is not None:
                    years[d["year"]] += 1
                if d.get("venue"):
                    venues[d["venue"]] += 1
            return Facets(sorted(years.items()), sorted(venues.items(), key=lambda vc: (-vc[1], vc[0])))

        if paper_filter.selects_all():
            return self._cached("facets", count)
        return count()

    def find_authors(self, search: str | None, offset: int, limit: int) -> Page:
        needle = " ".join(search.lower().split()) if search else None
        found = [(n, d) for n, d in self._nodes("author") if needle is None or needle in d["key"]]
        counts = self._paper_counts("author", "AUTHORED")
        found.sort(key=lambda nd: (-counts[nd[0]], nd[1]["key"]))
        return Page([self._author(n) for n, _ in found[offset : offset + limit]], len(found))

    def find_concepts(self, search: str | None, offset: int, limit: int) -> Page:
        needle = " ".join(search.lower().split()) if search else None

        def hit(d) -> bool:
            return (
                needle is None
                or needle in d["name"].lower()
                or needle in d["key"]
                or any(needle in a.lower() for a in d["aliases"])
            )

        found = [(n, d) for n, d in self._nodes("concept") if hit(d)]
        counts = self._paper_counts("concept", "MENTIONS")
        found.sort(key=lambda nd: (-counts[nd[0]], nd[1]["key"]))
        return Page([self._concept(n) for n, _ in found[offset : offset + limit]], len(found))

    def _paper_counts(self, kind: str, etype: str) -> dict[str, int]:
        """Papers per author or concept node, counted once per version of the graph."""

        def build() -> dict[str, int]:
            counts: Counter[str] = Counter()
            for u, v, d in self.graph.edges(data=True):
                if d["type"] == etype:
                    counts[u if kind == "author" else v] += 1
            return counts

        return self._cached(f"counts:{kind}", build)

    def top_areas(self) -> list[ResearchArea]:
        return sorted((self._area(n) for n, d in self._nodes("area") if not d.get("parent")), key=lambda a: a.path)

    def search(self, query: str, limit: int) -> list[tuple[str, float]]:
        index = self._cached(
            "bm25", lambda: BM25Index({d["id"]: f"{d.get('title') or ''} {d['abstract']}" for _, d in self._nodes("paper")})
        )
        return index.search(query, limit)

    def _suggest_index(self) -> dict[str, PrefixIndex]:
        """Per kind, a word index for autocomplete (built once per graph version, on first use)."""

        def build():
            authors = self._paper_counts("author", "AUTHORED")
            concepts = self._paper_counts("concept", "MENTIONS")
            return {
                "concept": PrefixIndex(
                    (d["key"], d["name"], [d["name"], *d["aliases"]], concepts[n]) for n, d in self._nodes("concept")
                ),
                "author": PrefixIndex((d["key"], d["name"], [d["name"]], authors[n]) for n, d in self._nodes("author")),
                "paper": PrefixIndex(
                    (d["id"], d["label"], [d["label"]], d.get("citations") or 0) for n, d in self._nodes("paper")
                ),
            }

        return self._cached("suggest", build)

    def suggest(self, prefix: str, limit: int) -> list[Suggestion]:
        typed = words_of(prefix)
        if not typed or limit == 0:
            return []
        exact = " ".join(prefix.lower().split())
        found = []
        for kind, index in self._suggest_index().items():
            for key in index.best(typed, exact, limit):
                label, weight = index.meta[key]
                found.append(Suggestion(kind, key, label, weight, kind != "paper" and key in index.exact.get(exact, ())))
        return rank_suggestions(found, limit)

    def _coauthor_adjacency(self, node: str) -> list[tuple[str, int]]:
        return [(m, d["papers"]) for m, d in self._both(node, "CO_AUTHORED")]

    def _coauthor_graph(self) -> nx.Graph:
        """The co-author edges alone, undirected, built once per version of the graph."""

        def build() -> nx.Graph:
            co = nx.Graph()
            co.add_edges_from(
                (u, v, {"papers": d["papers"]}) for u, v, d in self.graph.edges(data=True) if d["type"] == "CO_AUTHORED"
            )
            return co

        return self._cached("coauthors", build)

    def coauthor_network(self, key: str, depth: int, limit: int | None = None) -> Network:
        start = node_id("author", key)
        if start not in self.graph:
            return Network([], [])
        co = self._coauthor_graph()
        within = within_depth(co, start, depth)
        if limit is not None and len(within) > limit:
            kept = set(nearest_first(within, {n: co.degree(n) for n in within} if start in co else {}, limit))
        else:
            kept = set(within)
        nodes = sorted(kept, key=lambda n: self.graph.nodes[n]["key"])
        keys = {n: self.graph.nodes[n]["key"] for n in nodes}
        edges = sorted((*sorted((keys[u], keys[v])), d["papers"]) for u, v, d in co.subgraph(nodes).edges(data=True))
        return Network([self._author(n) for n in nodes], edges, len(within) if limit is not None else None)

    def collaboration_path(self, source: str, target: str) -> list[Author] | None:
        """The shortest co-author path; among equals, the one whose keys sort first."""
        s, t = node_id("author", source), node_id("author", target)
        g = self.graph
        if s not in g or t not in g:
            return None
        if s == t:
            return [self._author(s)]
        path = first_shortest_path(self._coauthor_graph(), s, t, key=lambda m: g.nodes[m]["key"])
        if path is None:
            return None
        return [self._author(n) for n in path]
