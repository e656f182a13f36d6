"""Train the author model on the venues' own author ids, and score who-is-who (B3).

    python -m kg.training.authors [--data DIR] [-o FILE] [--cv]

Each mention with an id is compared, in corpus order, with every person of its
block whose name it fits, as ``Assigner`` will compare it; the example is
positive when that person has the mention's id (IEEE's second profiles read as one person:
``second_profiles``). A logistic regression (scikit-learn) learns the weights; the threshold is
the one that does best in cross-validation grouped by venue, each fold clustered alone, on B3 F1
over all names and over names several people share (``cross_validate``). The run is deterministic.

The three id systems number people by different rules: IEEE gives one person a
second id now and then, the ACL Anthology keys its ids by spelling, OpenReview
profiles are kept by the people themselves. So the same evidence is "one person"
more often in one source than in another. The fit therefore takes the source as
a nuisance: one indicator per source beside the features, so that each source's
base rate is learned apart and the features' weights are learned within sources
(otherwise a feature that merely reveals the source, such as an affiliation
being printed at all, would carry its labelling rule). The indicators are then
folded into the intercept at their average over the training pairs: the model
that ships has the same features as before and needs no source at ingest.
"""

from __future__ import annotations

import argparse
import gzip
import json
import sys
from dataclasses import replace
from collections import Counter, defaultdict
from collections.abc import Iterable, Mapping, Sequence
from pathlib import Path

from kg.authors.assign import MODEL_PATH, Assigner, Block, PairModel, People, Person
from kg.authors.features import name_level
from kg.authors.profile import Profile
from kg.training.author_papers import (
    TrainingPaper,
    concepts_cache,
    paper_mentions,
    read_training_papers,
    with_second_profiles_joined,
)

__all__ = ["examples", "fit", "cluster", "b3", "score", "cv_predictions", "alone_scores", "weighted", "main"]

THRESHOLDS = (0.03, 0.05, 0.1, 0.15, 0.2, 0.3)
TIE = 0.001  # B3 F1 this close to the best is a tie (cross_validate)
FOLDS = 5


def fold_of(venue: str) -> int:
    """The cross-validation fold of a venue (a venue with its year: all its papers are in one fold)."""
    import hashlib

    return int(hashlib.sha1(venue.encode("utf-8")).hexdigest(), 16) % FOLDS


def examples(papers: Sequence[TrainingPaper], concepts: Mapping[str, tuple[str, ...]]):
    """(features, label, venue group, id source) for every mention with an id against every fitting person of its
    block."""
    blocks: dict[str, Block] = defaultdict(Block)
    people: dict[str, Person] = {}
    X, y, groups, sources = [], [], [], []
    for paper in papers:
        group = paper.venue
        mentions = paper_mentions(paper, concepts.get(paper.id, ()))
        on_paper = {gold for _, gold in mentions}
        for m, gold in mentions:
            if not gold:
                continue
            block = blocks[m.block]
            found = [
                (p, lvl)
                for p in block.people
                if p.key not in on_paper or p.key == gold
                if (lvl := name_level(m.name, p.profile.names))
            ]
            for p, x in block.pairs(m, found):
                X.append(x)
                y.append(int(p.key == gold))
                groups.append(group)
                sources.append(gold.split(":", 1)[0])
            person = people.get(gold)
            if person is None:
                person = people[gold] = Person(gold, m.written, m.block, Profile(), _blocks=set())
                block.people.append(person)
            person.add(m)
            block.saw(m)
    return X, y, groups, sources


def fit(X, y, sources: Sequence[str], threshold: float = 0.5) -> tuple[PairModel, dict[str, float]]:
    """The model, and each id source's learned offset (its base rate against the others'; see the module's text)."""
    import numpy as np
    from sklearn.linear_model import LogisticRegression

    X = np.asarray(X, dtype=float)
    mean, scale = X.mean(axis=0), X.std(axis=0)
    scale[scale == 0] = 1.0
    names = sorted(set(sources))
    indicators = np.array([[1.0 if s == n else 0.0 for n in names] for s in sources])
    lr = LogisticRegression(C=1.0, max_iter=3000).fit(np.hstack([(X - mean) / scale, indicators]), np.asarray(y))
    coef, offsets = lr.coef_[0][: X.shape[1]], lr.coef_[0][X.shape[1] :]
    intercept = float(lr.intercept_[0] + offsets @ indicators.mean(axis=0))  # the sources at their training mix
    model = PairModel(tuple(mean.round(6)), tuple(scale.round(6)), tuple(coef.round(6)), round(intercept, 6), threshold)
    return model, {n: round(float(w), 3) for n, w in zip(names, offsets)}


def cluster(
    papers: Sequence[TrainingPaper], concepts: Mapping[str, tuple[str, ...]], model: PairModel
) -> dict[tuple[str, int], str]:
    """(paper id, byline position) -> person key, as an ingest of these papers (without ids) assigns them."""
    people = People()
    assigner = Assigner(people, model)
    out = {}
    for paper in papers:
        mentions = [m for m, _ in paper_mentions(paper, concepts.get(paper.id, ()))]
        people.prepare(mentions)
        for d in assigner.assign(mentions):
            out[d.mention.paper, d.mention.position] = d.person.key
    return out


def b3(pred: Mapping, gold: Mapping, only=None) -> tuple[float, float, float]:
    """B3 precision, recall and F1 over the mentions of ``gold`` (restricted to ``only`` if given).

    Clusters are compared within the gold mentions: a predicted cluster counts only its gold mentions.
    """
    by_pred, by_gold = defaultdict(set), defaultdict(set)
    for m, g in gold.items():
        by_pred[pred[m]].add(m)
        by_gold[g].add(m)
    ms = [m for m in gold if only is None or m in only]
    if not ms:
        return 0.0, 0.0, 0.0
    p = r = 0.0
    for m in ms:
        a, b = by_pred[pred[m]], by_gold[gold[m]]
        common = len(a & b)
        p += common / len(a)
        r += common / len(b)
    p, r = p / len(ms), r / len(ms)
    return p, r, (2 * p * r / (p + r) if p + r else 0.0)


def gold_mentions(papers: Sequence[TrainingPaper]) -> tuple[dict, dict, dict]:
    """(paper, position) -> source-tagged id; -> written name; -> venue group, for mentions with ids (bylines deduplicated)."""
    gold, written, group = {}, {}, {}
    for paper in papers:
        for m, g in paper_mentions(paper, ()):
            if g:
                gold[m.paper, m.position] = g
                written[m.paper, m.position] = m.written
                group[m.paper, m.position] = paper.venue
    return gold, written, group


def hard_sets(gold: Mapping, written: Mapping) -> tuple[set, set]:
    """Mentions whose folded name two or more people share; mentions of people written more than one way."""
    from kg.authors.names import parse_name

    people_of_name = defaultdict(set)
    names_of_person = defaultdict(set)
    for m, g in gold.items():
        people_of_name[parse_name(written[m]).full].add(g)
        names_of_person[g].add(written[m])
    shared = {m for m in gold if len(people_of_name[parse_name(written[m]).full]) > 1}
    variants = {m for m, g in gold.items() if len(names_of_person[g]) > 1}
    return shared, variants


def score(pred: Mapping, gold: Mapping, written: Mapping) -> dict:
    """B3 per id source (each scored on its own ids), overall and on the two hard sets."""
    shared, variants = hard_sets(gold, written)
    out = {}
    sources = sorted({g.split(":", 1)[0] for g in gold.values()})
    for source in [None, *sources]:
        part = {m: g for m, g in gold.items() if source is None or g.startswith(source + ":")}
        # one id system's people are comparable only with each other: score each source on its own
        per = [{m: g for m, g in part.items() if g.startswith(s + ":")} for s in sources] if source is None else [part]
        rows = []
        for sub in per:
            if sub:
                n = len(sub)
                rows.append(
                    (
                        n,
                        b3(pred, sub),
                        b3(pred, sub, shared),
                        b3(pred, sub, variants),
                        len(shared & sub.keys()),
                        len(variants & sub.keys()),
                    )
                )
        total = sum(r[0] for r in rows)
        avg = lambda i, w, rows=rows: tuple(sum(r[i][k] * r[w] for r in rows) / max(1, sum(r[w] for r in rows)) for k in range(3))
        out[source or "all"] = {"mentions": total, "b3": avg(1, 0), "shared_name": avg(2, 4), "variants": avg(3, 5)}
    return out


def name_keyed(gold: Mapping, written: Mapping) -> dict:
    """kg before people: every mention is keyed by its cleaned, case-folded name."""
    from kg.graph.identity import author_key

    return {m: author_key(written[m]) for m in gold}


def count_names(bylines: Iterable[Sequence[str]], output: Path, minimum: int = 3) -> None:
    """Surname and first-given-name counts over bylines (names, never people), kept where seen ``minimum`` times.

    What ships counts the training venues' bylines only (``author-ids-train.jsonl.gz``'s papers and the OpenReview
    keyword file's): none of the venues whose ids are held out to judge the people stage."""
    from kg.authors.names import parse_name

    surnames, given, full = Counter(), Counter(), Counter()
    for byline in bylines:
        for raw in byline:
            name = parse_name(raw)
            if name is None:
                continue
            surnames[name.surname] += 1
            if name.given and len(name.given[0]) > 1:
                given[name.given[0]] += 1
                full[f"{name.given[0]} {name.surname}"] += 1
    keep = lambda c: dict(sorted((k, n) for k, n in c.items() if n >= minimum))
    text = json.dumps(
        {"surnames": keep(surnames), "given": keep(given), "full": keep(full)}, ensure_ascii=False, separators=(",", ":")
    )
    output.write_bytes(gzip.compress(text.encode("utf-8"), compresslevel=9, mtime=0))


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m kg.training.authors", description=__doc__.split("\n")[0])
    parser.add_argument("--data", type=Path, default=Path("../shared/data"))
    parser.add_argument("-o", "--output", type=Path, default=MODEL_PATH)
    parser.add_argument("--cache", type=Path, default=Path.home() / ".cache" / "kg" / "author-train-concepts.json.gz")
    parser.add_argument("--cv", action="store_true", help="choose the threshold by cross-validation grouped by venue")
    parser.add_argument(
        "--name-counts", action="store_true", help="first recount the name table from the training venues' bylines"
    )
    args = parser.parse_args(argv)
    papers = with_second_profiles_joined(list(read_training_papers(args.data)))  # IEEE's second profiles: one person
    if args.name_counts:
        from kg.authors.features import NAME_COUNTS, name_counts

        count_names((p.authors for p in papers), NAME_COUNTS)
        name_counts.cache_clear()
    concepts = concepts_cache(papers, args.cache)
    X, y, groups, sources = examples(papers, concepts)
    print(f"{len(papers)} papers, {len(y)} pairs ({sum(y)} same person)", file=sys.stderr)
    threshold = 0.5
    if args.cv:
        threshold = cross_validate(papers, concepts, X, y, groups, sources)
    model, offsets = fit(X, y, sources, threshold)
    args.output.write_text(
        json.dumps(
            model.to_json(
                trained_on={
                    "papers": len(papers),
                    "pairs": len(y),
                    "sources": "author-ids-train.jsonl.gz, keywords-openreview.jsonl.gz",
                    "pairs_by_id_source": dict(sorted(Counter(sources).items())),
                    "id_source_offsets": offsets,
                }
            ),
            indent=1,
        )
        + "\n",
        encoding="utf-8",
    )
    print(f"wrote {args.output}", file=sys.stderr)
    return 0


def cv_predictions(papers, concepts, X, y, groups, sources, thresholds) -> dict[float, dict]:
    """Grouped by venue (and year): each fold's mentions clustered, with every paper ingested, by a model that never
    saw the fold's pairs; threshold -> (paper, position) -> person key, for the mentions with ids."""
    gold, _, group_of = gold_mentions(papers)
    preds: dict[float, dict] = {t: {} for t in thresholds}
    for fold in range(FOLDS):
        idx = [i for i, g in enumerate(groups) if fold_of(g) != fold]
        base, _ = fit([X[i] for i in idx], [y[i] for i in idx], [sources[i] for i in idx])
        for t in thresholds:
            pred = cluster(papers, concepts, replace(base, threshold=t))
            preds[t].update({m: pred[m] for m in gold if fold_of(group_of[m]) == fold})
    return preds


def alone_scores(papers, concepts, X, y, groups, sources, thresholds) -> dict[float, dict]:
    """Grouped by venue (and year): each fold's papers clustered *alone* (a fresh store, as a user's library or a
    held-out venue is) by a model trained on the other folds' pairs, at each threshold; threshold -> the scores
    (``score``) of each fold on its own mentions, averaged over the folds by mentions."""
    gold, written, group_of = gold_mentions(papers)
    per_fold: dict[float, list[dict]] = {t: [] for t in thresholds}
    for fold in range(FOLDS):
        idx = [i for i, g in enumerate(groups) if fold_of(g) != fold]
        base, _ = fit([X[i] for i in idx], [y[i] for i in idx], [sources[i] for i in idx])
        fold_gold = {k: v for k, v in gold.items() if fold_of(group_of[k]) == fold}
        fold_written = {k: written[k] for k in fold_gold}
        fold_papers = [p for p in papers if fold_of(p.venue) == fold]
        for t in thresholds:
            per_fold[t].append(score(cluster(fold_papers, concepts, replace(base, threshold=t)), fold_gold, fold_written))
    return {t: weighted(rows) for t, rows in per_fold.items()}


def weighted(per_fold: list[dict]) -> dict:
    """Per-fold scores averaged by each fold's mentions (of each source and hard set)."""
    out = {}
    for source in sorted({s for scores in per_fold for s in scores}, key=lambda s: (s != "all", s)):
        rows = [scores[source] for scores in per_fold if source in scores]
        total = sum(r["mentions"] for r in rows) or 1
        out[source] = {"mentions": sum(r["mentions"] for r in rows)}
        for k in ("b3", "shared_name", "variants"):
            out[source][k] = tuple(sum(r["mentions"] * r[k][i] for r in rows) / total for i in range(3))
    return out


def cross_validate(papers, concepts, X, y, groups, sources) -> float:
    """The threshold that does best, in cross-validation grouped by venue with each fold clustered alone, on the
    mean of B3 F1 over all authorships and B3 F1 over those whose name two or more people share (each printed).

    Over all authorships alone, the lowest threshold wins by a hair: most names are one person's, and joining
    them is nearly always right. The shared names are where a join needs evidence, so they weigh as much.
    Thresholds within ``TIE`` of the best are not told apart; of those, the highest is taken, which joins least.
    """
    scores = alone_scores(papers, concepts, X, y, groups, sources, THRESHOLDS)
    goal = {}
    for t in THRESHOLDS:
        s = scores[t]["all"]
        print(json.dumps({"threshold": t, **scores[t]}), file=sys.stderr)
        goal[t] = (s["b3"][2] + s["shared_name"][2]) / 2
    return max(t for t in THRESHOLDS if goal[t] >= max(goal.values()) - TIE)


if __name__ == "__main__":
    raise SystemExit(main())
