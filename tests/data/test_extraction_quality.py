"""Concept extraction judged by human gold (Inspec, SciERC), side by side with YAKE.

The same scorer as bench/extraction.py; this keeps the issue's targets as a
regression guard (quality only; the speed target lives in the benchmark).
"""

from __future__ import annotations

import json
import sys

import pytest

from kg.extract.pipeline import DocumentInput

from helpers import ROOT, need_shared

sys.path.insert(0, str(ROOT / "bench"))
import extraction as bench  # noqa: E402

pytestmark = pytest.mark.slow


def load(name):
    path = need_shared(name)
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line.strip()]


def kg_names(extractor, docs):
    return [[c.name for c in found if not c.minor] for found in extractor.extract([DocumentInput(d["text"]) for d in docs])]


def test_scorer_on_a_tiny_case():
    assert bench.normal("Neural Networks") == bench.normal("neural network") == "neural network"
    p, r, f = bench.prf(["neural network", "x", "neural network"], {"neural network", "y", "z", "w"})
    assert (p, r) == (0.5, 0.25) and abs(f - 1 / 3) < 1e-9


def test_inspec_targets(extractor):
    docs = load("gold-inspec-test.jsonl")
    ours = bench.score_inspec(kg_names(extractor, docs), docs)
    yake = bench.score_inspec(bench.run_yake(docs)[0], docs)
    assert ours["f1@10"] >= 0.30 and ours["f1@10"] >= 1.5 * yake["f1@10"], (ours, yake)


def test_scierc_targets(extractor):
    docs = load("gold-scierc-test.jsonl")
    ours = bench.score_scierc(kg_names(extractor, docs), docs)
    yake = bench.score_scierc(bench.run_yake(docs)[0], docs)
    assert ours["f1"] >= 0.35 and ours["f1"] >= 1.5 * yake["f1"], (ours, yake)
