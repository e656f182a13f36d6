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


def test_markdown_underscore_emphasis_but_not_identifiers():
    assert (
        clean_markup("We run _projected gradient descent_ on top_k_ scores.")
        == "We run projected gradient descent on top_k_ scores."
    )


def test_optional_parts_in_brackets_are_left_out_and_broken_words_joined():
    text = "(block-)coordinate descent on (non)linear draft model(s) with a func- tion, pre- and post-training"
    assert clean_markup(text) == "coordinate descent on linear draft model with a function, pre- and post-training"


def test_pdf_glyphs_become_letters_or_go():
    # NeurIPS 1990s abstracts, as PDF text extraction left them: TeX ligatures, soft hyphens, symbols
    text = "pattern classi(cid:12)cation with e(cid:11)ective learn(cid:173) ing of piri(cid:173)form cortex, (cid:2) fixed"
    assert clean_markup(text) == "pattern classification with effective learning of piriform cortex, fixed"


def test_mojibake_escapes_and_ties_are_read_as_meant():
    text = "the person\xe2\x80\x99s state, 65\\% accuracy on \\#2 regression with latent feature models~and e.g.~time"
    assert clean_markup(text) == "the person’s state, 65% accuracy on #2 regression with latent feature models and e.g. time"


def test_numbers_and_nested_commands_in_math_are_kept():
    # a seed abstract: '$3$-player $\text{\emph{adversarial}}$ team games'
    text = r"Nash equilibria in $3$-player $\text{\emph{adversarial}}$ team games in $O(n^2)$ time"
    assert clean_markup(text) == "Nash equilibria in 3-player adversarial team games in time"
