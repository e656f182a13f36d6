"""Title rates: how often the literature puts a concept key in a paper's title when the paper has it.

Authors name what a paper is about in its title. A phrase that titles often carry (*graph neural
network*, *federated learning*) is more likely a key concept of a paper that only mentions it in
its abstract than one that titles rarely carry (*real data*, *real world*). The table
shipped in ``data/title_rates.json.gz`` holds, for each key that is a candidate in at least
``MIN_DOCS`` papers of the scale corpus (``papers-paperlists.jsonl.gz``: 87,666 papers with a title
and an abstract, 30 conferences, 1987-2025), the papers whose title has it and the papers that
have it at all. Counted with ``python -m kg.extract.title_rates --data ../shared/data``; titles and
abstracts only, no keyword labels.
"""

from __future__ import annotations

import gzip
import json
import math
from dataclasses import dataclass, field, replace
from functools import cached_property, lru_cache
from importlib import resources
from typing import TYPE_CHECKING

from kg.extract.background import packaged_json, write_packaged_json

if TYPE_CHECKING:
    from kg.extract.candidates import Occurrence

__all__ = ["TitleRates", "count", "load_title_rates", "MIN_DOCS"]

MIN_DOCS = 5
FILE = "title_rates.json.gz"  # in kg/extract/data


@dataclass(frozen=True)
class TitleRates:
    n_docs: int = 0
    counts: dict[str, tuple[int, int]] = field(default_factory=dict)  # key -> (papers with it in the title, papers with it)

    @cached_property
    def _log_docs(self) -> float:
        return math.log(self.n_docs + 1) if self.n_docs else 1.0

    def features(self, key: str) -> tuple[float, float, float]:
        """(title rate, smoothed; corpus document frequency on a log scale; papers titled with it, log)."""
        titled, docs = self.counts.get(key, (0, 0))
        return titled / (docs + 5), math.log1p(docs) / self._log_docs, math.log1p(titled)

    def to_json(self) -> dict:
        return {"n_docs": self.n_docs, "counts": {k: list(v) for k, v in sorted(self.counts.items())}}

    def attested(self, occurrences: list[Occurrence]) -> list[Occurrence]:
        """Occurrences with the ``attested`` ones (led by an -ing word that may be a verb: 'vanishing gradients') kept
        only where the table has their key, a phrase other papers name, and then weighed as nested ones (``sub``)."""
        return [replace(o, kind="sub") if o.kind == "attested" else o for o in occurrences if o.kind != "attested" or o.key in self.counts]


@lru_cache(maxsize=1)
def load_title_rates() -> TitleRates:
    """The shipped table; an empty one if the package has none."""
    obj = packaged_json(FILE)
    return TitleRates(obj["n_docs"], {k: (v[0], v[1]) for k, v in obj["counts"].items()}) if obj else TitleRates()


def count(extractor, papers: list[tuple[str, str]], *, min_docs: int = MIN_DOCS) -> TitleRates:
    """Count over (title, abstract) pairs with a candidates-only extractor."""
    from collections import Counter

    from kg.extract.pipeline import document_text
    from kg.extract.ranker import candidate_stats

    texts = [document_text(title, abstract) for title, abstract in papers]
    titled: Counter[str] = Counter()
    docs: Counter[str] = Counter()
    for (prefix, _), cand in zip(texts, extractor.candidates(t for _, t in texts), strict=True):
        stats = candidate_stats(extractor.resolve_shorts(cand, {}), extractor.title_tokens(prefix))
        docs.update(stats.keys())
        titled.update(k for k, s in stats.items() if s.in_title)
    return TitleRates(len(texts), {k: (titled[k], n) for k, n in docs.items() if n >= min_docs})


def main(argv: list[str] | None = None) -> None:
    """Count the shipped table: ``python -m kg.extract.title_rates --data ../shared/data [-o FILE]`` (~6 min, 2 cores)."""
    import argparse
    from pathlib import Path

    from kg.extract.pipeline import ConceptExtractor

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
