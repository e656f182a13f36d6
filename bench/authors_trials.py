"""Who-is-who ideas measured and left out (``docs/people.md``, "Tried and left out"), each re-runnable.

    python bench/authors_trials.py literature-counts [--thresholds 0.01,0.02] [--modes cv,alone,recent,span]
    python bench/authors_trials.py join-both --at 0.5 [--thresholds 0.02]
    python bench/authors_trials.py near-venues [--graded] [--thresholds 0.02]
    python bench/authors_trials.py second-degree [--thresholds 0.03] [--modes cv,alone,recent,span]
    python bench/authors_trials.py variant-threshold --at 0.3 [--thresholds 0.03] [--modes cv,alone,recent,span]

Each trial changes one thing in memory (a feature, or the assignment), then retrains and scores as
``bench/authors.py`` does in its settings: ``cv`` (every training paper in one store, each fold's
mentions clustered by a model trained without them), ``alone`` (each fold in a fresh store of its own)
and ``recent`` (the newest venues together in a fresh store); ``--modes span`` adds ``span`` (ICRA's odd years
together in a fresh store). Nothing here ships.

- ``literature-counts``: how common a name is, read from the literature's counts only. The store's
  counts of the spelling and of its block are dropped, and the concept and topic cosines are multiplied
  by the full-name count instead.
- ``join-both``: when a name fits a second known person of its block at p >= ``--at`` as well as the one
  it joins, and the two people's given names agree, the two are made one.
- ``near-venues``: another venue of the person counts by how near it is. Nearness is the share of full
  names two venue series have in common in the scale corpus. It replaces the all-but-constant
  ``no_coauthors`` feature, or, with ``--graded``, it is the same-venue feature where that is 0.
- ``second-degree``: two more features, how many of the person's co-authors have shared a byline with the
  mention's co-authors (on the papers before it), and whether any has: namesakes in one venue work in
  different circles.
- ``variant-threshold``: a name that fits a known person only as a variant (initials for a given name, a middle
  initial on one side) joins them at p >= ``--at``; the same given names join at the threshold as before.
"""

from __future__ import annotations

import argparse
import gzip
import importlib.util
import itertools
import json
from collections import defaultdict
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
_spec = importlib.util.spec_from_file_location("bench_authors", ROOT / "bench" / "authors.py")
B = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(B)

MIN_NAMES = 200  # a venue series with fewer distinct full names gets no nearness


def venue_nearness(corpus: Path) -> dict[tuple[str, str], float]:
    """(series, series) -> |full names in both| / |full names of the smaller|, over the corpus's bylines."""
    from kg.authors.names import parse_name
    from kg.authors.profile import venue_series

    names: dict[str, set] = defaultdict(set)
    with gzip.open(corpus, "rt", encoding="utf-8") as f:
        for line in f:
            row = json.loads(line)
            series = venue_series(row.get("venue"))
            for raw in row["authors"]:
                name = parse_name(raw)
                if name is not None and name.given and len(name.given[0]) > 1:
                    names[series].add(name.full)
    big = {v: s for v, s in names.items() if len(s) >= MIN_NAMES}
    out = {}
    for a, b in itertools.combinations(sorted(big), 2):
        out[a, b] = out[b, a] = len(big[a] & big[b]) / min(len(big[a]), len(big[b]))
    return out


def patch(trial: str, args) -> None:
    """Change what the trial changes, in memory, before any pair is made."""
    import kg.authors.assign as A
    from kg.authors.features import FEATURES
    from kg.training import authors as T
    from kg.authors.names import given_compatibility

    at = {f: i for i, f in enumerate(FEATURES)}
    shipped = A.features
    if trial == "literature-counts":

        def features(*a, **k):
            x = shipped(*a, **k)
            x[at["name_mentions"]] = x[at["block_mentions"]] = 0.0
            x[at["concepts_x_common"]] = x[at["concept_cosine"]] * x[at["full_count"]]
            x[at["topic_x_common"]] = x[at["topic_cosine"]] * x[at["full_count"]]
            return x

        A.features = features
    elif trial == "near-venues":
        near = venue_nearness(args.data / "papers-paperlists.jsonl.gz")
        column = at["venue_same"] if args.graded else at["no_coauthors"]

        def features(mention, profile, *a, **k):
            x = shipped(mention, profile, *a, **k)
            if not (args.graded and x[column]):
                x[column] = max((near.get((mention.venue, v), 0.0) for v in profile.venues if v != mention.venue), default=0.0)
            return x

        A.features = features
    elif trial == "second-degree":
        import math

        graph: dict[str, set] = defaultdict(set)  # folded full name -> the names it shared a byline with, so far
        pending: list[list[str]] = []
        mentions_of = T.paper_mentions

        def paper_mentions(paper, concepts):
            for names in pending:  # the papers before this one are known; this one is not, yet
                for a in names:
                    graph[a].update(b for b in names if b != a)
            pending.clear()
            out = mentions_of(paper, concepts)
            pending.append([m.name.full for m, _ in out])
            return out

        def fresh(run):
            def wrapped(*a, **k):
                graph.clear()
                pending.clear()
                return run(*a, **k)

            return wrapped

        def features(mention, profile, *a, **k):
            x = shipped(mention, profile, *a, **k)
            near = set().union(*(graph.get(c, ()) for c in mention.coauthors)) - {mention.name.full} - set(mention.coauthors)
            hop = sum(1 for c in profile.coauthors if c in near)
            return [*x, math.log1p(hop), 1.0 if hop else 0.0]

        T.paper_mentions, T.examples, T.cluster = paper_mentions, fresh(T.examples), fresh(T.cluster)
        A.features = features
    elif trial == "variant-threshold":
        from kg.authors.names import NAME_EXACT

        candidates = A.Assigner.candidates

        def strict(self, m, on_paper):
            # a variant stays a candidate only where the model gives it --at or more (the assignment scores it again)
            found = list(candidates(self, m, on_paper))
            block = self.people.blocks[m.block]
            for (person, level), (_, x) in zip(found, block.pairs(m, found)):
                if level == NAME_EXACT or self.model.probability(x) >= args.at:
                    yield person, level

        A.Assigner.candidates = strict
    elif trial == "join-both":
        one = A.Assigner._one

        def _one(self, m, on_paper):
            decision = one(self, m, on_paper)
            if decision.reason != "model" or decision.probability < args.at:
                return decision
            best = decision.person
            pairs = list(self.people.blocks[m.block].pairs(m, self.candidates(m, on_paper)))
            for (other, _), p in zip(pairs, self.model.probabilities([x for _, x in pairs])):
                if other is best or p < args.at or other.block != best.block:
                    continue
                if all(
                    given_compatibility(tuple(a.split()), tuple(b.split()))
                    for a in best.profile.names
                    for b in other.profile.names
                ):
                    best.profile.merge(other.profile)
                    best._blocks = best._norm = None
                    block = self.people.blocks[other.block]
                    block.people = [q for q in block.people if q is not other]
                    JOINED[other.key] = best.key
            return decision

        A.Assigner._one = _one
        T.cluster = _clusterer(T.cluster)


JOINED: dict[str, str] = {}


def _clusterer(cluster):
    """``cluster`` (``kg.training.authors.cluster``), with people joined by the join-both trial read as the person kept."""

    def run(papers, concepts, model):
        JOINED.clear()
        out = cluster(papers, concepts, model)

        def kept(key):
            while key in JOINED:
                key = JOINED[key]
            return key

        return {m: kept(k) for m, k in out.items()}

    return run


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("trial", choices=["literature-counts", "join-both", "near-venues", "second-degree", "variant-threshold"])
    parser.add_argument("--data", type=Path, default=B.DEFAULT_DATA)
    parser.add_argument("--thresholds", default="0.02")
    parser.add_argument("--modes", default="cv,alone,recent")
    parser.add_argument(
        "--at", type=float, default=0.5, help="join-both: the probability both people must reach; variant-threshold: a variant's"
    )
    parser.add_argument("--graded", action="store_true", help="near-venues: inside the same-venue feature")
    parser.add_argument("--json", type=Path)
    args = parser.parse_args()
    patch(args.trial, args)
    thresholds = [float(t) for t in args.thresholds.split(",")]
    result: dict = {}
    for mode in args.modes.split(","):
        result |= {
            k.replace("kg people", args.trial): v
            for k, v in B.MODES[mode](args.data, thresholds).items()
            if not k.startswith(("_", "name-keyed"))
        }
    print(B.table(result))
    if args.json:
        args.json.write_text(json.dumps(result, indent=1) + "\n")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
