"""Abbreviation definitions found with the Schwartz–Hearst algorithm.

Schwartz & Hearst (2003), "A simple algorithm for identifying abbreviation
definitions in biomedical text": for each ``long form (SHORT)`` pair, walk the
short form's characters from the end and find each one in the words before the
parenthesis, right to left; the first character must start a word. Written
here from the paper's description.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

__all__ = ["Abbreviation", "find_abbreviations", "keyword_parts"]

_PAREN = re.compile(r"\(([^()]{1,40})\)")
_WORD = re.compile(r"\S+")


@dataclass(frozen=True, slots=True)
class Abbreviation:
    short: str
    long: str
    start: int  # character offset of the long form
    end: int  # character offset just after the long form


def _valid_short(short: str) -> bool:
    if not 2 <= len(short) <= 10 or len(short.split()) > 2:
        return False
    if not short[0].isalnum() or not any(c.isalpha() for c in short):
        return False
    # A short form has a capital letter, or is a lower-case token such as 'i.i.d.'
    return any(c.isupper() for c in short)


def _plural_short(short: str) -> bool:
    """A short form with a plural s that its long form may spell in another word, or not at all."""
    return short.endswith("s") and sum(c.isupper() for c in short) >= 2


def _best_long_form(short: str, candidate: str) -> int | None:
    """Offset in candidate where the long form starts, or None."""
    s = len(short) - 1
    l = len(candidate) - 1
    while s >= 0:
        c = short[s].lower()
        if not c.isalnum():
            s -= 1
            continue
        while l >= 0 and (candidate[l].lower() != c or (s == 0 and l > 0 and candidate[l - 1].isalnum())):
            l -= 1
        if l < 0:
            return None
        l -= 1
        s -= 1
    start = l + 1
    # Extend to the start of the word the match began in.
    while start > 0 and not candidate[start - 1].isspace():
        start -= 1
    return start


def find_abbreviations(text: str) -> list[Abbreviation]:
    """Every ``long form (SF)`` definition in text, in order.

    Examples
    --------
    >>> [(a.short, a.long) for a in find_abbreviations("Sharpness-Aware Minimization (SAM) helps.")]
    [('SAM', 'Sharpness-Aware Minimization')]
    >>> [(a.short, a.long) for a in find_abbreviations("large language models (LLMs) are big")]
    [('LLMs', 'large language models')]
    >>> [(a.short, a.long) for a in find_abbreviations("six Degrees of Freedom (DoFs); a Generative Flow Network (GFlowNets)")]
    [('DoFs', 'Degrees of Freedom'), ('GFlowNets', 'Generative Flow Network')]
    """
    found: list[Abbreviation] = []
    for match in _PAREN.finditer(text):
        inner = re.split(r"[;,]\s", match.group(1))[0].strip()
        if not _valid_short(inner):
            continue
        before = text[: match.start()].rstrip()
        words = list(_WORD.finditer(before))
        max_words = min(len(inner) + 5, len(inner) * 2)
        window = words[-max_words:]
        if not window:
            continue
        # The long form never crosses a sentence or clause break.
        for i in range(len(window) - 1, -1, -1):
            if i < len(window) - 1 and re.search(r"[.;:!?]$|[\"“”]", window[i].group()):
                window = window[i + 1 :]
                break
        if not window:
            continue
        offset = window[0].start()
        candidate = before[offset:]
        start = _best_long_form(inner, candidate)
        if start is None and _plural_short(inner):  # Degrees of Freedom (DoFs), Generative Flow Network (GFlowNets)
            start = _best_long_form(inner[:-1], candidate)
        if start is None:
            continue
        long_form = candidate[start:].strip(" ,-–")
        if len(long_form) <= len(inner) or inner.lower() in long_form.lower().split():
            continue
        if len(long_form.split()) > max_words:
            continue
        found.append(Abbreviation(inner, long_form, offset + start, offset + start + len(long_form)))
    return found


def keyword_parts(keyword: str) -> tuple[str, str | None]:
    """An author keyword's name, and the short form it defines for that whole name, if any.

    A keyword may end in a full stop, or define its short form the way a text does; the name is
    what comes before. A short form defined for part of the name is no alias of it.

    >>> [keyword_parts(k) for k in ("Large Language Models (LLMs)", "Zero-Shot.", "Neural Ordinary Differential Equation (ODE)")]
    [('Large Language Models', 'LLMs'), ('Zero-Shot', None), ('Neural Ordinary Differential Equation', None)]
    >>> [keyword_parts(k)[0] for k in ("SE(3) equivariance", "i.i.d.")]
    ['SE(3) equivariance', 'i.i.d.']
    >>> keyword_parts("Generative Flow Network (GFlowNets)")
    ('Generative Flow Network', 'GFlowNets')
    """
    name = keyword.strip().rstrip(",;: ")
    if name.endswith(".") and "." not in name[:-1].rsplit(" ", 1)[-1]:  # not 'i.i.d.'
        name = name[:-1].rstrip()
    if name.endswith(")"):
        head = name[: name.rfind("(")].rstrip()
        for abbr in find_abbreviations(name):
            if abbr.end == len(head) and name.endswith(f"({abbr.short})"):
                return head, abbr.short if abbr.start == 0 else None
    return name, None
