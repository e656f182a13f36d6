"""Count the background document frequencies kg ships (``kg/extract/data/background.json.gz``).

python -m kg.training.background FILE.jsonl... -o OUT
"""

from __future__ import annotations

import argparse
from collections import Counter

from kg.extract.background import Background, write_packaged_json
from kg.extract.pipeline import ConceptExtractor
from kg.readers import read_path

__all__ = ["main"]


def main(argv: list[str] | None = None) -> None:
    """Count the table: ``python -m kg.training.background FILE.jsonl... -o OUT``."""
    parser = argparse.ArgumentParser(description=main.__doc__)
    parser.add_argument("paths", nargs="+")
    parser.add_argument("-o", "--output", required=True)
    parser.add_argument("--min-df", type=int, default=2)
    args = parser.parse_args(argv)
    texts = [r.abstract for p in args.paths for r in read_path(p)]
    extractor = ConceptExtractor.load(background=Background(), n_process=2, trained=False)  # candidates only
    counts: Counter[str] = Counter()
    for keys in extractor.candidate_keys(texts):
        counts.update(keys)
    table = Background(len(texts), {k: c for k, c in counts.items() if c >= args.min_df})
    write_packaged_json(args.output, table.to_json())
    print(f"{len(texts)} documents, {len(table.df)} keys -> {args.output}")


if __name__ == "__main__":
    main()
