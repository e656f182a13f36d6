"""One paper, one node: which records kg takes for one paper, scored.

    python bench/works.py pairs [--data ../shared/data] [--json out.json] [--neo4j URI]
    python bench/works.py corpus [--data ../shared/data] [--json out.json]

``pairs``: the labelled record pairs of ``paper-matching-train.jsonl.gz`` (DBLP against ACM, DBLP against
Google Scholar), per set:

- *cv*: the pair model alone, five folds over train and valid together, grouped by record (no record in two
  folds), each fold scored by a model fitted on the other four at the shipped threshold;
- *valid, pairs*: fitted on the train split, scored on the valid split, pair by pair;
- *valid, ingest*: as the held-out judge does it. Each side of the valid split's pairs is written as its own
  JSON Lines file (one record per distinct record, with an id), ingested by the real ingest into a fresh store
  (left then right, and right then left) with the model fitted on the train split (``KG_WORKS_MODEL``); a pair
  is predicted one paper when ``paper(id:)`` of both ids gives one paper.

``corpus``: the 95k scale corpus through the work stage alone (no extraction; the joins are the ingest's, which
decides them before extracting), listing every paper made of more than one record with why, for reading.
"""

from __future__ import annotations

import argparse
import json
import tempfile
import time
from collections import Counter, defaultdict
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parent.parent
DEFAULT_DATA = ROOT.parent / "shared" / "data"
SETS = ("dblp-acm", "dblp-scholar")


def f1(tp: int, fp: int, fn: int) -> dict:
    p = tp / (tp + fp) if tp + fp else 0.0
    r = tp / (tp + fn) if tp + fn else 0.0
    return {"precision": round(p, 4), "recall": round(r, 4), "f1": round(2 * p * r / (p + r), 4) if p + r else 0.0}


def scored(labels, predicted) -> dict:
    y, hat = np.asarray(labels, dtype=bool), np.asarray(predicted, dtype=bool)
    return f1(int((y & hat).sum()), int((~y & hat).sum()), int((y & ~hat).sum()))


def record_folds(pairs: list[dict], k: int = 5) -> list[int]:
    """Each pair's fold, grouped so that a record (and every pair it is in) lies in one fold: connected records
    are one group, groups dealt to folds by a hash of their smallest record."""
    import hashlib

    parent: dict[str, str] = {}

    def find(x):
        while parent.setdefault(x, x) != x:
            parent[x] = parent[parent[x]]
            x = parent[x]
        return x

    keys = [
        (f"{p['set']}|L|{json.dumps(p['left'], sort_keys=True)}", f"{p['set']}|R|{json.dumps(p['right'], sort_keys=True)}")
        for p in pairs
    ]
    for a, b in keys:
        parent[find(a)] = find(b)
    return [int(hashlib.sha1(find(a).encode()).hexdigest(), 16) % k for a, _ in keys]


def cross_validated(pairs: list[dict], threshold: float) -> dict:
    from kg.graph.trees import Trees
    from kg.training.works import fit, pair_rows
    from kg.works.features import FEATURES

    X, y = pair_rows(pairs)
    folds = np.array(record_folds(pairs))
    predicted = np.zeros(len(pairs), dtype=bool)
    for k in range(5):
        trees = Trees.from_sklearn(fit(X[folds != k], y[folds != k]), FEATURES)
        predicted[folds == k] = trees.probability(X[folds == k]) >= threshold
    sets = np.array([p["set"] for p in pairs])
    return {s: scored(y[sets == s], predicted[sets == s]) for s in SETS}


def _files(pairs: list[dict], folder: Path) -> tuple[Path, Path, list[tuple[str, str, int]]]:
    """The two sides of these pairs as JSON Lines files of distinct records, and the pairs by record id."""
    ids: dict[tuple[str, str], str] = {}
    rows: dict[str, list[dict]] = {"L": [], "R": []}

    def record(side: str, r: dict) -> str:
        key = (side, json.dumps(r, sort_keys=True))
        if key not in ids:
            ids[key] = f"{side}{len(ids)}"
            rows[side].append(
                {"id": ids[key], "title": r["title"], "authors": r["authors"], "venue": r["venue"] or None, "year": r["year"]}
            )
        return ids[key]

    labelled = [(record("L", p["left"]), record("R", p["right"]), p["match"]) for p in pairs]
    paths = []
    for side in ("L", "R"):
        path = folder / f"{side}.jsonl"
        path.write_text("".join(json.dumps(r) + "\n" for r in rows[side]), encoding="utf-8")
        paths.append(path)
    return paths[0], paths[1], labelled


def ingested(pairs: list[dict], model_dir: Path, order: str, neo4j: str | None) -> dict:
    """Both sides ingested one file after the other by the real ingest, scored pair by pair through ``paper(id:)``."""
    from kg.config import Settings
    from kg.service import KGService
    from kg.store import open_store

    with tempfile.TemporaryDirectory() as tmp:
        left, right, labelled = _files(pairs, Path(tmp))
        env = {"KG_DATA_DIR": Path(tmp) / "store", "KG_WORKS_MODEL": model_dir}
        if neo4j:
            env["NEO4J_URI"] = neo4j
        settings = Settings(**env)
        service = KGService(open_store(settings), settings)
        try:
            if neo4j:
                service.migrate()
                _wipe(service)
            started = time.perf_counter()
            for path in (left, right) if order == "left first" else (right, left):
                service.ingest([path])
            seconds = time.perf_counter() - started
            ids = sorted({i for a, b, _ in labelled for i in (a, b)})
            paper = {i: (p.id if (p := service.paper(i)) is not None else None) for i in ids}
        finally:
            service.close()
    assert all(paper.values()), "a record's id found no paper"
    out = scored([m for _, _, m in labelled], [paper[a] == paper[b] for a, b, _ in labelled])
    return out | {"records": len(ids), "papers": len(set(paper.values())), "seconds": round(seconds, 1)}


def _wipe(service) -> None:
    with service.store.driver.session(database=service.store.database) as session:
        session.run("MATCH (n) WHERE NOT n:KgMigration CALL { WITH n DETACH DELETE n } IN TRANSACTIONS").consume()


def pairs_mode(args) -> dict:
    from kg.graph.trees import Trees
    from kg.training.works import choose_threshold, fit, pair_rows, read_pairs
    from kg.works.features import FEATURES
    from kg.works.model import TREES_FILE, WorkModel, load_model

    pairs = read_pairs(args.data)
    shipped = load_model()
    train = [p for p in pairs if p["split"] == "train"]
    valid = [p for p in pairs if p["split"] == "valid"]
    threshold, _ = choose_threshold(pairs)
    results: dict = {
        "threshold": threshold,
        "shipped threshold": shipped.threshold,
        "cv": cross_validated(pairs, shipped.threshold),
    }
    X, y = pair_rows(train)
    trees = Trees.from_sklearn(fit(X, y), FEATURES)
    Xv, yv = pair_rows(valid)
    sets = np.array([p["set"] for p in valid])
    hat = trees.probability(Xv) >= threshold
    results["valid pairs"] = {s: scored(yv[sets == s], hat[sets == s]) for s in SETS}
    with tempfile.TemporaryDirectory() as model_dir:
        trees.save(Path(model_dir) / TREES_FILE)
        WorkModel.describe(threshold, len(train)).save(Path(model_dir) / "model.json")
        for store, uri in (("embedded", None), *((("neo4j", args.neo4j),) if args.neo4j else ())):
            for order in ("left first", "right first"):
                for s in SETS:
                    found = ingested([p for p in valid if p["set"] == s], Path(model_dir), order, uri)
                    results.setdefault(f"valid ingest, {store}, {order}", {})[s] = found
                    print(store, order, s, found, flush=True)
    return results


def corpus_mode(args) -> dict:
    from kg.readers import read_path
    from kg.works.resolve import Works

    works = Works()
    groups: dict[str, list] = defaultdict(list)
    started = time.perf_counter()
    n = 0
    for record in read_path(args.data / "papers-paperlists.jsonl.gz"):
        d = works.assign(record)
        groups[d.paper].append((record.id, record.venue, record.title, d.why))
        n += 1
    seconds = time.perf_counter() - started
    joined = {pid: rows for pid, rows in groups.items() if len(rows) > 1}
    why = Counter(row[3].split(" (")[0].split(" ")[0] for rows in joined.values() for row in rows[1:])
    return {
        "records": n,
        "papers": len(groups),
        "papers of several records": len(joined),
        "joined by": dict(why),
        "seconds": round(seconds, 1),
        "joins": {pid: rows for pid, rows in sorted(joined.items())},
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("mode", choices=("pairs", "corpus"))
    parser.add_argument("--data", type=Path, default=DEFAULT_DATA)
    parser.add_argument("--json", type=Path)
    parser.add_argument("--neo4j", help="also ingest into this (wiped) Neo4j, e.g. the URI `kg neo4j start` prints")
    args = parser.parse_args()
    results = pairs_mode(args) if args.mode == "pairs" else corpus_mode(args)
    text = json.dumps(results, indent=1, ensure_ascii=False)
    if args.json:
        args.json.write_text(text + "\n", encoding="utf-8")
    print(text if args.mode == "pairs" else json.dumps({k: v for k, v in results.items() if k != "joins"}, indent=1))


if __name__ == "__main__":
    main()
