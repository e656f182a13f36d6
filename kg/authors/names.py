"""Names as people write them, folded so that one person's spellings compare equal.

A name is read as given names and a surname (the last word). Folding drops accents,
case, dots and the difference between a hyphen and a space inside given names, so
*Aurélien Lucchi* and *Aurelien Lucchi*, *Byung-Ju Yi* and *Byung Ju Yi* are one
spelling. A *block* (surname and first initial) holds every name that may be the
same person: *M. Gienger* and *Michael Gienger* share the block ``gienger m``.
"""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass
from functools import lru_cache

__all__ = [
    "ParsedName",
    "fold",
    "parse_name",
    "compatibility",
    "given_compatibility",
    "NAME_EXACT",
    "NAME_FULL",
    "NAME_INITIAL",
    "NAME_CONFLICT",
]

# Letters that Unicode does not decompose into a base letter and a mark.
_TRANSLIT = str.maketrans(
    {
        "ø": "o",
        "Ø": "o",
        "ł": "l",
        "Ł": "l",
        "đ": "d",
        "Đ": "d",
        "ß": "ss",
        "æ": "ae",
        "Æ": "ae",
        "œ": "oe",
        "Œ": "oe",
        "ı": "i",
        "þ": "th",
        "ð": "d",
    }
)
_SUFFIXES = {"jr", "sr", "ii", "iii", "iv", "phd"}
_WORD = re.compile(r"[^\W_]+(?:['’][^\W_]+)?", re.UNICODE)

NAME_CONFLICT = 0  # two different given names or middle initials: never one person
NAME_INITIAL = 1  # compatible, but one side gives only initials (M. Gienger ~ Michael Gienger)
NAME_FULL = 2  # the same first name, a middle initial on one side only (Michael J. Black ~ Michael Black)
NAME_EXACT = 3  # the same given names once folded


def fold(text: str) -> str:
    """Lower case without accents: the spelling every comparison uses.

    >>> fold("Aurélien  Łukasz Øyvind")
    'aurelien  lukasz oyvind'
    """
    text = unicodedata.normalize("NFKD", text.translate(_TRANSLIT))
    return "".join(c for c in text if not unicodedata.combining(c)).translate(_TRANSLIT).casefold()


@dataclass(frozen=True, slots=True)
class ParsedName:
    """A folded name: ``given`` holds each given name (hyphenated parts apart), ``joined`` them run together."""

    surname: str
    given: tuple[str, ...]

    @property
    def joined(self) -> str:
        return "".join(self.given)

    @property
    def block(self) -> str:
        """Surname and first initial: the names that may be one person share it."""
        return f"{self.surname} {self.given[0][0]}" if self.given else self.surname

    @property
    def full(self) -> str:
        """The folded name, given names first: the key of one spelling."""
        return " ".join((*self.given, self.surname))

    @property
    def initials_only(self) -> bool:
        return all(len(g) == 1 for g in self.given)


def parse_name(raw: str) -> ParsedName | None:
    """The folded parts of a byline name (None when it has no letters).

    >>> parse_name("Byung-Ju Yi") == parse_name("Byung Ju Yi")
    True
    >>> parse_name("M. J. van Genabith, Jr.")
    ParsedName(surname='genabith', given=('m', 'j', 'van'))
    >>> parse_name("Mobahi, H.") == parse_name("H. Mobahi")
    True
    """
    head, comma, tail = raw.partition(",")
    if comma and tail.strip() and fold(tail).strip(" .").split()[0] not in _SUFFIXES:
        raw = f"{tail} {head}"  # "Surname, Given"
    words = [w.replace("’", "").replace("'", "") for w in _WORD.findall(fold(raw))]
    while len(words) > 1 and words[-1] in _SUFFIXES:
        words.pop()
    if not words:
        return None
    return ParsedName(words[-1], tuple(words[:-1]))


def compatibility(a: ParsedName, b: ParsedName) -> int:
    """How far two names of one block can be one person: ``NAME_EXACT`` down to ``NAME_CONFLICT``.

    >>> p = parse_name
    >>> compatibility(p("Michael Gienger"), p("M. Gienger")) == NAME_INITIAL
    True
    >>> compatibility(p("Michael J. Black"), p("Michael Black")) == NAME_FULL
    True
    >>> compatibility(p("Michael J. Black"), p("Michael K. Black")) == NAME_CONFLICT
    True
    >>> compatibility(p("Yang Liu"), p("Yan Liu")) == NAME_CONFLICT
    True
    """
    if a.surname != b.surname:
        return NAME_CONFLICT
    return given_compatibility(a.given, b.given)


@lru_cache(maxsize=200_000)
def given_compatibility(a: tuple[str, ...], b: tuple[str, ...]) -> int:
    """``compatibility`` of two names with one surname, from their given names alone."""
    if "".join(a) == "".join(b):
        return NAME_EXACT
    if not a or not b:
        return NAME_INITIAL  # a surname alone says nothing against
    (first_a, *rest_a), (first_b, *rest_b) = a, b
    if first_a[0] != first_b[0]:
        return NAME_CONFLICT
    level = NAME_FULL
    if len(first_a) > 1 and len(first_b) > 1:
        if first_a != first_b:
            return NAME_CONFLICT
    else:
        level = NAME_INITIAL
    # middle names: compared by initial where both sides give one, else by name
    for x, y in zip(rest_a, rest_b):
        if x[0] != y[0] or (len(x) > 1 and len(y) > 1 and x != y):
            return NAME_CONFLICT
    return level
