"""The training concept cache is recomputed when the extractor that made it changes."""

import gzip
import json
import shutil
from pathlib import Path

import kg.extract
from kg.training.author_papers import TrainingPaper, concepts_cache

PAPER = TrainingPaper(
    id="p1",
    title="Sharpness-aware minimization improves generalization",
    abstract="We study sharpness-aware minimization (SAM), a first-order method that seeks flat minima of the loss.",
    authors=("Ada Lovelace",),
    gold=("",),
    affiliations=None,
    keywords=(),
    venue="ICLR",
    year=2024,
)


def _write(path, content):
    with gzip.open(path, "wt", encoding="utf-8") as f:
        json.dump(content, f)


def test_a_cache_from_another_extractor_is_computed_again(tmp_path, extractor):
    cache = tmp_path / "concepts.json.gz"
    _write(cache, {"p1": ["not a concept of this paper"]})  # a cache from before caches named their extractor
    found = concepts_cache([PAPER], cache, top_n=extractor.top_n, extractor=extractor)
    assert found["p1"] and "not a concept of this paper" not in found["p1"]
    with gzip.open(cache, "rt", encoding="utf-8") as f:
        kept = json.load(f)
    assert kept["made_by"] == {"extractor": kg.extract.digest(), "top_n": extractor.top_n}
    assert kept["papers"]["p1"] == list(found["p1"])

    # Made by this extractor: read as it is, not computed again.
    _write(cache, {"made_by": kept["made_by"], "papers": {"p1": ["kept as cached"]}})
    assert concepts_cache([PAPER], cache, top_n=extractor.top_n, extractor=extractor) == {"p1": ("kept as cached",)}


def test_the_digest_follows_the_extractor_files(monkeypatch, tmp_path):
    copy = tmp_path / "extract"
    shutil.copytree(Path(kg.extract.__file__).parent, copy, ignore=shutil.ignore_patterns("__pycache__"))
    monkeypatch.setattr(kg.extract, "_PACKAGE", copy)
    whole, candidates = kg.extract.digest(), kg.extract.digest(candidates_only=True)
    assert (whole, candidates) == (kg.extract.digest(), kg.extract.digest(candidates_only=True))

    ranker = copy / "data" / "ranker.json"  # a retrained ranker: other concepts, the same candidates
    ranker.write_bytes(ranker.read_bytes() + b" ")
    assert kg.extract.digest() != whole and kg.extract.digest(candidates_only=True) == candidates

    code = copy / "candidates.py"  # other code finds other candidates
    code.write_text(code.read_text(encoding="utf-8") + "\n", encoding="utf-8")
    assert kg.extract.digest(candidates_only=True) != candidates
