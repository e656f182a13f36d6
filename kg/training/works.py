"""Train the paper-matching model (``kg/works/data``) and count the title vocabulary it blocks with.

    python -m kg.training.works [--data DIR] [--vocabulary]

``--vocabulary`` counts, over the titles of the scale corpus (``papers-paperlists.jsonl.gz``), how many
titles hold each folded word (``kg.works.fold.Vocabulary``; words in three titles or more).

Without it, a boosted tree ensemble (scikit-learn's ``HistGradientBoostingClassifier``, shipped as
arrays: ``kg.graph.trees``) learns ``kg.works.features.FEATURES`` from the labelled record pairs of
``paper-matching-train.jsonl.gz`` (DBLP against ACM and against Google Scholar: train and valid
splits). The join threshold is chosen on the valid split by a model fitted on the train split:
the threshold that gives the best mean F1 over the two sets, pair by pair; then the model that ships
is fitted on both splits. The run is deterministic.
"""

from __future__ import annotations

import argparse
import gzip
import json
from collections import Counter
from collections.abc import Sequence
from pathlib import Path

import numpy as np

from kg.graph.trees import Trees
from kg.works.features import FEATURES, features, signature
from kg.works.fold import VOCABULARY_FILE, Vocabulary, folded_title
from kg.works.model import MODEL_FILE, TREES_FILE, WorkModel

__all__ = ["count_vocabulary", "pair_rows", "fit", "choose_threshold", "main"]

PAIRS_FILE = "paper-matching-train.jsonl.gz"
CORPUS_FILE = "papers-paperlists.jsonl.gz"
MIN_TITLES = 3
THRESHOLDS = tuple(round(0.05 * i, 2) for i in range(4, 20))
DATA = Path(__file__).resolve().parents[1] / "works" / "data"


def count_vocabulary(titles: Sequence[str | None], min_titles: int = MIN_TITLES) -> Vocabulary:
    """How many titles hold each folded word (``folded_title``: no split, so the table does not feed on itself)."""
    df: Counter[str] = Counter()
    for title in titles:
        df.update(set(folded_title(title).split()))
    return Vocabulary(len(titles), {w: n for w, n in df.items() if n >= min_titles})


def read_pairs(data: Path) -> list[dict]:
    with gzip.open(data / PAIRS_FILE, "rt", encoding="utf-8") as handle:
        return [json.loads(line) for line in handle]


def _signature(side: dict):
    return signature(side.get("title"), side.get("authors") or [], side.get("year"), side.get("venue"), side.get("abstract"))


def pair_rows(pairs: Sequence[dict]) -> tuple[np.ndarray, np.ndarray]:
    """(features, labels) of labelled pairs."""
    X = np.array([features(_signature(p["left"]), _signature(p["right"])) for p in pairs], dtype=np.float64)
    return X, np.array([int(p["match"]) for p in pairs])


def fit(X: np.ndarray, y: np.ndarray):
    from sklearn.ensemble import HistGradientBoostingClassifier

    X = X.copy()
    X[:, np.isnan(X).all(axis=0)] = 0.0  # a feature no pair has (abstracts: the pairs have none) is never split on
    return HistGradientBoostingClassifier(max_iter=100, learning_rate=0.15, max_leaf_nodes=15, random_state=0).fit(X, y)


def _f1(y: np.ndarray, predicted: np.ndarray) -> float:
    tp = int((predicted & (y == 1)).sum())
    fp, fn = int((predicted & (y == 0)).sum()), int((~predicted & (y == 1)).sum())
    return 2 * tp / (2 * tp + fp + fn) if tp else 0.0


def choose_threshold(pairs: Sequence[dict]) -> tuple[float, dict]:
    """The threshold of the best mean F1 over the sets, on the valid split, for a model fitted on the train split."""
    train = [p for p in pairs if p["split"] == "train"]
    valid = [p for p in pairs if p["split"] == "valid"]
    X, y = pair_rows(train)
    trees = Trees.from_sklearn(fit(X, y), FEATURES)
    Xv, yv = pair_rows(valid)
    probability = trees.probability(Xv)
    sets = np.array([p["set"] for p in valid])
    table = {t: {s: _f1(yv[sets == s], probability[sets == s] >= t) for s in sorted(set(sets))} for t in THRESHOLDS}
    best = max(THRESHOLDS, key=lambda t: (round(sum(table[t].values()) / len(table[t]), 4), -abs(t - 0.5)))
    return best, table


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m kg.training.works", description=__doc__.split("\n\n")[0])
    parser.add_argument("--data", type=Path, default=Path("../shared/data"))
    parser.add_argument("--vocabulary", action="store_true", help="count the title vocabulary instead")
    args = parser.parse_args(argv)
    if args.vocabulary:
        with gzip.open(args.data / CORPUS_FILE, "rt", encoding="utf-8") as handle:
            titles = [json.loads(line).get("title") for line in handle]
        vocabulary = count_vocabulary(titles)
        with open(DATA / VOCABULARY_FILE, "wb") as out, gzip.GzipFile(filename="", mode="wb", fileobj=out, mtime=0) as raw:
            raw.write(json.dumps(vocabulary.to_json(), separators=(",", ":")).encode("utf-8"))
        print(f"{len(vocabulary.df)} words of {vocabulary.n_titles} titles -> {DATA / VOCABULARY_FILE}")
        return 0
    pairs = read_pairs(args.data)
    threshold, table = choose_threshold(pairs)
    for t, row in table.items():
        print(
            f"threshold {t:.2f}: "
            + ", ".join(f"{s} F1 {f:.4f}" for s, f in row.items())
            + (" <- chosen" if t == threshold else "")
        )
    X, y = pair_rows(pairs)
    Trees.from_sklearn(fit(X, y), FEATURES).save(DATA / TREES_FILE)
    WorkModel.describe(threshold, len(pairs)).save(DATA / MODEL_FILE)
    print(f"{len(pairs)} pairs; threshold {threshold} -> {DATA}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
