"""How fast extraction could go: spaCy's own throughput on the corpus's abstracts, beside kg's extraction.

    python bench/tagger.py [FILE] [--papers 6000] [--json out.json]

FILE defaults to ../shared/data/papers-paperlists.jsonl.gz. A sample of ``--papers`` papers spread over
the file (every k-th) is read as the ingest reads it (title, then abstract). Timed on those texts:

- spaCy alone, with the components kg runs (the tagger pipeline of ``kg.extract.nlp.load_nlp`` without
  kg's candidate finder), ``nlp.pipe`` in one process and over both cores (``n_process=2``);
- the tokenizer alone (one process): what no pipeline can go below;
- kg's whole extraction (``ConceptExtractor.extract``, ``n_process=2`` as the ingest runs it).

Each figure is given as documents a second and as the seconds the whole file's papers would take at that
rate: the floor under the ingest's extraction stage (issue 61).
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
DEFAULT_FILE = ROOT.parent / "shared" / "data" / "papers-paperlists.jsonl.gz"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("file", nargs="?", default=str(DEFAULT_FILE))
    parser.add_argument("--papers", type=int, default=6000)
    parser.add_argument("--json", help="write the results here")
    args = parser.parse_args(argv)

    from kg.extract.component import COMPONENT
    from kg.extract.nlp import load_nlp
    from kg.extract.pipeline import ConceptExtractor, DocumentInput, document_text
    from kg.readers import read_path

    records = list(read_path(Path(args.file)))
    step = max(1, len(records) // args.papers)
    sample = records[::step][: args.papers]
    texts = [document_text(r.title, r.abstract)[1] for r in sample]
    total = len(records)
    print(f"{len(texts)} texts of {total} papers, {sum(map(len, texts)) / len(texts):.0f} characters each on average", flush=True)

    nlp = load_nlp()
    nlp.remove_pipe(COMPONENT)  # spaCy alone: the components kg runs, without kg's own
    results: dict[str, dict] = {"papers_sampled": len(texts), "papers_in_file": total, "components": nlp.pipe_names}

    def timed(label: str, run) -> None:
        started = time.perf_counter()
        n = run()
        seconds = time.perf_counter() - started
        rate = n / seconds
        results[label] = {"docs_per_s": round(rate, 1), "seconds_for_file": round(total / rate, 1)}
        print(f"{label:<44} {rate:8.1f} docs/s  -> {total / rate:7.1f} s for {total} papers", flush=True)

    timed("tokenizer alone (1 process)", lambda: sum(1 for _ in nlp.tokenizer.pipe(texts, batch_size=256)))
    timed("spaCy, kg's components (1 process)", lambda: sum(1 for _ in nlp.pipe(texts, batch_size=64)))
    timed("spaCy, kg's components (n_process=2)", lambda: sum(1 for _ in nlp.pipe(texts, batch_size=64, n_process=2)))
    extractor = ConceptExtractor.load(n_process=2)
    documents = [DocumentInput(r.abstract or "", tuple(r.keywords), r.title or "") for r in sample]
    timed("kg's extraction (n_process=2, as ingested)", lambda: len(extractor.extract(documents)))
    if args.json:
        Path(args.json).write_text(json.dumps(results, indent=1) + "\n", encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
