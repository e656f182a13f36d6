"""The learned concept ranker: which candidates would the authors name as key concepts?

A logistic model over candidate features, trained on real author keywords with
``python -m kg.training.concepts`` and shipped as ``data/ranker.json`` (plain
coefficients: no scikit-learn at run time). One feature is a keyphraseness
prior in the manner of KEA: how often a phrase was chosen as a keyword in the
training papers where it occurred; three say how often the literature's titles carry the
phrase (``kg.extract.title_rates``).
"""

from __future__ import annotations

import json
import math
from collections.abc import Iterable
from dataclasses import dataclass, field
from functools import cached_property, lru_cache
from importlib import resources
from pathlib import Path
from typing import TYPE_CHECKING

import numpy as np

from kg.errors import ExtractionError
from kg.extract.wordlists import GENERIC_HEADS, NAMING_HEADS

if TYPE_CHECKING:
    from kg.extract.candidates import Occurrence
    from kg.extract.vocabulary import VocabularyEntry

__all__ = [
    "FEATURES",
    "CandidateStats",
    "Ranker",
    "load_ranker",
    "features",
    "head_word",
    "shipped_model_path",
    "candidate_stats",
]

RANKER_VERSION = 1

FEATURES = (
    "log_tf",
    "first_position",
    "in_title",
    "title_only",
    "spread",
    "words_1",
    "words_2",
    "words_3",
    "words_4",
    "vocabulary",
    "abbreviation",
    "nested_only",
    "generic_head",
    "specificity",
    "common",
    "prior",
    "log_keyword_count",
    "unseen",
    "head_prior",
    "capitalised",
    "hyphenated",
    "title_x_words",
    "title_rate",
    "corpus_df",
    "log_titled",
    "naming_head",
)


@dataclass(slots=True)
class CandidateStats:
    """What one document says about one candidate key."""

    tf: int = 0
    first: int = 0
    last: int = 0
    kind: str = "sub"
    surface: str = ""
    in_title: bool = False
    in_body: bool = False
    entry: VocabularyEntry | None = None


@dataclass
class Ranker:
    mean: list[float]
    scale: list[float]
    coef: list[float]
    intercept: float
    prior: dict[str, tuple[float, float]] = field(
        default_factory=dict
    )  # key -> (times a keyword, documents it occurred in), weighted
    head_prior: dict[str, tuple[int, int]] = field(default_factory=dict)  # the same, per last word
    meta: dict = field(default_factory=dict)

    def score(self, x: list[float]) -> float:
        """Probability that the authors would name the candidate."""
        return self.score_many([x])[0]

    def score_many(self, rows: list[list[float]]) -> list[float]:
        """Probabilities of many candidates (feature rows in ``FEATURES`` order) at once."""
        if not rows:
            return []
        mean, scale, coef = self._arrays
        z = ((np.asarray(rows, dtype=float) - mean) / scale) @ coef + self.intercept
        return (1.0 / (1.0 + np.exp(-z))).tolist()

    @cached_property
    def _arrays(self) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """mean, scale and coef as arrays, made once per model, not once per document."""
        return np.asarray(self.mean, dtype=float), np.asarray(self.scale, dtype=float), np.asarray(self.coef, dtype=float)

    def to_json(self) -> dict:
        return {
            "version": RANKER_VERSION,
            "features": list(FEATURES),
            "mean": self.mean,
            "scale": self.scale,
            "coef": self.coef,
            "intercept": self.intercept,
            "meta": self.meta,
            "prior": {k: list(v) for k, v in sorted(self.prior.items())},
            "head_prior": {k: list(v) for k, v in sorted(self.head_prior.items())},
        }

    @classmethod
    def from_json(cls, obj: dict, source: str) -> "Ranker":
        if obj.get("version") != RANKER_VERSION or obj.get("features") != list(FEATURES):
            raise ExtractionError(
                f"{source}: ranker model was trained for other features; retrain with python -m kg.training.concepts"
            )
        return cls(
            mean=obj["mean"],
            scale=obj["scale"],
            coef=obj["coef"],
            intercept=obj["intercept"],
            prior={k: (v[0], v[1]) for k, v in obj["prior"].items()},
            head_prior={k: (v[0], v[1]) for k, v in obj["head_prior"].items()},
            meta=obj.get("meta", {}),
        )


def head_word(key: str) -> str:
    """The last word of a concept key: 'graph neural network' -> 'network'."""
    return key.rsplit(" ", 1)[-1]


def features(
    key: str,
    s: CandidateStats,
    *,
    n_tokens: int,
    n_title: int,
    specificity: float,
    df_ratio: float,
    prior: tuple[int, int] | None,
    head_prior: tuple[int, int] | None,
    title: tuple[float, float, float] = (0.0, 0.0, 0.0),
) -> list[float]:
    """The feature vector of one candidate, in ``FEATURES`` order."""
    words = key.count(" ") + 1
    head = head_word(key)
    body = max(n_tokens - n_title, 1)
    first_body = max(s.first - n_title, 0) if s.in_body else body
    kw, seen = prior if prior else (0, 0)
    head_kw, head_seen = head_prior if head_prior else (0, 0)
    surface = s.surface
    return [
        math.log(s.tf),
        min(first_body / body, 1.0),
        float(s.in_title),
        float(s.in_title and not s.in_body),
        (s.last - s.first) / max(n_tokens, 1),
        float(words == 1),
        float(words == 2),
        float(words == 3),
        float(words >= 4),
        float(s.entry is not None),
        float(s.kind == "abbreviation"),
        float(s.kind == "sub"),
        float(head in GENERIC_HEADS),
        specificity,
        min(df_ratio * 10, 1.0),
        kw / (seen + 2),
        math.log1p(kw),
        float(prior is None),
        head_kw / (head_seen + 5),
        float(any(c.isupper() for c in surface[1:]) or (surface[:1].isupper() and s.in_body and s.first > n_title)),
        float("-" in surface),
        float(s.in_title) * min(words, 4) / 4,
        *title,
        float(head in NAMING_HEADS),
    ]


def shipped_model_path() -> Path:
    """Where the model kg ships lives (``python -m kg.training.concepts`` rewrites it)."""
    return Path(str(resources.files("kg.extract") / "data" / "ranker.json"))


@lru_cache(maxsize=4)
def load_ranker(path: str | None = None) -> Ranker | None:
    """The shipped ranker, one from ``path``, or None when none was trained yet."""
    file = Path(path) if path else shipped_model_path()
    if not file.is_file():
        if path:
            raise ExtractionError(f"{path}: no such ranker model")
        return None
    try:
        obj = json.loads(file.read_text(encoding="utf-8"))
    except ValueError as exc:
        raise ExtractionError(f"{file}: not a ranker model ({exc})") from exc
    return Ranker.from_json(obj, str(file))


_KIND_RANK = {"abbreviation": 3, "vocabulary": 2, "phrase": 1, "sub": 0}


def candidate_stats(occurrences: Iterable["Occurrence"], n_title: int) -> dict[str, CandidateStats]:
    """Per concept key: how often, where first and last, in the title, and its strongest kind."""
    stats: dict[str, CandidateStats] = {}
    seen: set[tuple[str, int]] = set()
    for o in occurrences:
        if (o.key, o.position) in seen:  # a vocabulary term that is also a nested phrase counts once
            continue
        seen.add((o.key, o.position))
        s = stats.get(o.key)
        if s is None:
            s = stats[o.key] = CandidateStats(first=o.position, last=o.position, kind=o.kind, surface=o.surface, entry=o.entry)
        s.tf += 1
        s.first = min(s.first, o.position)
        s.last = max(s.last, o.position)
        if o.position < n_title:
            s.in_title = True
        else:
            s.in_body = True
        if _KIND_RANK.get(o.kind, 0) > _KIND_RANK.get(s.kind, 0):
            s.kind, s.surface = o.kind, o.surface
        s.entry = s.entry or o.entry
    return stats
