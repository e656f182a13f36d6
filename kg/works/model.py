"""The learned pair model: how likely two records are one paper (``kg.training.works`` trains it)."""

from __future__ import annotations

import json
from dataclasses import asdict, dataclass
from functools import cached_property, lru_cache
from importlib import resources
from pathlib import Path

import numpy as np

from kg.graph.trees import Trees
from kg.works.features import FEATURES

__all__ = ["WorkModel", "load_model", "MODEL_FILE", "TREES_FILE"]

MODEL_FILE = "model.json"  # in kg/works/data: the threshold and what the trees were trained on
TREES_FILE = "model.npz"  # the trees (kg.graph.trees)


@dataclass(frozen=True)
class WorkModel:
    threshold: float
    features: tuple[str, ...]
    trained_on: str
    folder: str = ""  # where its trees are (the package's data folder by default)

    @classmethod
    def describe(cls, threshold: float, pairs: int) -> "WorkModel":
        return cls(threshold, FEATURES, f"{pairs} labelled pairs of paper-matching-train.jsonl.gz (DBLP-ACM, DBLP-Scholar)")

    def save(self, path: Path) -> None:
        body = {k: v for k, v in asdict(self).items() if k != "folder"}
        Path(path).write_text(json.dumps(body, indent=1) + "\n", encoding="utf-8")

    @cached_property
    def trees(self) -> Trees:
        folder = Path(self.folder) if self.folder else resources.files("kg.works") / "data"
        with (folder / TREES_FILE).open("rb") as handle:
            return Trees.load(handle)

    def probability(self, rows: list[list[float]]) -> np.ndarray:
        """The probability that each pair (a row of ``FEATURES``) is one paper."""
        return self.trees.probability(np.asarray(rows, dtype=np.float64).reshape(-1, len(FEATURES)))


@lru_cache(maxsize=4)
def load_model(folder: str | None = None) -> WorkModel:
    """The shipped model, or the one in ``folder`` (``KG_WORKS_MODEL``: a ``model.json`` and a ``model.npz``)."""
    where = Path(folder) if folder else resources.files("kg.works") / "data"
    obj = json.loads((where / MODEL_FILE).read_text(encoding="utf-8"))
    if tuple(obj["features"]) != FEATURES:
        raise RuntimeError(f"{where / MODEL_FILE} was trained on other features: retrain it (python -m kg.training.works)")
    return WorkModel(obj["threshold"], tuple(obj["features"]), obj["trained_on"], str(folder or ""))
