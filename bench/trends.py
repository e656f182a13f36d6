"""Rising concepts checked on eras anyone can judge, over a store holding the scale corpus.

    python bench/trends.py --data-dir DIR [--json out.json]     # an embedded store (kg ingest of the 95k corpus)
    NEO4J_URI=bolt://… python bench/trends.py [--json out.json]   # or the Neo4j store the settings name

For each era (generative adversarial networks from 2014, transformers from 2017, large language
models from about 2020, neural radiance fields from 2020, Gaussian splatting from 2023), the
concept is looked up by name as a user would, and ``trendingConcepts`` is asked for every
two-year window from two years before the era to three after (``since``=Y, ``until``=Y+1, the
first 100): the table gives the concept's rank in each window (- when it is not among them),
the first window where it is in the top 20, and its best rank. A burst detector worth its name
puts each concept in the top 20 within a couple of years of its era and not before it.

It also times ``trendingConcepts`` on the default window: the first call (the counts read from
the store) and the median of five calls after it (the answer kept until the store changes).
"""

from __future__ import annotations

import argparse
import json
import statistics
import time

ERAS = [
    ("generative adversarial network", 2014),
    ("transformer", 2017),
    ("large language model", 2020),
    ("neural radiance field", 2020),
    ("Gaussian splatting", 2023),
]
TOP = 20


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--data-dir", help="an embedded store's folder (default: the store the settings name)")
    parser.add_argument("--json", help="write the results here")
    args = parser.parse_args()

    from kg.config import Settings, get_settings
    from kg.service import KGService
    from kg.store import open_store

    settings = Settings(KG_DATA_DIR=args.data_dir) if args.data_dir else get_settings()
    service = KGService(open_store(settings), settings)
    print(f"{service.where}: {service.stats()}", flush=True)
    results: dict = {"store": service.kind, "eras": [], "timing_ms": {}}

    started = time.perf_counter()
    service.overview.trending()
    first = (time.perf_counter() - started) * 1000
    kept = []
    for _ in range(5):
        started = time.perf_counter()
        service.overview.trending()
        kept.append((time.perf_counter() - started) * 1000)
    results["timing_ms"] = {"first_call": round(first, 1), "kept_median": round(statistics.median(kept), 2)}

    print("| concept | era | " + " | ".join(f"Y{d:+d}" for d in range(-2, 4)) + " | first in top 20 | best rank |")
    print("|---|---:|" + "---:|" * 6 + "---:|---:|")
    for name, era in ERAS:
        key = service.concept_key(name)
        ranks = {}
        for year in range(era - 2, era + 4):
            report = service.overview.trending(since=year, until=year + 1, first=100)
            order = [t.concept_key for t in report.trends]
            ranks[year] = order.index(key) + 1 if key in order else None
        top = [y for y, r in ranks.items() if r is not None and r <= TOP]
        best = min(((r, y) for y, r in ranks.items() if r is not None), default=None)
        row = {"concept": name, "key": key, "era": era, "ranks": ranks, "first_top20": top[0] if top else None, "best": best}
        results["eras"].append(row)
        cells = " | ".join(str(ranks[y]) if ranks[y] is not None else "-" for y in range(era - 2, era + 4))
        print(
            f"| {name} | {era} | {cells} | {row['first_top20'] or '-'} | "
            f"{f'{best[0]} ({best[1]}-{best[1] + 1})' if best else '-'} |",
            flush=True,
        )
    print(f"trendingConcepts, default window: first call {first:.0f} ms, then median {statistics.median(kept):.2f} ms")
    service.close()
    if args.json:
        with open(args.json, "w", encoding="utf-8") as out:
            json.dump(results, out, indent=1, default=str)


if __name__ == "__main__":
    main()
