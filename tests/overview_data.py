"""A made-up field over four years whose rising concept is known, with a venue that enters half-way."""

from __future__ import annotations

from kg.graph.build import GraphBatch
from kg.models import Author, Concept, Paper


def rising_batch() -> GraphBatch:
    """Venue A: 10 papers a year, 2019-2022; "steady" on 5 of them every year, "rising" on 1 a year, then 6.
    Venue B enters in 2021 with 20 papers a year, every one of them on "robot"."""
    papers, mentions, authored = [], [], []
    for year in range(2019, 2023):
        for i in range(10):
            pid = f"a{year}-{i}"
            papers.append(Paper(pid, None, pid, "text", "A", year))
            authored.append(("ann", pid, 0))
            if i < 5:
                mentions.append((pid, "steady", 1.0))
            if i < (1 if year < 2021 else 6):
                mentions.append((pid, "rising", 1.0))
        if year >= 2021:
            for i in range(20):
                pid = f"b{year}-{i}"
                papers.append(Paper(pid, None, pid, "text", "B", year))
                authored.append(("bo", pid, 0))
                mentions.append((pid, "robot", 1.0))
    concepts = [Concept(k, k) for k in ("steady", "rising", "robot")]
    return GraphBatch(
        papers=papers, authors=[Author("ann", "Ann"), Author("bo", "Bo")], authored=authored, concepts=concepts, mentions=mentions
    )
