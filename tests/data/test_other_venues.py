"""Related papers on a venue nobody tuned on and without author keywords: AAAI 2022's areas.

Concepts alone linked papers of one area 0.78x as often as tf-idf there; with topic
vectors and term weights in the score, and 15 concepts a paper, kg matches it (1.00x;
bench/related.py reports all venues with areas).
"""

from __future__ import annotations

import gzip
import json
import sys

import pytest

from helpers import ROOT, need_shared

pytestmark = pytest.mark.slow


def test_related_papers_on_aaai_2022_match_text_similarity():
    path = need_shared("papers-paperlists.jsonl.gz")
    sys.path.insert(0, str(ROOT / "bench"))
    import related as bench

    with gzip.open(path, "rt", encoding="utf-8") as handle:
        rows = [r for r in map(json.loads, handle) if r["venue"] == "AAAI 2022" and r.get("area") and r.get("abstract")]
    found = bench.measure(rows, 5)
    assert found["papers"] == len(rows) > 1000
    assert found["every_related_lists_shared_concepts"]
    assert found["kg_same_area"] >= 0.97 * found["tfidf_same_area"], found
