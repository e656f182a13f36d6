"""Graph algorithms the stores share, as pure functions over networkx graphs or plain dicts."""

from __future__ import annotations

from collections.abc import Callable, Hashable

import networkx as nx

from kg import deadline

__all__ = ["nearest_first", "within_depth", "first_shortest_path"]


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
