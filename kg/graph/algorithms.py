"""Graph algorithms the stores share, as pure functions over networkx graphs or plain dicts."""

from __future__ import annotations

from collections.abc import Callable, Hashable
from dataclasses import dataclass

import networkx as nx

from kg import deadline
from kg.models import Author

__all__ = ["NetworkView", "network_view", "nearest_first", "within_depth", "first_shortest_path"]


def nearest_first(levels: dict[str, int], degrees: dict[str, int], limit: int | None) -> list[str]:
    """The keys to keep: all of them, or the ``limit`` nearest, then those with most co-authors, then by key.

    >>> nearest_first({"a": 0, "b": 1, "c": 1, "d": 2}, {"a": 1, "b": 1, "c": 3, "d": 9}, 3)
    ['a', 'c', 'b']
    """
    ranked = sorted(levels, key=lambda k: (levels[k], -degrees.get(k, 0), k))
    return ranked if limit is None else ranked[:limit]


def within_depth(graph: nx.Graph, start: Hashable, depth: int) -> dict:
    """Every node at most ``depth`` hops from ``start``, with its distance (``start`` alone when it has no edges).

    >>> within_depth(nx.path_graph(5), 0, 2)
    {0: 0, 1: 1, 2: 2}
    >>> within_depth(nx.path_graph(2), 7, 3)
    {7: 0}
    """
    if start not in graph:
        return {start: 0}
    found = {}
    for level, layer in enumerate(nx.bfs_layers(graph, start)):  # a request past its deadline stops between two
        deadline.check()
        if level > depth:
            break
        found.update(dict.fromkeys(layer, level))
    return found


def first_shortest_path(graph: nx.Graph, source: Hashable, target: Hashable, key: Callable) -> list | None:
    """A shortest path from ``source`` to ``target``; among equals, the one whose nodes' ``key`` sort first
    step by step (the same answer every time, on every store). None when they are not connected.

    >>> g = nx.Graph([("a", "c"), ("a", "b"), ("b", "d"), ("c", "d")])
    >>> first_shortest_path(g, "a", "d", key=str)
    ['a', 'b', 'd']
    >>> first_shortest_path(g, "a", "z", key=str) is None
    True
    """
    if source not in graph or target not in graph:
        return None
    dist = nx.single_source_shortest_path_length(graph, target)
    if source not in dist:
        return None
    path = [source]
    while path[-1] != target:
        here = path[-1]
        path.append(min((m for m in graph.adj[here] if dist.get(m) == dist[here] - 1), key=key))
    return path


@dataclass(frozen=True, slots=True)
class NetworkView:
    nodes: list[Author]
    edges: list[tuple[str, str, int]]  # source key, target key, joint papers
    total_nodes: int  # before the cap
    communities: list[list[str]]  # author keys, largest community first


def network_view(net) -> NetworkView:
    """A network (``kg.store.base.Network``) with its Louvain communities (weighted by joint papers, fixed seed), largest first.

    >>> from kg.models import Author
    >>> from kg.store.base import Network
    >>> net = Network([Author(k, k) for k in "abcde"], [("a", "b", 3), ("a", "c", 2), ("b", "c", 2), ("d", "e", 1)], 9)
    >>> view = network_view(net)
    >>> view.communities, view.total_nodes
    ([['a', 'b', 'c'], ['d', 'e']], 9)
    """
    g = nx.Graph()
    g.add_nodes_from(sorted(a.key for a in net.nodes))
    g.add_weighted_edges_from(sorted(net.edges))
    found: list = []  # louvain_communities is the last of these levels; a request past its deadline stops between two
    for level in nx.community.louvain_partitions(g, weight="weight", seed=7) if g.number_of_nodes() else ():
        deadline.check()
        found = level
    communities = sorted((sorted(c) for c in found), key=lambda c: (-len(c), c[0]))
    return NetworkView(net.nodes, net.edges, net.within if net.within is not None else len(net.nodes), communities)
