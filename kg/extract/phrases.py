"""Where a noun phrase may start and end: the word-level rules the candidate finder runs over a
part-of-speech run (``kg.extract.candidates``). Pure functions of the tokens (``kg.extract.tokens``).

A run of nouns, adjectives and hyphenated words is trimmed to a phrase (``trim``): weak leading
words go (generic, participle, numeric or one-letter modifiers), and so do trailing words that are
no head (``is_head``: a noun, or an -ing noun after a modifier). Generic heads make no concept
alone (``generic_head``).
"""

from __future__ import annotations

from kg.extract.tokens import NOUNS, Tokens
from kg.extract.wordlists import COMPOUND_SUFFIXES, DISCOURSE_HEADS, GENERIC_HEADS, GENERIC_MODIFIERS, UNNAMED_HEADS

__all__ = [
    "NOUNS",
    "MAX_WORDS",
    "can_continue",
    "participle_lead",
    "is_head",
    "generic_head",
    "names_before_discourse_head",
    "weak_start",
    "trim",
]

_MODIFIER_POS = {"NOUN", "PROPN", "ADJ"}
MAX_WORDS = 4


def can_continue(t: Tokens, w: tuple[int, int]) -> bool:
    """A word that may be part of a noun-phrase run: a noun or modifier, a name's possessive, a compound."""
    head = w[1]
    if t.possessive[head]:  # "Newton's method"
        return True
    if w[0] == head and t.stop[head]:
        return False
    if (
        t.pos[head] in _MODIFIER_POS
        or (w[0] != head and t.lower[head] in COMPOUND_SUFFIXES)
        or _coordinated(t, w)
        or _participle_compound(t, w)
    ):  # 'message-passing operations'
        return True
    # 'constrained optimization'; 'time series forecasting', 'catastrophic forgetting' (trimmed unless it ends a phrase)
    return t.tag[head] in ("VBN", "VBG") and w[0] == head


def participle_lead(t: Tokens, w: tuple[int, int]) -> str | None:
    """``sub`` for a past participle ('compressed sensing') or an -ing word after an article ('the vanishing gradient');
    other -ing words are mostly a clause's verb ('improving generalization'): ``attested``, if the literature names it."""
    if w[0] != w[1] or t.stop[w[0]] or t.lower[w[0]] in GENERIC_MODIFIERS or t.tag[w[0]] not in ("VBN", "VBG"):
        return None
    return "sub" if t.tag[w[0]] == "VBN" or (w[0] > 0 and t.tag[w[0] - 1] in ("DT", "PRP$")) else "attested"


def is_head(t: Tokens, run: list, *, final: bool = True) -> bool:
    """A phrase ends in a noun, or in an -ing noun after a modifier ('adversarial training'), also inside
    a word ('decision-making') where nothing follows it (before a noun it modifies: 'self-driving cars')."""
    head = run[-1][1]
    if t.lower[head] in COMPOUND_SUFFIXES:  # a compound's last part ('-based', 'Guided' in a Title-Case title): no noun
        return False
    if (
        t.pos[head] in NOUNS
        or _coordinated(t, run[-1])
        or (final and t.tag[head] == "VBG" and _participle_compound(t, run[-1], NOUNS))
    ):
        return True
    return len(run) > 1 and t.tag[head] == "VBG" and t.pos[run[-2][1]] in _MODIFIER_POS


def _participle_compound(t: Tokens, w: tuple[int, int], before: set[str] = _MODIFIER_POS) -> bool:
    """A hyphenated word whose last piece is a participle after a noun or adjective: a modifier of the
    phrase it leads ('hand-crafted features'), or, after a noun, an -ing noun itself ('decision-making')."""
    head = w[1]
    return head - w[0] >= 2 and t.tag[head] in ("VBG", "VBN") and t.infix[head - 1] and t.pos[head - 2] in before


def _coordinated(t: Tokens, w: tuple[int, int]) -> bool:  # 'branch-and-bound' names a thing, however tagged
    return w[1] - w[0] >= 4 and any(t.lower[i] in ("and", "or") for i in range(w[0] + 1, w[1]))


def generic_head(t: Tokens, run: list) -> bool:
    """A generic word alone ('results'), or one that names nothing even when modified ('a first-order
    concern'); other modified generic heads are left to the ranker ('treatment effect')."""
    head = {t.lower[run[-1][1]], t.last[run[-1][1]]}
    return bool(head & UNNAMED_HEADS) or (len(run) == 1 and bool(head & GENERIC_HEADS))


def names_before_discourse_head(t: Tokens, run: list) -> bool:
    """'privacy concerns', 'the Lipschitz neural network way'; a proper noun alone may be a title's adjective."""
    before = run[-2][1] if len(run) > 1 and t.last[run[-1][1]] in DISCOURSE_HEADS else None
    return before is not None and (t.tag[before] in ("NN", "NNS") or (len(run) > 2 and t.pos[before] == "PROPN"))


def weak_start(t: Tokens, w: tuple[int, int]) -> bool:
    """Leading words that make no concept: generic, participle, numeric or one-letter modifiers."""
    single = w[0] == w[1]
    return (
        t.span_text(*w).lower() in GENERIC_MODIFIERS
        or (single and (t.tag[w[0]] in {"VBN", "VBG", "POS"} or t.num[w[0]] or len(t.text[w[0]]) == 1))  # not 'zero-shot'
    )


def trim(t: Tokens, run: list) -> list:
    """Drop weak leading words and trailing non-nouns; keep the last ``MAX_WORDS`` words, their weak lead dropped too."""
    for _ in range(2):
        while run and weak_start(t, run[0]) and (len(run) > 1 or t.num[run[0][0]]):  # a lone number goes too
            run = run[1:]
        while run and not is_head(t, run):
            run = run[:-1]
        run = run[-MAX_WORDS:]
    return run[1:] if run and t.possessive[run[0][0]] else run  # not "'s basic module'
