"""The learned concept ranker: its model file, its features and a deterministic training run."""

from __future__ import annotations

import json

import pytest

from kg.errors import ExtractionError
from kg.training import concepts as train
import math

from kg.extract.ranker import FEATURES, CandidateStats, Ranker, features, load_ranker


def test_the_shipped_model_is_small_and_matches_the_features():
    ranker = load_ranker()
    assert ranker is not None
    assert len(ranker.coef) == len(ranker.mean) == len(ranker.scale) == len(FEATURES)
    assert ranker.meta["papers"] > 2000 and "iclr2024" in ranker.meta["sources"]
    assert ranker.prior  # keyphraseness learned from author keywords


def test_a_model_for_other_features_is_refused(tmp_path):
    path = tmp_path / "old.json"
    path.write_text(
        json.dumps({"version": 1, "features": ["tf"], "mean": [0], "scale": [1], "coef": [1], "intercept": 0, "prior": {}})
    )
    with pytest.raises(ExtractionError, match="retrain"):
        load_ranker(str(path))
    before = load_ranker().to_json()
    for n in (22, 25):  # models from before the title rates, and before the naming heads
        path.write_text(json.dumps(before | {"features": before["features"][:n], "coef": before["coef"][:n]}))
        with pytest.raises(ExtractionError, match="retrain"):
            load_ranker(str(path))


def test_scores_are_the_logistic_of_the_standardised_features():
    n = len(FEATURES)
    ranker = Ranker(mean=[1.0] * n, scale=[2.0] * n, coef=[0.5] + [0.0] * (n - 2) + [-1.0], intercept=-1.0)
    x = [5.0] + [9.0] * (n - 2) + [3.0]
    z = 0.5 * 2.0 - 1.0 * 1.0 - 1.0
    assert ranker.score(x) == pytest.approx(1 / (1 + math.exp(-z)))
    assert ranker.score_many([x, x]) == [ranker.score(x)] * 2 and ranker.score_many([]) == []


def test_features_read_position_title_and_prior():
    s = CandidateStats(tf=2, first=1, last=30, kind="phrase", surface="world model", in_title=True, in_body=True)
    x = dict(
        zip(
            FEATURES,
            features(
                "world model", s, n_tokens=100, n_title=8, specificity=0.6, df_ratio=0.01, prior=(3, 5), head_prior=(10, 100)
            ),
        )
    )
    assert x["in_title"] == 1.0 and x["words_2"] == 1.0 and x["generic_head"] == 1.0 and x["naming_head"] == 1.0
    assert x["prior"] == 3 / 7 and x["unseen"] == 0.0
    assert x["first_position"] == 0.0  # seen in the title: first in the body is not asked
    assert (x["title_rate"], x["corpus_df"], x["log_titled"]) == (0.0, 0.0, 0.0)  # no title counts given
    effect = dict(
        zip(
            FEATURES,
            features("treatment effect", s, n_tokens=100, n_title=8, specificity=0.6, df_ratio=0.01, prior=None, head_prior=None),
        )
    )
    assert effect["generic_head"] == 1.0 and effect["naming_head"] == 0.0  # a generic head, but no class of named things


def test_a_prior_the_authors_agree_with_raises_the_score():
    ranker = load_ranker()
    s = CandidateStats(tf=1, first=50, last=50, kind="phrase", surface="widget tuning", in_body=True)
    common = dict(n_tokens=200, n_title=10, specificity=0.7, df_ratio=0.001, head_prior=None)
    low = ranker.score(features("widget tuning", s, prior=(0, 40), **common))
    high = ranker.score(features("widget tuning", s, prior=(30, 40), **common))
    assert high > low


def test_training_is_deterministic(extractor):
    papers = [
        train.TrainingPaper(f"p{i}", title, abstract, keywords)
        for i, (title, abstract, keywords) in enumerate(
            [
                (
                    "Graph neural networks for molecules",
                    "We train graph neural networks on molecular graphs.",
                    ("graph neural networks",),
                ),
                (
                    "Diffusion models for audio",
                    "Diffusion models generate audio from noise with score matching.",
                    ("diffusion models",),
                ),
                (
                    "Federated learning with privacy",
                    "Federated learning trains models across clients with differential privacy.",
                    ("federated learning", "differential privacy"),
                ),
                ("World models for control", "World models let agents plan in latent space for control.", ("world models",)),
                (
                    "Sparse attention",
                    "Sparse attention reduces the cost of transformers on long sequences.",
                    ("sparse attention",),
                ),
                (
                    "Contrastive learning",
                    "Contrastive learning learns image representations without labels.",
                    ("contrastive learning",),
                ),
            ]
            * 2
        )
    ]
    rows = train.examples(extractor, papers)
    first = train.fit(extractor, rows).to_json()
    second = train.fit(extractor, rows).to_json()
    assert first == second
    assert isinstance(Ranker.from_json(first, "test"), Ranker)
    assert sum(len(gold) for *_, gold in rows) == 14  # every keyword named a concept key
