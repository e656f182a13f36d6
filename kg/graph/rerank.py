"""Related papers ranked by how likely authors are to cite one another, learned from citation links.

Similarity alone (``kg.graph.shares``) finds papers that read alike; authors cite papers that
read alike *and* that others build on. So each paper's ``POOL`` most similar papers sharing a
concept are scored again by a boosted tree ensemble (``kg.graph.trees``) trained on real citation
links (``python -m kg.training.related``; the data is named in ``docs/related.md``). Its
features, for a paper *p* and a candidate *o*:

- the concept, topic and term cosines of the two (what similarity already weighs);
- how close *o*'s own nearest papers are, per signal (``link_stats``: the mean of its 20 best
  cosines, zeros filling in for fewer): a paper near many papers is one the field builds on,
  while a paper near everything says little;
- the years: *o*'s, and its distance from *p*'s.

The probability of an edge is the mean of the two directions', so it is one number for both
papers; its score leans a little toward similarity (``SIMILARITY``, in log-odds), which keeps
related papers on the paper's topic. It needs only what each paper keeps: its year and its three closeness figures,
written into its signature when it is linked (``kg.extract.topics.with_stats``). A candidate
linked before these were kept has them missing, which the trees were trained to take.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from functools import lru_cache
from importlib import resources

import numpy as np

from kg.extract.topics import decode_stats
from kg.graph.trees import Trees

__all__ = [
    "FEATURES",
    "NEAREST",
    "POOL",
    "SIMILARITY",
    "Ranker",
    "features",
    "link_stats",
    "load_ranker",
    "lean",
    "related_ranker",
    "scores",
    "stats_of",
]

POOL = 100  # the most similar papers each paper's ranker scores again
# How far the final score leans toward similarity, in log-odds per unit of similarity score: chosen on the two judges
# (cross-validated citation recall@10 0.2321 -> 0.2307, ICLR 2024 same-area@5 0.4031 -> 0.4164; docs/related.md).
SIMILARITY = 5.0
NEAREST = 20  # the nearest papers a paper's closeness figures are the mean of
FEATURES = (
    "concept_cosine",
    "topic_cosine",
    "term_cosine",
    "their_concept_closeness",
    "their_topic_closeness",
    "their_term_closeness",
    "year_gap",
    "abs_year_gap",
    "their_year",
)
Stats = tuple[float, ...]  # year (NaN if unknown), then the mean of the NEAREST best concept, topic and term cosines
UNKNOWN: Stats = (math.nan,) * 4


def link_stats(signals: np.ndarray, year: int | None) -> Stats:
    """What a paper keeps from its candidates' (concept, topic, term) cosines: its year, and the mean of
    its ``NEAREST`` best of each, rounded to 4 places (as stored, so that fresh and stored figures agree)."""
    best = np.zeros((NEAREST, 3))
    if len(signals) > NEAREST:  # only the NEAREST best of each column need sorting
        signals = np.partition(signals, len(signals) - NEAREST, axis=0)[-NEAREST:]
    best[: len(signals)] = -np.sort(-signals, axis=0)
    closeness = (round(float(v), 4) for v in best.mean(axis=0))
    return (math.nan if year is None else float(year), *closeness)


def stats_of(signature: str | None) -> Stats | None:
    """A stored signature's stats (``link_stats``), or None."""
    found = decode_stats(signature)
    return found if found is not None and len(found) == 4 else None


def features(mine: Stats, signals: np.ndarray, theirs: Sequence[Stats | None]) -> np.ndarray:
    """One row of ``FEATURES`` per candidate of a paper with stats ``mine``."""
    other = np.array([s if s is not None else UNKNOWN for s in theirs], dtype=np.float64).reshape(-1, 4)
    gap = other[:, 0] - mine[0]
    return np.column_stack([signals, other[:, 1:], gap, np.abs(gap), other[:, 0]])


def _both_ways(mine: Stats, signals: np.ndarray, theirs: Sequence[Stats | None]) -> np.ndarray:
    """The features of each candidate seen from the paper, then of the paper seen from each candidate."""
    forward = features(mine, signals, theirs)
    mine_row = np.array(mine, dtype=np.float64)
    backward = forward.copy()
    backward[:, 3:6] = mine_row[1:]
    backward[:, 6] = -forward[:, 6]
    backward[:, 8] = mine_row[0]
    return np.vstack([forward, backward])


def scores(trees: Trees, mine: Stats, signals: np.ndarray, theirs: Sequence[Stats | None]) -> np.ndarray:
    """Each candidate's probability of a citation: the mean of the trees' from the paper's side and from the candidate's."""
    both = trees.probability(_both_ways(mine, signals, theirs))
    return (both[: len(signals)] + both[len(signals) :]) / 2


def lean(probability: np.ndarray, similarity: np.ndarray) -> np.ndarray:
    """A probability's log-odds plus ``SIMILARITY`` times the similarity score, back on 0..1."""
    p = np.clip(probability, 1e-9, 1 - 1e-9)
    return 1.0 / (1.0 + np.exp(-(np.log(p / (1 - p)) + SIMILARITY * similarity)))


class Ranker:
    """What ``shares`` asks of a ranker: a score for each paper of a pool. This one asks the trees."""

    def __init__(self, trees: Trees):
        if trees.names and trees.names != FEATURES:
            raise ValueError(f"the ranker was trained on features {trees.names}, not {FEATURES}")
        self.trees = trees

    def score_pools(self, pools: Sequence[tuple]) -> list[np.ndarray]:
        """Each pool's scores (``scores`` leaning ``SIMILARITY`` toward similarity), the trees asked once for all of
        them. A pool is (paper, candidate ids, its stats, the candidates' cosines, their stats, their similarity)."""
        rows = [_both_ways(mine, signals, theirs) for _, _, mine, signals, theirs, _ in pools]
        if not rows:
            return []
        found = self.trees.probability(np.vstack(rows))
        out, at = [], 0
        for pool in pools:
            n = len(pool[1])
            out.append(lean((found[at : at + n] + found[at + n : at + 2 * n]) / 2, pool[5]))
            at += 2 * n
        return out


@lru_cache(maxsize=1)
def load_ranker() -> Ranker | None:
    """The shipped ranker (``data/related.npz``), or None when the package has none."""
    path = resources.files("kg.graph") / "data" / "related.npz"
    if not path.is_file():
        return None
    with resources.as_file(path) as file:
        return Ranker(Trees.load(file))


def related_ranker(settings) -> Ranker | None:
    """The ranker the settings ask for: none for ``KG_RELATED_RANKING=similarity``, else ``KG_RELATED_MODEL``'s
    file or the shipped one."""
    if settings.related_ranking == "similarity":
        return None
    if settings.related_model is not None:
        return _ranker_file(str(settings.related_model))
    found = load_ranker()
    if found is None:
        raise FileNotFoundError(
            "kg/graph/data/related.npz is missing: run python -m kg.training.related, or set KG_RELATED_RANKING=similarity"
        )
    return found


@lru_cache(maxsize=4)
def _ranker_file(path: str) -> Ranker:
    return Ranker(Trees.load(path))
