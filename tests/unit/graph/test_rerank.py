"""The learned ranking of related papers: trees as scikit-learn fits them, what a paper keeps, and the ranker's use."""

from __future__ import annotations

import io
import math

import numpy as np
import pytest

from kg.extract.topics import decode, decode_stats, decode_terms, encode, with_stats
from kg.graph import rerank
from kg.graph.shares import shared_concept_edges
from kg.graph.trees import Trees


def test_trees_give_scikit_learns_probabilities_missing_values_included():
    from sklearn.ensemble import HistGradientBoostingClassifier

    rng = np.random.default_rng(0)
    x = rng.random((2000, 4))
    x[::5, 1] = np.nan
    y = (x[:, 0] + np.nan_to_num(x[:, 1], nan=0.8) * x[:, 2]) > 0.8
    model = HistGradientBoostingClassifier(max_iter=30, max_leaf_nodes=7, random_state=0).fit(x, y)
    saved = io.BytesIO()
    Trees.from_sklearn(model, names=("a", "b", "c", "d")).save(saved)
    saved.seek(0)
    trees = Trees.load(saved)
    assert trees.names == ("a", "b", "c", "d") and len(trees.roots) == 30
    assert np.allclose(trees.probability(x), model.predict_proba(x)[:, 1], rtol=0, atol=1e-12)


def test_a_signature_keeps_its_stats_beside_its_vector_and_words():
    plain = encode(np.array([1.0, -2.0, 0.5]), (np.array([4, 9]), np.array([0.6, 0.8])))
    kept = with_stats(plain, (2021.0, 0.1234, 0.5, 0.0))
    assert np.array_equal(decode(kept), decode(plain))
    assert all(np.array_equal(a, b) for a, b in zip(decode_terms(kept), decode_terms(plain), strict=True))
    assert decode_stats(kept) == (2021.0, 0.1234, 0.5, 0.0) and decode_stats(plain) is None
    assert with_stats(kept, (math.nan, 1, 2, 3)).count("~") == 1  # replaced, not added
    assert rerank.stats_of(with_stats("", (math.nan, 0.2, 0.3, 0.4)))[1:] == (0.2, 0.3, 0.4)


def test_link_stats_are_a_papers_year_and_mean_nearest_cosines():
    signals = np.array([[0.5, 0.2, 0.1], [0.3, 0.4, 0.0]])
    year, *closeness = rerank.link_stats(signals, 2020)
    assert year == 2020.0 and closeness == [
        round(0.8 / rerank.NEAREST, 4),
        round(0.6 / rerank.NEAREST, 4),
        round(0.1 / rerank.NEAREST, 4),
    ]
    assert math.isnan(rerank.link_stats(np.zeros((0, 3)), None)[0])


def test_the_shipped_ranker_is_one_score_for_both_papers_and_reads_missing_stats():
    ranker = rerank.load_ranker()
    assert ranker is not None and ranker.trees.names == rerank.FEATURES
    signals = np.array([[0.4, 0.3, 0.2], [0.4, 0.3, 0.2]])
    mine, theirs = (2020.0, 0.1, 0.2, 0.1), [(2016.0, 0.3, 0.5, 0.2), None]
    [both] = ranker.score_pools([("p", ["a", "b"], mine, signals, theirs, np.array([0.3, 0.3]))])
    [back] = ranker.score_pools([("a", ["p"], theirs[0], signals[:1], [mine], np.array([0.3]))])
    assert both.shape == (2,) and 0 < both.min() and both.max() < 1
    assert back[0] == pytest.approx(both[0])  # p's score for a is a's for p


def test_ingest_ranks_by_the_ranker_unless_similarity_is_asked_for(tmp_path):
    from kg.config import Settings

    assert rerank.related_ranker(Settings(KG_RELATED_RANKING="similarity")) is None
    assert rerank.related_ranker(Settings()) is rerank.load_ranker()
    with pytest.raises(FileNotFoundError):
        rerank.related_ranker(Settings(KG_RELATED_MODEL=str(tmp_path / "none.npz")))


def test_a_ranker_reorders_a_pool_and_every_touched_paper_keeps_its_stats():
    class Prefers:  # a ranker that likes the candidate named "z" best
        def score_pools(self, pools):
            return [np.array([1.0 if o == "z" else 0.1 for o in others]) for _, others, *_ in pools]

    papers = {"a": {"x": 1.0, "y": 1.0}, "b": {"x": 1.0, "y": 1.0}, "z": {"y": 1.0}}
    papers |= {f"other{i}": {"w": 1.0} for i in range(5)}
    plain, _, _ = shared_concept_edges(papers, {}, len(papers), per_paper=1)
    ranked, _, stats = shared_concept_edges(papers, {}, len(papers), per_paper=1, years={"a": 2020}, ranker=Prefers())
    assert ("a", "b") in plain and ("a", "b") not in ranked  # a and b each pick z
    assert ("a", "z") in ranked and ranked[("a", "z")] == (1.0, ("y",))  # still explained by the shared concept
    assert set(stats) == set(papers) and stats["a"][0] == 2020.0
