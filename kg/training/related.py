"""Train the related-papers ranker (``kg.graph.rerank``) on citation links.

    python -m kg.training.related [--data ../shared/data] [-o kg/graph/data/related.npz] [--folds 2]

The 6,545 papers of ``citations-dev.json.gz`` (title, abstract, and the year their arXiv id
gives) are ingested into a fresh embedded store ranked by similarity alone. Then all of them
are linked again at once with a ranker that only records: each paper's pool of ``rerank.POOL``
similar papers, with the pool's features. A pool member is a positive when one of the two
papers cites the other in the file's links (its development half), and a negative otherwise.
scikit-learn fits the trees (``HistGradientBoostingClassifier``, seeded), saved as arrays.

``--folds K`` first reports recall@10 within the pools under K-fold cross-validation by paper
(a fold's papers are held out from training, and their links judge it): similarity's ranking
against the ranker's (leaned toward similarity as shipped).
"""

from __future__ import annotations

import argparse
import gzip
import json
import re
import tempfile
import zlib
from pathlib import Path

import numpy as np

from kg.graph.rerank import FEATURES, POOL, features, lean, scores
from kg.graph.shares import shared_concept_edges, similarity
from kg.graph.trees import Trees

DEFAULT_DATA = Path(__file__).resolve().parents[2].parent / "shared" / "data"
DEFAULT_OUT = Path(__file__).resolve().parents[1] / "graph" / "data" / "related.npz"  # what kg.graph.rerank loads
_ARXIV = re.compile(r"^(\d{2})(\d{2})\.\d{4,5}")


def arxiv_year(arxiv_id: str) -> int | None:
    """The year a new-style arXiv id was given (its first two digits).

    >>> arxiv_year("1706.03762v7"), arxiv_year("cs/0101001")
    (2017, None)
    """
    found = _ARXIV.match(arxiv_id)
    return 2000 + int(found.group(1)) if found else None


def citation_records(data: Path) -> tuple[list[dict], dict[str, set[str]]]:
    """The papers of ``citations-dev.json.gz`` as kg records, and each paper's citing and cited papers."""
    with gzip.open(data / "citations-dev.json.gz", "rt", encoding="utf-8") as handle:
        found = json.load(handle)
    rows = [
        {"id": p["id"], "title": p["title"], "abstract": p["abstract"], "authors": [], "year": arxiv_year(p["id"])}
        for p in found["papers"]
    ]
    links: dict[str, set[str]] = {}
    for citing, cited in found["edges"]:
        links.setdefault(citing, set()).add(cited)
        links.setdefault(cited, set()).add(citing)
    return rows, links


class _Recorder:
    """A ranker that keeps every pool it is shown and scores nothing."""

    def __init__(self):
        self.pools = []

    def score_pools(self, pools):
        self.pools.extend((paper, list(others), mine, signals, theirs) for paper, others, mine, signals, theirs, _ in pools)
        return [np.zeros(len(p[1])) for p in pools]


def ingest_rows(rows: list[dict], folder: Path, **settings):
    """The rows ingested from a JSON Lines file into a fresh embedded store in ``folder``; its service."""
    from kg.config import Settings
    from kg.service import KGService
    from kg.store.embedded import EmbeddedStore

    source = folder / "papers.jsonl"
    source.write_text("".join(json.dumps(r) + "\n" for r in rows), encoding="utf-8")
    config = Settings(KG_DATA_DIR=folder / "store", **settings)
    service = KGService(EmbeddedStore(config.data_dir), config)
    service.ingest([source])
    return service


def pools(rows: list[dict]) -> list[tuple]:
    """Every paper's pool as ingest builds it: (paper, pool ids, its stats, pool cosines, pool stats)."""
    with tempfile.TemporaryDirectory() as tmp:
        service = ingest_rows(rows, Path(tmp), KG_RELATED_RANKING="similarity")
        ids = [r["id"] for r in rows]
        keys = sorted({c.key for concepts in service.store.concepts_of_papers(ids) for c in concepts})
        touched: dict[str, dict[str, float]] = {}
        for key, postings in service.store.papers_with_concepts(keys).items():
            for pid, weight, _ in postings:
                touched.setdefault(pid, {})[key] = weight
        topics = service.store.topics_of_papers(ids)
    recorder = _Recorder()
    shared_concept_edges(
        touched,
        {},
        len(ids),
        topics_of=lambda q: {i: topics[i] for i in q if i in topics},
        years={r["id"]: r["year"] for r in rows},
        ranker=recorder,
    )
    return recorder.pools


def fit(pools_, links, skip=lambda paper, other: False) -> Trees:
    """The trees fitted on the pools, leaving out the pairs ``skip`` names."""
    from sklearn.ensemble import HistGradientBoostingClassifier

    x, y = [], []
    for paper, others, mine, signals, theirs in pools_:
        keep = [k for k, o in enumerate(others) if not skip(paper, o)]
        x.append(features(mine, signals, theirs)[keep])
        y.extend(others[k] in links.get(paper, ()) for k in keep)
    model = HistGradientBoostingClassifier(
        max_iter=100, learning_rate=0.05, max_leaf_nodes=15, min_samples_leaf=200, random_state=0
    )
    model.fit(np.vstack(x), np.array(y))
    return Trees.from_sklearn(model, FEATURES)


def fold_of(paper: str, folds: int) -> int:
    """The cross-validation fold of a paper: a hash of its id."""
    return zlib.crc32(paper.encode()) % folds


def held_out(pools_, links, f: int, folds: int) -> Trees:
    """Trees fitted without fold ``f``: none of its papers' pools, and none of its papers as a positive."""
    return fit(
        [p for p in pools_ if fold_of(p[0], folds) != f],
        links,
        skip=lambda a, b: fold_of(b, folds) == f and b in links.get(a, ()),
    )


def cross_validate(pools_, links, folds: int, k: int = 10) -> dict[str, float]:
    """Recall@k within the pools of the held-out fold's linked papers: similarity's order against the ranker's."""
    fold = {paper: fold_of(paper, folds) for paper, *_ in pools_}
    found = {"similarity": [], "ranker": []}
    for f in range(folds):
        trees = held_out(pools_, links, f, folds)
        for paper, others, mine, signals, theirs in pools_:
            if fold[paper] == f and paper in links:
                leaned = lean(scores(trees, mine, signals, theirs), similarity(signals))
                by_ranker = np.argsort(-leaned, kind="stable")[:k]
                for name, order in (("similarity", range(min(k, len(others)))), ("ranker", by_ranker)):
                    found[name].append(len({others[i] for i in order} & links[paper]) / len(links[paper]))
    return {name: round(float(np.mean(v)), 4) for name, v in found.items()}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--data", type=Path, default=DEFAULT_DATA)
    parser.add_argument("-o", "--out", type=Path, default=DEFAULT_OUT)
    parser.add_argument("--folds", type=int, default=0, help="report K-fold recall@10 within the pools first")
    args = parser.parse_args()
    rows, links = citation_records(args.data)
    found = pools(rows)
    print(f"{len(found)} pools of up to {POOL} papers, {sum(len(p[1]) for p in found)} pairs")
    if args.folds:
        print("cross-validated recall@10 within the pools:", cross_validate(found, links, args.folds))
    trees = fit(found, links)
    trees.save(args.out)
    print(f"wrote {args.out} ({args.out.stat().st_size:,} bytes, {len(trees.roots)} trees)")


if __name__ == "__main__":
    main()
