"""Concept extraction on real sentences, including the ambiguous cases."""

import pytest

from kg.extract.pipeline import DocumentInput


def names(extractor, text, keywords=()):
    [found] = extractor.extract([DocumentInput(text, tuple(keywords))])
    return [c.name for c in found]


def keys(extractor, text):
    [found] = extractor.extract([DocumentInput(text)])
    return {c.key for c in found}


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("We prove that the satisfiability of first-order logic formulas over these structures is decidable.", "first-order logic"),
        ("We propose a single-loop first-order algorithm for bilevel optimization with linear constraints.", "first-order method"),
        ("Our analysis covers first-order optimization under heavy-tailed noise.", "first-order method"),
        ("The attack uses a first-order Taylor approximation of the loss around the input.", "first-order Taylor approximation"),
        ("We learn policies whose return distributions satisfy first-order stochastic dominance over a baseline.", "first-order stochastic dominance"),
    ],
)
def test_first_order_family_are_different_concepts(extractor, text, expected):
    found = names(extractor, text)
    assert expected in found
    assert [n for n in found if n.startswith("first-order")] == [expected]


def test_a_first_order_concern_is_no_concept(extractor):
    found = names(extractor, "Data mixing is a first-order concern for training language models on web corpora.")
    assert not [n for n in found if "first" in n.lower()]
    assert "data mixing" in found


def test_sam_defined_in_text_is_sharpness_aware_minimization(extractor):
    text = "Sharpness-Aware Minimization (SAM) improves generalization. SAM and its variants rely on a perturbation of the weights."
    [found] = extractor.extract([DocumentInput(text)])
    sam = next(c for c in found if c.key == "sharpness aware minimization")
    assert "SAM" in sam.aliases and sam.name == "sharpness-aware minimization"
    assert sam.broader[0][1] == "optimization method"


def test_a_person_named_sam_is_not_sam(extractor):
    found = keys(extractor, "We thank Sam for discussions on image classification and for the loss landscape figures.")
    assert "sharpness aware minimization" not in found and "segment anything model" not in found


def test_sam_for_segmentation_is_segment_anything(extractor):
    found = keys(extractor, "We adapt SAM to medical image segmentation with point prompts and mask decoders.")
    assert "segment anything model" in found and "sharpness aware minimization" not in found


def test_abbreviation_used_elsewhere_in_the_batch_resolves(extractor):
    docs = [
        DocumentInput("We study direct preference optimization for retrieval-augmented generation (RAG) pipelines in enterprise search."),
        DocumentInput("Our RAG system grounds answers in retrieved passages from enterprise search logs."),
    ]
    first, second = extractor.extract(docs)
    assert "retrieval augmented generation" in {c.key for c in second}


def test_undefined_abbreviation_with_local_long_form_is_merged(extractor):
    text = "Knowledge distillation (KD) compresses models. In KD, a student mimics a teacher's logits."
    found = [c for c in extractor.extract([DocumentInput(text)])[0] if c.key == "knowledge distillation"]
    assert len(found) == 1 and "KD" in found[0].aliases


def test_author_keywords_are_concepts(extractor):
    found = names(extractor, "We train models on images.", ["Optimal Transport", "diffusion models"])
    assert set(found[:2]) == {"optimal transport", "diffusion model"}


def test_common_words_are_never_key_concepts(extractor, seeded_embedded):
    common = {"method", "model", "result", "results", "approach", "performance", "paper", "data", "task", "problem"}
    page = seeded_embedded.store.find_concepts(None, 0, 10_000)
    assert not common & {c.key for c in page.items}


def test_plural_and_hyphen_variants_merge_in_one_document(extractor):
    text = "State-space models (SSMs) are efficient. Unlike other state space models, our SSM is stable."
    found = [c for c in extractor.extract([DocumentInput(text)])[0] if "state space" in c.key]
    assert [c.key for c in found] == ["state space model"]


def test_parallel_workers_give_the_same_concepts(extractor, monkeypatch):
    from kg.extract import pipeline
    from kg.extract.pipeline import ConceptExtractor

    from helpers import SAMPLES
    from kg.readers import read_path

    texts = [r.abstract for f in sorted(SAMPLES.glob("*.txt")) for r in read_path(f)]
    docs = [DocumentInput(t) for t in texts]
    monkeypatch.setattr(pipeline, "PARALLEL_FROM", 10)
    parallel = ConceptExtractor(extractor.nlp, vocabulary=extractor.vocabulary, background=extractor.background, n_process=2)
    assert parallel.extract(docs) == extractor.extract(docs)


def test_an_ambiguous_keyword_reads_like_its_paper(extractor):
    sharp = DocumentInput("We study why flat minima found by minimizing sharpness improve generalization.", ("SAM",))
    seg = DocumentInput("We use foundation models for instance segmentation with mask prompts.", ("sam",))
    first, second = extractor.extract([sharp, seg])
    assert "sharpness aware minimization" in {c.key for c in first}
    assert "segment anything model" in {c.key for c in second}
    assert "sam" not in {c.key for c in first + second}


def test_a_modifier_short_form_names_the_term_it_builds(extractor):
    text = "Zeroth-order (ZO) methods avoid gradients. We analyse ZO methods for fine-tuning."
    [found] = extractor.extract([DocumentInput(text)])
    zo = next(c for c in found if c.key == "zeroth order optimization")
    assert "ZO" in zo.aliases
    assert not any(c.key == "zeroth order" for c in found)
