"""A boosted tree ensemble kept as plain arrays: trained with scikit-learn, evaluated with numpy.

Only the training needs scikit-learn (``HistGradientBoostingClassifier``); what ships is its trees
as arrays in an ``.npz`` file, and what runs is :meth:`Trees.probability`. A node sends a row
left when its feature is at most the node's threshold, or is missing (NaN) and the node sends
missing values left, as scikit-learn's own predictor does.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import numpy as np

__all__ = ["Trees"]

_FIELDS = ("feature", "threshold", "missing_left", "left", "right", "leaf", "value", "roots")


@dataclass(frozen=True)
class Trees:
    """Every tree's nodes, one after another; children and roots are indices into them."""

    baseline: float
    feature: np.ndarray
    threshold: np.ndarray
    missing_left: np.ndarray
    left: np.ndarray
    right: np.ndarray
    leaf: np.ndarray
    value: np.ndarray
    roots: np.ndarray
    names: tuple[str, ...] = ()

    @classmethod
    def from_sklearn(cls, model, names=()) -> Trees:
        """The trees of a fitted binary ``HistGradientBoostingClassifier`` (numerical features only)."""
        parts, roots, offset = [], [], 0
        for (predictor,) in model._predictors:
            nodes = predictor.nodes
            if nodes["is_categorical"].any():
                raise ValueError("categorical splits are not supported")
            roots.append(offset)
            parts.append((nodes, offset))
            offset += len(nodes)
        cat = np.concatenate

        def column(name, dtype):
            return cat([np.asarray(n[name], dtype=dtype) for n, _ in parts])

        return cls(
            baseline=float(np.ravel(model._baseline_prediction)[0]),
            feature=column("feature_idx", np.int32),
            threshold=column("num_threshold", np.float64),
            missing_left=column("missing_go_to_left", bool),
            left=cat([np.asarray(n["left"], dtype=np.int32) + o for n, o in parts]),
            right=cat([np.asarray(n["right"], dtype=np.int32) + o for n, o in parts]),
            leaf=column("is_leaf", bool),
            value=column("value", np.float64),
            roots=np.asarray(roots, dtype=np.int32),
            names=tuple(names),
        )

    def save(self, path: Path) -> None:
        np.savez_compressed(
            path,
            baseline=np.array(self.baseline),
            names=np.array(self.names, dtype=str),
            **{f: getattr(self, f) for f in _FIELDS},
        )

    @classmethod
    def load(cls, source) -> Trees:
        with np.load(source) as data:
            return cls(
                baseline=float(data["baseline"]), names=tuple(str(n) for n in data["names"]), **{f: data[f] for f in _FIELDS}
            )

    def raw(self, rows: np.ndarray) -> np.ndarray:
        """The ensemble's log-odds for each row of features."""
        rows = np.asarray(rows, dtype=np.float64)
        out = np.full(len(rows), self.baseline)
        everyone = np.arange(len(rows))
        for root in self.roots:
            node = np.full(len(rows), root, dtype=np.int32)
            active = everyone[~self.leaf[node]]
            while len(active):
                at = node[active]
                x = rows[active, self.feature[at]]
                left = np.where(np.isnan(x), self.missing_left[at], x <= self.threshold[at])
                node[active] = np.where(left, self.left[at], self.right[at])
                active = active[~self.leaf[node[active]]]
            out += self.value[node]
        return out

    def probability(self, rows: np.ndarray) -> np.ndarray:
        return 1.0 / (1.0 + np.exp(-np.clip(self.raw(rows), -30.0, 30.0)))
