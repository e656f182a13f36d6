"""Train the concept ranker on real author keywords.

    python -m kg.training.concepts [--data DIR] [--without iclr2024] [-o FILE]

Author keywords are what the authors themselves call the key concepts of their
paper. The training papers are the ones with real author keywords in
``../shared/data``: ICLR 2024 (``papers-iclr2024.jsonl``); from
``papers-paperlists.jsonl.gz``, ICLR 2017-2018, COLM 2024 and CoRL 2021-2024
(IJCAI's keywords are track topics, not author keywords, and are left out); and
the 8,359 papers with an abstract of ``keywords-openreview.jsonl.gz`` (ICLR
2019-2023, NeurIPS 2021-2023, EMNLP 2023). Those are training examples but not
part of the keyphraseness prior (``PRIOR_WEIGHTS``).

Each candidate the extractor finds in title + abstract is an example; it is
positive when one of the paper's keywords names the same concept (the same key
``kg ingest`` would give the keyword). The keyphraseness prior is cross-fitted:
a paper's prior comes from the papers of the other folds, so the model learns
how much to trust it on phrases it has not seen. The run is deterministic: the
same data give the same file.
"""

from __future__ import annotations

import argparse
import gzip
import hashlib
import json
import sys
from collections import Counter, defaultdict
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

from kg.extract.pipeline import MAX_DF_RATIO, ConceptExtractor, document_text
from kg.extract.ranker import candidate_stats
from kg.extract.ranker import FEATURES, Ranker, head_word, shipped_model_path

__all__ = ["TrainingPaper", "read_training_papers", "examples", "fit", "main"]

SOURCES = {
    "iclr2024": ("papers-iclr2024.jsonl", None),
    "paperlists": (
        "papers-paperlists.jsonl.gz",
        {"ICLR 2017", "ICLR 2018", "COLM 2024", "CoRL 2021", "CoRL 2022", "CoRL 2023", "CoRL 2024"},
    ),
    # ICLR 2019-2023, NeurIPS 2021-2023, EMNLP 2023: the 8,359 records with an abstract (no ICLR 2024 paper)
    "openreview": ("keywords-openreview.jsonl.gz", None),
}
FOLDS = 5


@dataclass(frozen=True, slots=True)
class TrainingPaper:
    id: str
    title: str
    abstract: str
    keywords: tuple[str, ...]
    venue: str = ""


def read_training_papers(data: Path, sources: list[str], *, titles_only: bool = False) -> Iterator[TrainingPaper]:
    """Papers with an abstract and author keywords, in file order (``titles_only``: those with a title and keywords
    but no abstract instead)."""
    for source in sources:
        name, venues = SOURCES[source]
        path = data / name
        opener = gzip.open if name.endswith(".gz") else open
        with opener(path, "rt", encoding="utf-8") as handle:
            for line in handle:
                row = json.loads(line)
                if venues is not None and row.get("venue") not in venues:
                    continue
                if row.get("keywords") and (row.get("title") and not row.get("abstract") if titles_only else row.get("abstract")):
                    yield TrainingPaper(
                        row["id"],
                        row.get("title") or "",
                        row.get("abstract") or "",
                        tuple(row["keywords"]),
                        row.get("venue") or "",
                    )


def _fold(paper_id: str) -> int:
    return int(hashlib.sha1(paper_id.encode()).hexdigest(), 16) % FOLDS


def examples(extractor: ConceptExtractor, papers: list[TrainingPaper], progress=None):
    """Per paper: its candidates' (key, stats, n_tokens, n_title) and the keys its keywords name."""
    texts = [document_text(p.title, p.abstract) for p in papers]
    cands = extractor.candidates((t for _, t in texts), progress)
    batch_defs: dict[str, Counter[str]] = defaultdict(Counter)
    for c in cands:
        for short, key in c.definitions.items():
            batch_defs[short][key] += 1
    out = []
    for paper, (prefix, text), cand in zip(papers, texts, cands, strict=True):
        n_title = extractor.title_tokens(prefix)
        stats = candidate_stats(extractor.resolve_shorts(cand, batch_defs), n_title)
        stats = {k: s for k, s in stats.items() if extractor.background.ratio(k) <= MAX_DF_RATIO}
        gold = {extractor.read_keyword(k, text, cand.definitions)[0] for k in paper.keywords}
        out.append((paper.id, stats, cand.n_tokens, n_title, gold))
    return out


PRIOR_WEIGHTS = {"openreview-": 0.0}  # papers whose id starts so count this much in the prior, 0: not at all (``_prior``)


def _prior(rows, of=lambda key: key, weights=PRIOR_WEIGHTS) -> dict[str, tuple[float, float]]:
    """(times chosen by the authors, papers it was a candidate in), per key or per ``of(key)``.

    The papers of ``keywords-openreview.jsonl.gz`` (ICLR, NeurIPS, EMNLP) are training examples but no part of
    the prior: in it, their machine-learning keyword habits raised ICLR 2024 and lowered the left-out robotics
    venue (CoRL 2024 F1@5 0.253 -> 0.235 at full weight, 0.241 at a tenth) and SciERC (0.356 -> 0.338).
    """
    chosen: Counter[str] = Counter()
    seen: Counter[str] = Counter()
    for pid, stats, _, _, gold in rows:
        weight = next((w for prefix, w in weights.items() if str(pid).startswith(prefix)), 1)
        if not weight:
            continue
        for item in {of(k) for k in stats}:
            seen[item] += weight
        for item in {of(k) for k in stats if k in gold}:
            chosen[item] += weight
    tidy = lambda v: int(v) if v == int(v) else round(v, 4)  # noqa: E731 - whole counts stay integers in the file
    return {k: (tidy(chosen[k]), tidy(seen[k])) for k in chosen}


def _priors(rows, weights=PRIOR_WEIGHTS) -> tuple[dict, dict]:
    return _prior(rows, weights=weights), _prior(rows, head_word, weights)


def fit(extractor: ConceptExtractor, rows, *, c: float = 1.0, prior_only=(), prior_weights=PRIOR_WEIGHTS) -> Ranker:
    """A logistic ranker over the candidates of ``rows``, with a cross-fitted prior (papers weighted by
    ``prior_weights``); ``prior_only`` rows (title-only papers) count in the prior, never as examples."""
    import numpy as np
    from sklearn.linear_model import LogisticRegression

    by_fold = defaultdict(list)
    for row in rows:
        by_fold[_fold(row[0])].append(row)
    x, y = [], []
    for fold in range(FOLDS):
        priors = _priors([r for f, rs in by_fold.items() if f != fold for r in rs] + list(prior_only), prior_weights)
        for _, stats, n_tokens, n_title, gold in by_fold[fold]:
            for key in sorted(stats):
                x.append(extractor.candidate_features(key, stats[key], n_tokens, n_title, priors))
                y.append(int(key in gold))
    xa = np.asarray(x, dtype=float)
    mean = xa.mean(axis=0)
    scale = xa.std(axis=0)
    scale[scale == 0] = 1.0
    model = LogisticRegression(C=c, max_iter=2000)
    model.fit((xa - mean) / scale, np.asarray(y))
    prior, head_prior = _priors(list(rows) + list(prior_only), prior_weights)
    return Ranker(
        mean=[round(float(v), 6) for v in mean],
        scale=[round(float(v), 6) for v in scale],
        coef=[round(float(v), 6) for v in model.coef_[0]],
        intercept=round(float(model.intercept_[0]), 6),
        prior=prior,
        head_prior=head_prior,
        meta={"examples": len(y), "positives": int(sum(y)), "papers": len(rows)},
    )


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--data", type=Path, default=Path("../shared/data"), help="folder with the training files")
    parser.add_argument("--without", action="append", default=[], choices=sorted(SOURCES), help="leave a source out")
    parser.add_argument("-o", "--output", type=Path, default=None, help="model file (default: the one kg ships)")
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument(
        "--openreview-prior-weight",
        type=float,
        default=PRIOR_WEIGHTS["openreview-"],
        help="how much each keywords-openreview paper counts in the keyphraseness prior; above 0 its "
        "title-only papers count too (the shipped model: 0)",
    )
    args = parser.parse_args(argv)
    sources = [s for s in SOURCES if s not in args.without]
    papers = list(read_training_papers(args.data, sources))
    extractor = ConceptExtractor.load(n_process=args.workers, trained=False)
    rows = examples(extractor, papers)
    weights = {"openreview-": args.openreview_prior_weight}
    titles = list(read_training_papers(args.data, sources, titles_only=True)) if args.openreview_prior_weight else []
    ranker = fit(extractor, rows, prior_only=examples(extractor, titles) if titles else (), prior_weights=weights)
    ranker.meta |= {"sources": sources, "features": len(FEATURES)}
    output = args.output or shipped_model_path()
    output.write_text(json.dumps(ranker.to_json(), separators=(",", ":"), ensure_ascii=False) + "\n", encoding="utf-8")
    print(
        f"{len(papers)} papers, {ranker.meta['examples']} candidates ({ranker.meta['positives']} named by authors), "
        f"{len(ranker.prior)} prior phrases -> {output}",
        file=sys.stderr,
    )


if __name__ == "__main__":
    main()
