"""Author keywords of one venue, with a ranker trained without that venue, side by side with YAKE.

    python bench/venues.py ["COLM 2024" "CoRL 2024" ...] [--data ../shared/data] [--json out.json]

The 2025 keywords that judge the shipped ranker come from venues such as COLM and CoRL. This
leaves one venue with author keywords out of the training papers (the rest of
``kg.training.concepts``'s sources stay in), trains the ranker twice, with and without the title
rates (``kg.extract.title_rates``), and scores both on the left-out venue's title + abstract the
way ``bench/extraction.py`` scores ICLR 2024: F1 at 5 and recall at 10 of the keywords that occur
in the text, stemmed exact match, 10 phrases from each system. The title-rate table counts every
title of the scale corpus, the left-out venue's included, as it does for the withheld 2025 papers.
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path

from extraction import DEFAULT_DATA, TOP, score_keywords

from kg.training import concepts as train
from kg.extract.pipeline import ConceptExtractor, DocumentInput
from kg.extract.title_rates import TitleRates

VENUES = ("COLM 2024", "CoRL 2024")


def kg_found(rows: list, docs: list[dict], title_rates: TitleRates | None) -> list[list[str]]:
    """Trained as ``kg.training.concepts`` trains by default, on the kept papers' examples."""
    extractor = ConceptExtractor.load(n_process=2, trained=False, title_rates=title_rates)
    extractor.ranker = train.fit(extractor, rows)
    extractor.top_n = TOP
    found = extractor.extract([DocumentInput(d["text"], (), d["title"]) for d in docs])
    return [[c.name for c in concepts if not c.minor] for concepts in found]


def yake_found(docs: list[dict]) -> list[list[str]]:
    import yake

    extractor = yake.KeywordExtractor(lan="en", n=3, top=TOP)
    return [[kw for kw, _ in extractor.extract_keywords(f"{d['title']}. {d['text']}")] for d in docs]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("venues", nargs="*", default=list(VENUES))
    parser.add_argument("--data", type=Path, default=DEFAULT_DATA)
    parser.add_argument("--json", type=Path)
    args = parser.parse_args()
    papers = list(train.read_training_papers(args.data, list(train.SOURCES)))
    extractor = ConceptExtractor.load(n_process=2, trained=False)  # a paper's examples do not depend on the ranker
    examples = dict(zip((p.id for p in papers), train.examples(extractor, papers), strict=True))
    results = {}
    for held in args.venues:
        kept = [p for p in papers if p.venue != held]
        rows = [examples[p.id] for p in kept]
        docs = [{"title": p.title, "text": p.abstract, "keywords": list(p.keywords)} for p in papers if p.venue == held]
        if not docs:
            raise SystemExit(f"{held}: no papers with author keywords in {args.data}")
        results[held] = {"papers": len(docs), "training_papers": len(kept)} | {
            name: score_keywords(found, docs)
            for name, found in (
                ("kg", kg_found(rows, docs, None)),
                ("kg_without_title_rates", kg_found(rows, docs, TitleRates())),
                ("yake", yake_found(docs)),
            )
        }
        row = results[held]
        print(f"{held} ({len(docs)} papers, ranker trained on {len(kept)})")
        for name in ("kg", "kg_without_title_rates", "yake"):
            print(f"  {name:24s} f1@5 {row[name]['f1@5']:.4f}  present_r@10 {row[name]['present_r@10']:.4f}")
    if args.json:
        args.json.write_text(json.dumps(results, indent=2) + "\n")


if __name__ == "__main__":
    main()
