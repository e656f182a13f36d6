"""A tagged Doc's token attributes as plain lists, and the word and segment structure the rules read."""

from __future__ import annotations

from spacy.attrs import IS_PUNCT, IS_SPACE, IS_STOP, LIKE_NUM, LOWER, ORTH, POS, SPACY, TAG
from spacy.parts_of_speech import IDS as _POS_IDS
from spacy.tokens import Doc

from kg.extract.normalize import word_norm

__all__ = ["NOUNS", "Tokens", "noun_after_parenthesis"]

NOUNS = {"NOUN", "PROPN"}  # the coarse parts of speech a phrase may end in
_HYPHENS = {"-", "‐", "‑", "–"}
_POS_NAMES = {v: k for k, v in _POS_IDS.items()}


class Tokens:
    """The token attributes the rules read, copied once out of the Doc (fast to index)."""

    __slots__ = ("text", "lower", "pos", "tag", "stop", "num", "punct", "ws", "infix", "norm", "last", "possessive")

    def __init__(self, doc: Doc) -> None:
        # One array read instead of a Token object per token and attribute.
        strings = doc.vocab.strings
        rows = doc.to_array([ORTH, LOWER, TAG, POS, IS_STOP, LIKE_NUM, IS_PUNCT, IS_SPACE, SPACY]).tolist()
        self.ws = [" " if r[8] else "" for r in rows]
        self.text = _tidy([strings[r[0]] for r in rows], self.ws)
        self.lower = [w.lower() for w in self.text]
        self.tag = [strings[r[2]] for r in rows]
        self.pos = [_POS_NAMES.get(r[3], "") for r in rows]
        self.stop = [bool(r[4]) for r in rows]
        self.num = [bool(r[5]) for r in rows]
        self.punct = [bool(r[6] or r[7]) for r in rows]
        n = len(self.text)
        self.infix = [
            self.text[i] in _HYPHENS and 0 < i < n - 1 and self.ws[i - 1] == "" and self.ws[i] == "" and not self.punct[i + 1]
            for i in range(n)
        ]
        # The 's of a name before a lower-case noun: "Newton's method" (an eponym; the key drops it), not
        # a title's "Tabletop Robot's Expressivity" or "BERT's interpretation"
        self.possessive = [
            0 < i < n - 1
            and self.tag[i] == "POS"
            and self.pos[i - 1] == "PROPN"
            and not self.ws[i - 1]
            and _name_like(self.text[i - 1])
            and self.text[i + 1][:1].islower()
            for i in range(n)
        ]
        self.norm = [word_norm(_strip(w)) for w in self.text]
        self.last = [word_norm(_strip(w), last=True) for w in self.text]

    def span_text(self, first: int, last: int) -> str:
        return "".join(self.text[i] + (self.ws[i] if i < last else "") for i in range(first, last + 1))

    def words(self, start: int, end: int) -> list[tuple[int, int]]:
        """Hyphen-joined words as (first token, last token) within [start, end)."""
        words: list[tuple[int, int]] = []
        i = start
        while i < end:
            j = i
            while j + 2 < end and self.infix[j + 1]:
                j += 2
            words.append((i, j))
            i = j + 1
        return words

    def segments(self) -> list[tuple[int, int]]:
        """Token ranges between punctuation (infix hyphens do not split)."""
        segments, start = [], 0
        for i, punct in enumerate(self.punct):
            if punct and not self.infix[i]:
                if i > start:
                    segments.append((start, i))
                start = i + 1
        if start < len(self.text):
            segments.append((start, len(self.text)))
        return segments

    def key_parts(self, word: tuple[int, int], *, final: bool) -> list[str]:
        toks = [i for i in range(word[0], word[1] + 1) if not self.infix[i]]
        if not final:
            return [self.norm[i] for i in toks]
        return [self.norm[i] for i in toks[:-1]] + [self.last[toks[-1]]]


def _tidy(text: list[str], ws: list[str]) -> list[str]:
    """Token texts as names read them: 'SO(3' takes back the ')' the tokenizer split off, a suspended
    hyphen ('passing-'), a sentence's full stop ('MNIST-1D.', 'k.') and an opening quote ('“jointly') come off.

    >>> _tidy(["SO(3", ")", "message", "passing-", "on", "MNIST-1D.", "U.S.", "-", "“jointly"], [""] + [" "] * 8)
    ['SO(3)', ')', 'message', 'passing', 'on', 'MNIST-1D', 'U.S.', '-', 'jointly']
    """
    out = list(text)
    for i, word in enumerate(text):
        if word.count("(") > word.count(")") and i + 1 < len(text) and text[i + 1] == ")" and not ws[i]:
            out[i] = word + ")"
        elif len(word) > 1 and word[-1] == "-" and word.strip("-"):
            out[i] = word.rstrip("-")
        elif len(word) > 1 and word[-1] == "." and word.count(".") == 1:
            out[i] = word[:-1]
        if len(out[i]) > 1 and out[i][0] in "‘“":  # an opening quote the tokenizer left on
            out[i] = out[i][1:]
    return out


def _strip(word: str) -> str:
    return word.strip("'’\"“”()[]")


def _name_like(word: str) -> bool:
    """Capitalised and not all capitals: 'Newton', 'McDiarmid', not 'BERT'."""
    return word[:1].isupper() and any(c.islower() for c in word)


def noun_after_parenthesis(span) -> str | None:
    """The noun after a span's closing bracket, which completes a term: 'Kullback-Leibler (KL) divergence'."""
    toks = list(span[:4])
    close = next((i for i, t in enumerate(toks) if t.text == ")"), None)
    return toks[close + 1].text if close is not None and close + 1 < len(toks) and toks[close + 1].pos_ in NOUNS else None
