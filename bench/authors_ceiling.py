"""What the records can tell apart: shared names in one IEEE venue over many years, against IEEE's ids.

    python bench/authors_ceiling.py [--years odd|even] [--data ../shared/data] [--json out.json]

The papers are ``bench/authors.py span``'s: ICRA's odd years, 2001 to 2023, every authorship with its IEEE
id (``--years even``: its even years, 2000 to 2024, the same question on other papers). No model is involved. Two things are measured:

1. **Clusterings that use co-authors perfectly**, scored like the bench (B3 overall and on shared names):
   every name split where its mentions share no co-author, directly or through a chain of mentions that
   do; each IEEE id split the same way (what requiring a co-author chain costs the ids' own people); and
   the ids of one name joined where they share co-authors (a method that finds one person behind a
   second id, and is otherwise told the truth).
2. **What separates namesakes with no co-author in common**: over every pair of mentions of a shared
   name that share no co-author, whether the two are one id, and the ROC AUC of each signal a record
   gives for that: kg's topic vectors (cosine), tf-idf of title and abstract (cosine), the title alone,
   the years between them, how common the name is, and how few steps of the co-author graph (the name
   itself taken out) lead from one mention's co-authors to the other's; and of all of them together (a logistic model,
   cross-validated in five folds grouped by name). An AUC of 0.5 is a coin; a signal that could split
   these pairs well would sit near 1.
"""

from __future__ import annotations

import argparse
import importlib.util
import itertools
import json
from collections import defaultdict
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
_spec = importlib.util.spec_from_file_location("bench_authors", ROOT / "bench" / "authors.py")
B = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(B)


MAX_STEPS = 6  # co-author graph steps searched; a pair further apart counts as not linked


def steps_between(graph, sources, targets, skip: str) -> int:
    """The fewest co-author links from any of ``sources`` to any of ``targets``, never through ``skip`` (the name
    in question); ``MAX_STEPS + 1`` when none within ``MAX_STEPS``."""
    seen, frontier, targets = set(sources), list(sources), set(targets)
    for step in range(MAX_STEPS + 1):
        if seen & targets:
            return step
        reached = {v for u in frontier for v in graph[u]} - seen - {skip}
        seen |= reached
        frontier = list(reached)
        if not frontier:
            break
    return MAX_STEPS + 1


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--years", choices=["odd", "even"], default="odd", help="ICRA's odd years (span's) or its even years")
    parser.add_argument("--data", type=Path, default=B.DEFAULT_DATA)
    parser.add_argument("--json", type=Path)
    args = parser.parse_args()

    import numpy as np
    from sklearn.feature_extraction.text import TfidfVectorizer
    from sklearn.linear_model import LogisticRegression
    from sklearn.metrics import roc_auc_score
    from sklearn.model_selection import GroupKFold, cross_val_predict
    from sklearn.pipeline import make_pipeline
    from sklearn.preprocessing import StandardScaler

    from kg.authors.features import commonness, topic_cosine
    from kg.training import authors as T
    from kg.training.author_papers import read_training_papers

    papers = [p for p in read_training_papers(args.data, openreview=False) if B.in_span(p, args.years == "odd")]
    bylines = [T.paper_mentions(p, ()) for p in papers]
    mentions = {(m.paper, m.position): (m, g) for byline in bylines for m, g in byline if g}
    graph = defaultdict(set)  # folded full name -> the names it shared a byline with
    for byline in bylines:
        for (a, _), (b, _) in itertools.combinations(byline, 2):
            graph[a.name.full].add(b.name.full)
            graph[b.name.full].add(a.name.full)
    gold = {k: g for k, (_, g) in mentions.items()}
    written = {k: m.written for k, (m, _) in mentions.items()}
    coauthors = {k: set(m.coauthors) for k, (m, _) in mentions.items()}
    by_name, by_id = defaultdict(list), defaultdict(list)
    for k, (m, g) in mentions.items():
        by_name[m.name.full].append(k)
        by_id[g].append(k)
    share = lambda a, b: bool(coauthors[a] & coauthors[b])

    runs = {"name-keyed": T.name_keyed(gold, written)}
    pred = {}
    for name, ks in by_name.items():
        pred |= {k: f"{name}#{c}" for k, c in B.components(ks, share).items()}
    runs["each name split into co-author chains"] = pred
    pred = {}
    for g, ks in by_id.items():
        pred |= {k: f"{g}#{c}" for k, c in B.components(ks, share).items()}
    runs["each id split into co-author chains"] = pred
    pred = {}
    for name, ks in by_name.items():
        of_id = defaultdict(set)
        for k in ks:
            of_id[gold[k]] |= coauthors[k]
        part = B.components(list(of_id), lambda a, b, of_id=of_id: bool(of_id[a] & of_id[b]))
        pred |= {k: f"{name}#{part[gold[k]]}" for k in ks}
    runs["the ids of a name joined where they share co-authors"] = pred
    scores = {run: T.score(p, gold, written) for run, p in runs.items()}

    row = {p.id: i for i, p in enumerate(papers)}
    text = TfidfVectorizer(sublinear_tf=True, stop_words="english", min_df=2).fit_transform(
        [f"{p.title} {p.abstract}" for p in papers]
    )
    title = TfidfVectorizer(sublinear_tf=True, stop_words="english", min_df=2).fit_transform([p.title for p in papers])
    same, names, apart, signals = [], [], [], defaultdict(list)
    for name, ks in by_name.items():
        if len({gold[k] for k in ks}) < 2:
            continue
        for a, b in itertools.combinations(ks, 2):
            if share(a, b):
                continue
            (ma, ga), (mb, gb) = mentions[a], mentions[b]
            i, j = row[a[0]], row[b[0]]
            same.append(int(ga == gb))
            names.append(name)
            signals["kg's topic vectors (cosine)"].append(topic_cosine(ma.topic, mb.topic))
            signals["tf-idf of title and abstract (cosine)"].append(text[i].multiply(text[j]).sum())
            signals["tf-idf of the title (cosine)"].append(title[i].multiply(title[j]).sum())
            signals["fewer years between them"].append(-abs((ma.year or 0) - (mb.year or 0)))
            signals["a more common name (literature count)"].append(commonness(ma.name)[2])
            steps = steps_between(graph, ma.coauthors, mb.coauthors, name)
            signals["fewer co-author graph steps between them"].append(-steps)
            apart.append(steps > MAX_STEPS)
    auc = {s: roc_auc_score(same, v) for s, v in signals.items()}
    together = cross_val_predict(
        make_pipeline(StandardScaler(), LogisticRegression(max_iter=1000)),
        np.array(list(signals.values())).T,
        same,
        groups=names,
        cv=GroupKFold(5),
        method="predict_proba",
    )[:, 1]
    auc["all of them together (logistic, 5 folds by name)"] = roc_auc_score(same, together)
    out = {
        "_papers": len(papers),
        "_mentions": len(gold),
        "_affiliations_printed": sum(1 for m, _ in mentions.values() if m.affiliation),
        "clusterings": scores,
        "unchained_pairs": {
            "pairs": len(same),
            "one_id": sum(same) / len(same) if same else 0.0,
            "auc": auc,
            "no_coauthor_path": sum(apart),
            "no_coauthor_path_one_id": sum(y for y, a in zip(same, apart) if a) / max(1, sum(apart)),
        },
    }
    print(B.table(scores))
    print(
        f"\n{len(same)} mention pairs of shared names with no co-author in common, {out['unchained_pairs']['one_id']:.3f} of them one id"
    )
    u = out["unchained_pairs"]
    print(
        f"{u['no_coauthor_path']} of them with no co-author path of {MAX_STEPS} steps or fewer,"
        f" {u['no_coauthor_path_one_id']:.3f} of those one id"
    )
    print(f"affiliations printed on {out['_affiliations_printed']} of {len(gold)} authorships")
    print("\n| signal | ROC AUC (one id vs two) |\n|---|---:|")
    for s, a in auc.items():
        print(f"| {s} | {a:.3f} |")
    if args.json:
        args.json.write_text(json.dumps(out, indent=1) + "\n")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
