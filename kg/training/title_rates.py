"""Count the title rates kg ships (``kg/extract/data/title_rates.json.gz``; what they are: ``kg.extract.title_rates``).

python -m kg.training.title_rates --data ../shared/data [-o FILE]
"""

from __future__ import annotations

import argparse
import gzip
import json
from collections import Counter
from importlib import resources
from pathlib import Path

from kg.extract.background import write_packaged_json
from kg.extract.pipeline import ConceptExtractor, document_text
from kg.extract.ranker import candidate_stats
from kg.extract.title_rates import FILE, TitleRates

__all__ = ["count", "main", "MIN_DOCS"]

MIN_DOCS = 5  # papers a key must be a candidate in to be counted


def count(extractor, papers: list[tuple[str, str]], *, min_docs: int = MIN_DOCS) -> TitleRates:
    """Count over (title, abstract) pairs with a candidates-only extractor."""
    texts = [document_text(title, abstract) for title, abstract in papers]
    titled: Counter[str] = Counter()
    docs: Counter[str] = Counter()
    for (prefix, _), cand in zip(texts, extractor.candidates(t for _, t in texts), strict=True):
        stats = candidate_stats(extractor.resolve_shorts(cand, {}), extractor.title_tokens(prefix))
        docs.update(stats.keys())
        titled.update(k for k, s in stats.items() if s.in_title)
    return TitleRates(len(texts), {k: (titled[k], n) for k, n in docs.items() if n >= min_docs})


def main(argv: list[str] | None = None) -> None:
    """Count the shipped table: ``python -m kg.training.title_rates --data ../shared/data [-o FILE]`` (~6 min, 2 cores)."""
    parser = argparse.ArgumentParser(description=main.__doc__)
    parser.add_argument("--data", type=Path, required=True, help="the folder holding papers-paperlists.jsonl.gz")
    parser.add_argument("-o", "--output", type=Path, default=Path(str(resources.files("kg.extract") / "data" / FILE)))
    parser.add_argument("--workers", type=int, default=2)
    args = parser.parse_args(argv)
    with gzip.open(args.data / "papers-paperlists.jsonl.gz", "rt", encoding="utf-8") as handle:
        rows = (json.loads(line) for line in handle)
        papers = [(r["title"], r["abstract"]) for r in rows if r.get("title") and r.get("abstract")]
    extractor = ConceptExtractor.load(n_process=args.workers, trained=False, title_rates=TitleRates())
    table = count(extractor, papers)
    write_packaged_json(args.output, table.to_json())
    print(f"{table.n_docs} papers, {len(table.counts)} keys -> {args.output}")


if __name__ == "__main__":
    main()
