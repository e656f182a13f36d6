import pytest

from kg.extract.abbreviations import find_abbreviations
from kg.extract.normalize import display_form, phrase_key
from kg.extract.text import clean_markup, first_sentence_label


def test_latex_commands_keep_words_and_drop_formulas():
    text = r"We tune $\mathtt{Adam}$ and $\mathtt{AdamW}$, reaching $O(\epsilon^{-3})$ rates with \textbf{SlerpFlow}."
    assert clean_markup(text) == "We tune Adam and AdamW, reaching rates with SlerpFlow."


def test_markdown_emphasis_and_links():
    text = "We propose **Maximum Likelihood RL (MaxRL)** and *Backward Conformal Prediction*; see [code](https://x.org)."
    assert clean_markup(text) == "We propose Maximum Likelihood RL (MaxRL) and Backward Conformal Prediction; see code."


def test_underline_initials_join_words():
    assert clean_markup(r"\underline{F}irst-\underline{O}rder \underline{L}ogic") == "First-Order Logic"


def test_label_is_first_sentence_cut_at_a_word():
    label = first_sentence_label("A " + "very " * 40 + "long sentence. Second.")
    assert label.endswith("…") and len(label) <= 91 and "Second" not in label


@pytest.mark.parametrize(
    ("a", "b"),
    [
        ("first-order methods", "First Order Method"),
        ("optimisation", "optimization"),
        ("Sharpness-Aware Minimization", "sharpness aware minimisation"),
        ("LLMs", "LLM"),
        ("strategies", "strategy"),
        ("matrices", "matrix"),
    ],
)
def test_variants_share_a_key(a, b):
    assert phrase_key(a) == phrase_key(b)


def test_keys_keep_words_that_only_look_plural():
    assert phrase_key("bias") == "bias" and phrase_key("time series") == "time series"


def test_display_form_keeps_acronyms():
    assert display_form("Parameter-Efficient Fine-Tuning") == "parameter-efficient fine-tuning"
    assert display_form("QLoRA Adapters") == "QLoRA adapters"


@pytest.mark.parametrize(
    ("text", "pair"),
    [
        ("Sharpness-Aware Minimization (SAM) improves generalization.", ("SAM", "Sharpness-Aware Minimization")),
        ("training large language models (LLMs) is costly", ("LLMs", "large language models")),
        ("the Kullback-Leibler (KL) divergence", ("KL", "Kullback-Leibler")),
        ("offline Inverse Reinforcement Learning (IRL) that", ("IRL", "Inverse Reinforcement Learning")),
    ],
)
def test_schwartz_hearst_definitions(text, pair):
    assert [(a.short, a.long) for a in find_abbreviations(text)] == [pair]


def test_no_definition_from_unrelated_parenthesis():
    assert find_abbreviations("We improve accuracy (by 5 points) on (ImageNet) tasks.") == []
