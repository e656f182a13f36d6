"""A boosted tree ensemble kept as plain arrays: trained with scikit-learn, evaluated with numpy.

Only the training needs scikit-learn (``HistGradientBoostingClassifier``); what ships is its trees
as arrays in an ``.npz`` file, and what runs is :meth:`Trees.probability`. A node sends a row
left when its feature is at most the node's threshold, or is missing (NaN) and the node sends
missing values left, as scikit-learn's own predictor does.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cached_property
from pathlib import Path

import numpy as np

__all__ = ["Trees"]

FEW = 64  # rows evaluated by walking every tree at once (``Trees._raw_few``)
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

    def raw(self, rows: np.ndarray, *, block: int = 16384) -> np.ndarray:
        """The ensemble's log-odds for each row of features (rows taken ``block`` at a time, so that the
        arrays each step reads stay in the processor's cache; a few rows walk every tree at once)."""
        rows = np.ascontiguousarray(rows, dtype=np.float64)
        if len(rows) <= FEW:
            return self._raw_few(rows)
        return np.concatenate([self._raw(rows[i : i + block]) for i in range(0, len(rows), block)] or [np.zeros(0)])

    def _raw_few(self, rows: np.ndarray) -> np.ndarray:
        """Every tree walked at once, one level a step, as many steps as the deepest tree: for a few rows this is a
        handful of array operations where ``_raw`` takes some per tree. Tree values are added in tree order, as there."""
        features, thresholds, children, depths = self._walk
        n, width = rows.shape
        node = np.tile(self.roots.astype(np.intp), (n, 1))  # (row, tree)
        starts = (np.arange(n, dtype=np.intp) * width)[:, None]
        flat = rows.ravel()
        missing = bool(np.isnan(flat).any())
        for _ in range(max(depths, default=0)):
            x = flat[starts + features[node]]
            left = x <= thresholds[node]
            if missing:
                left |= np.isnan(x) & self.missing_left[node]
            node = children[2 * node + ~left]
        values = self.value[node]
        out = np.full(n, self.baseline)
        for t in range(values.shape[1]):
            out += values[:, t]
        return out

    def _raw(self, rows: np.ndarray) -> np.ndarray:
        """Each tree walks every row one level a step, as many steps as the tree is deep; a leaf is its own
        child, so a row that reached one stays there. Tree values are added in tree order."""
        features, thresholds, children, depths = self._walk
        n, width = rows.shape
        flat = rows.ravel()
        missing = bool(np.isnan(flat).any())
        starts = np.arange(n, dtype=np.intp) * width
        out = np.full(n, self.baseline)
        for root, depth in zip(self.roots, depths, strict=True):
            node = np.full(n, root, dtype=np.intp)
            for _ in range(depth):
                x = flat[starts + features[node]]
                left = x <= thresholds[node]
                if missing:
                    left |= np.isnan(x) & self.missing_left[node]
                node = children[2 * node + ~left]
            out += self.value[node]
        return out

    @cached_property
    def _walk(self) -> tuple[np.ndarray, np.ndarray, np.ndarray, list[int]]:
        """(feature, threshold, children as (left, right) pairs, each tree's depth), with leaves their own children."""
        nodes = np.arange(len(self.feature), dtype=np.intp)
        left = np.where(self.leaf, nodes, self.left).astype(np.intp)
        right = np.where(self.leaf, nodes, self.right).astype(np.intp)
        depth = np.zeros(len(nodes), dtype=np.int64)  # a node's depth below its tree's root
        for root in self.roots:
            todo = [int(root)]
            while todo:
                at = todo.pop()
                if not self.leaf[at]:
                    for child in (self.left[at], self.right[at]):
                        depth[child] = depth[at] + 1
                        todo.append(int(child))
        ends = [*self.roots[1:], len(nodes)]
        deepest = [int(depth[a:b].max()) for a, b in zip(self.roots, ends, strict=True)]
        return (
            np.where(self.leaf, 0, self.feature).astype(np.intp),
            np.where(self.leaf, np.inf, self.threshold),
            np.stack([left, right], axis=1).ravel(),
            deepest,
        )

    def probability(self, rows: np.ndarray) -> np.ndarray:
        return 1.0 / (1.0 + np.exp(-np.clip(self.raw(rows), -30.0, 30.0)))
