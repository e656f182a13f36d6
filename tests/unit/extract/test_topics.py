"""Topic vectors: the shipped model places papers on one theme near each other, the run-time
projection is scikit-learn's, and stored vectors keep their direction."""

from __future__ import annotations

import numpy as np
import pytest

from kg.extract.topics import TopicModel, decode, decode_terms, encode, fit, load_topics, paper_text, paper_topics
from kg.models import Paper

DIFFUSION_1 = (
    "Score-based diffusion models for image generation",
    "We train a denoising diffusion model with a score matching objective and sample images "
    "with a faster reverse-time solver, improving FID on CIFAR-10 and ImageNet.",
)
DIFFUSION_2 = (
    "Fast sampling of denoising diffusion probabilistic models",
    "Sampling from diffusion models needs many denoising steps. We distill the reverse process "
    "into a few steps and keep image quality, measured by FID.",
)
RL = (
    "Offline reinforcement learning with conservative value estimates",
    "An agent learns a policy from a fixed dataset of transitions. We penalise the Q-function on "
    "out-of-distribution actions and reach higher returns on D4RL locomotion tasks.",
)


def _cos(a: str, b: str) -> float:
    x, y = decode(a), decode(b)
    return float(x @ y / np.linalg.norm(x) / np.linalg.norm(y))


def test_papers_on_one_theme_are_nearer_than_papers_on_two():
    assert load_topics() is not None, "kg/extract/data/topics.npz ships with the package"
    papers = [Paper(str(i), t, t, a) for i, (t, a) in enumerate((DIFFUSION_1, DIFFUSION_2, RL))]
    topics = paper_topics(papers)
    assert set(topics) == {"0", "1", "2"}
    assert _cos(topics["0"], topics["1"]) > 0.5 > _cos(topics["0"], topics["2"])
    assert _cos(topics["1"], topics["2"]) < 0.5


def _term_cos(a: str, b: str) -> float:
    (i, x), (j, y) = decode_terms(a), decode_terms(b)
    dot = sum(wx * y[list(j).index(t)] for t, wx in zip(i, x) if t in j)
    return float(dot / np.linalg.norm(x) / np.linalg.norm(y))


def test_signatures_hold_the_words_of_the_text_by_rarity():
    model = load_topics()
    papers = [Paper(str(i), t, t, a) for i, (t, a) in enumerate((DIFFUSION_1, DIFFUSION_2, RL))]
    topics = paper_topics(papers)
    assert _term_cos(topics["0"], topics["1"]) > 2 * _term_cos(topics["0"], topics["2"])
    numbers, weights = decode_terms(topics["2"])
    words = {t: n for t, n in model.terms.items()}
    strongest = {w for w, n in words.items() if n in set(numbers[np.argsort(-weights)[:5]].tolist())}
    assert strongest & {"offline", "conservative", "d4rl", "penalise", "locomotion", "transitions"}
    assert "we" not in words and "the" not in words  # stop words are no terms
    assert np.array_equal(decode(topics["2"]), decode(encode(model.vector(paper_text(*RL)))))


def test_signatures_stored_before_term_weights_have_none():
    old = encode(np.ones(64))
    assert len(old) == 88 and decode_terms(old) is None and decode_terms("") is None
    both = encode(np.ones(64), (np.array([7, 40000]), np.array([0.0001, 1.0])))
    numbers, weights = decode_terms(both)  # a weight rounding to 0 is left out
    assert numbers.tolist() == [40000] and weights.tolist() == [127.0] and np.array_equal(decode(both), decode(old))


def test_a_text_without_known_words_has_no_vector():
    assert paper_topics([Paper("x", None, "x", "zzqx qqzz")]) == {}


def test_stored_vectors_keep_their_direction():
    rng = np.random.default_rng(3)
    for _ in range(20):
        v = rng.normal(size=64)
        back = decode(encode(v))
        assert len(encode(v)) == 88 and float(back @ v / np.linalg.norm(back) / np.linalg.norm(v)) > 0.999
    assert encode(np.zeros(64)) == "" and decode("") is None


CORPUS = [paper_text(t, a) for t, a in (DIFFUSION_1, DIFFUSION_2, RL)] * 3 + [
    "Graph neural networks pass messages along edges of a graph.",
    "Message passing on graphs with attention over neighbours.",
    "Language models trained on text predict the next token.",
    "Large language models follow instructions after fine-tuning on text.",
]


def test_the_projection_is_scikit_learns_and_a_fit_is_reproducible(tmp_path):
    from sklearn.decomposition import TruncatedSVD
    from sklearn.feature_extraction.text import TfidfVectorizer

    model = fit(CORPUS, dims=4, min_df=1)
    tfidf = TfidfVectorizer(sublinear_tf=True, stop_words="english", min_df=1, max_features=12000).fit(CORPUS)
    svd = TruncatedSVD(4, algorithm="randomized", n_iter=7, random_state=0).fit(tfidf.transform(CORPUS))
    texts = [CORPUS[0], CORPUS[-1], "Diffusion models on graphs, and language models."]
    expected = svd.transform(tfidf.transform(texts))
    assert np.allclose([model.vector(t) for t in texts], expected, atol=1e-5)
    model.save(tmp_path / "m.npz")
    again = TopicModel.read(tmp_path / "m.npz")
    assert again.terms == model.terms
    assert np.allclose(again.components, fit(CORPUS, dims=4, min_df=1).components, atol=1e-3)  # float16 on disk


@pytest.mark.parametrize("text", ["", "the of and"])
def test_only_stop_words_give_the_zero_vector(text):
    assert not fit(CORPUS, dims=4, min_df=1).vector(text).any()
