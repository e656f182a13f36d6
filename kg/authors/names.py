"""Names as people write them, folded so that one person's spellings compare equal.

A name is read as given names and a surname (the last word). Folding drops accents,
case, dots and the difference between a hyphen and a space inside given names, so
*Aurélien Lucchi* and *Aurelien Lucchi*, *Byung-Ju Yi* and *Byung Ju Yi* are one
spelling. A hyphenated given name is still one name when names are compared: *Yi-Ling
Chen* may be *Yi Ling Chen*, *Yiling Chen* or *Y. Chen*, never *Yi Chen*. A *block* (surname and first initial) holds every name that may be the
same person: *M. Gienger* and *Michael Gienger* share the block ``gienger m``.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Container
from dataclasses import dataclass, field
from functools import lru_cache

__all__ = [
    "ParsedName",
    "fold",
    "parse_name",
    "compatibility",
    "given_compatibility",
    "run_together",
    "spelled_surname",
    "twin_blocks",
    "prints_umlaut",
    "umlaut_level",
    "written_both_ways",
    "family",
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
# German writes an umlaut out when it cannot print it: Krömer is Kroemer (and, with the dots lost, Kromer).
_UMLAUTS = str.maketrans({"ä": "ae", "ö": "oe", "ü": "ue", "Ä": "Ae", "Ö": "Oe", "Ü": "Ue"})
_HAS_UMLAUT = re.compile("[äöüÄÖÜ]")
_SPELLED_OUT = re.compile("([aou])e")
_WORD = re.compile(r"[^\W_]+(?:['’][^\W_]+)?", re.UNICODE)
# A letter, no dot, a hyphen, then a name: one given name's first syllable (*I-Ming*, *A-Long*), not an initial.
_SYLLABLE = re.compile(r"[^\W\d_]-[^\W\d_]{2}")

NAME_CONFLICT = 0  # two different given names or middle initials: never one person
NAME_INITIAL = 1  # compatible, but one side gives only initials (M. Gienger ~ Michael Gienger)
NAME_FULL = 2  # the same first name, a middle initial on one side only (Michael J. Black ~ Michael Black)
NAME_EXACT = 3  # the same given names once folded


def fold(text: str) -> str:
    """Lower case without accents: the spelling every comparison uses.

    >>> fold("Aurélien  Łukasz Øyvind")
    'aurelien  lukasz oyvind'
    """
    if text.isascii():  # nothing to decompose or transliterate
        return text.casefold()
    text = unicodedata.normalize("NFKD", text.translate(_TRANSLIT))
    return "".join(c for c in text if not unicodedata.combining(c)).translate(_TRANSLIT).casefold()


@dataclass(frozen=True, slots=True)
class ParsedName:
    """A folded name: ``given`` holds each given name (hyphenated parts apart), ``joined`` them run together.

    ``units`` are the given names as compared: a hyphenated given name of full parts stays one
    (``yi-ling``); it does not take part in equality, so one spelling's variants stay equal.
    """

    surname: str
    given: tuple[str, ...]
    units: tuple[str, ...] = field(compare=False, repr=False)

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
    words = fold(raw).split()
    pieces = [(w.replace("’", "").replace("'", ""), at) for at, word in enumerate(words) for w in _WORD.findall(word)]
    while len(pieces) > 1 and pieces[-1][0] in _SUFFIXES:
        pieces.pop()
    if not pieces:
        return None
    given = pieces[:-1]
    syllabic = {at for at, word in enumerate(words) if _SYLLABLE.match(word)}
    return ParsedName(pieces[-1][0], tuple(p for p, _ in given), _units(given, pieces[-1][1], syllabic))


def _units(pieces: list[tuple[str, int]], surname_word: int, syllabic: Container[int]) -> tuple[str, ...]:
    """Given names as compared: the parts of one written word (``Yi-Ling``) joined by a hyphen when each is a
    full name, or when the word begins with an undotted letter (``I-Ming``, a word of ``syllabic``); initials
    (``Y.-L.``) stay apart. The first part of a hyphenated surname (``Hasegawa-Johnson``) ends the units with a
    hyphen (``hasegawa-``)."""
    out: list[str] = []
    for i, (piece, at) in enumerate(pieces):
        if i and at == pieces[i - 1][1] and len(piece) > 1 and (len(out[-1]) > 1 or at in syllabic):
            out[-1] += "-" + piece
        else:
            out.append(piece)
    if pieces and pieces[-1][1] == surname_word:
        out[-1] += "-"
    return tuple(out)


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
    return given_compatibility(a.units, b.units)


def run_together(units) -> str:
    """Given names (``units``, or the words of a stored spelling) run together without spaces or hyphens: the
    spelling ``ParsedName.joined`` gives (``yi-ling`` and ``yi ling`` are both ``yiling``)."""
    return "".join(units).replace("-", "")


def _parts(units: tuple[str, ...]) -> list[str]:
    """Each given name's parts, in order (``yi-ling`` gives ``yi`` and ``ling``)."""
    return [p for u in units for p in u.split("-")]


@lru_cache(maxsize=200_000)
def given_compatibility(a: tuple[str, ...], b: tuple[str, ...]) -> int:
    """``compatibility`` of two names with one surname, from their given names alone (``ParsedName.units``: a
    hyphenated given name must be met whole, by its parts or initials, not by its first part alone).

    >>> g = lambda x, y: given_compatibility(parse_name(x).units, parse_name(y).units)
    >>> g("Yi-Ling Chen", "Yi Chen") == NAME_CONFLICT
    True
    >>> g("Yi-Ling Chen", "Yiling Chen") == g("Yi-Ling Chen", "Yi Ling Chen") == NAME_EXACT
    True
    >>> g("Yi-Ling Chen", "Y. Chen") == g("Yi-Ling Chen", "Y.-L. Chen") == NAME_INITIAL
    True
    >>> g("Mark Hasegawa-Johnson", "Mark Johnson") == NAME_CONFLICT
    True
    >>> g("Mark Hasegawa-Johnson", "M. A. Hasegawa-Johnson") == NAME_INITIAL
    True
    >>> g("I-Ming Chen", "Ivan Chen") == NAME_CONFLICT, g("I-Ming Chen", "I. Chen") == NAME_INITIAL
    (True, True)
    >>> g("H. Jin Kim", "Hongmin Kim") == NAME_CONFLICT, g("H. Jin Kim", "Hyoun Jin Kim") == NAME_INITIAL
    (True, True)
    """
    if run_together(a) == run_together(b):
        return NAME_EXACT
    found = _without_surname_part(a, b)
    if found is None:
        return NAME_CONFLICT
    a, b = found
    if not a or not b:
        return NAME_INITIAL  # a surname alone says nothing against
    a, b = _aligned(a, b), _aligned(b, a)
    flat_a, flat_b = _parts(a), _parts(b)
    if _cut(a, flat_b) or _cut(b, flat_a):
        return NAME_CONFLICT
    (first_a, *rest_a), (first_b, *rest_b) = flat_a, flat_b
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
    if _drops_name_used(flat_a, flat_b) or _drops_name_used(flat_b, flat_a):
        return NAME_CONFLICT
    return level


def _drops_name_used(x: list[str], y: list[str]) -> bool:
    """Whether ``x`` gives an initial and then the full name its bearer goes by (*H. Jin*, *C. L. Philip*) while ``y``
    spells out a first name and ends before that name, never writing it (*Hongmin*; *Hyoun Jin* writes it).

    >>> _drops_name_used(["h", "jin"], ["hongmin"]), _drops_name_used(["s", "shankar"], ["shankar"])
    (True, False)
    """
    if len(x[0]) > 1 or len(y[0]) == 1:
        return False
    used = next((i for i, n in enumerate(x) if len(n) > 1), None)
    return used is not None and len(y) <= used and x[used] not in y


def _without_surname_part(a: tuple[str, ...], b: tuple[str, ...]) -> tuple[tuple[str, ...], tuple[str, ...]] | None:
    """Both names without the first part of a hyphenated surname (``hasegawa-``), or None when only one has it.
    A name written with a space there (*Mark Hasegawa Johnson*) has it as its last given name."""
    part_a = a[-1][:-1] if a and a[-1].endswith("-") else None
    part_b = b[-1][:-1] if b and b[-1].endswith("-") else None
    if part_a is None and part_b is None:
        return a, b
    a, b = a[:-1] if part_a is not None else a, b[:-1] if part_b is not None else b
    if part_a is None and a and a[-1] == part_b:
        a = a[:-1]
    elif part_b is None and b and b[-1] == part_a:
        b = b[:-1]
    elif part_a != part_b:
        return None
    return a, b


def _aligned(a: tuple[str, ...], b: tuple[str, ...]) -> tuple[str, ...]:
    """``a`` with each name written run together (``yiling``) split as ``b`` hyphenates it (``yi-ling``)."""
    joined = {run_together((u,)): u for u in b if "-" in u}
    return tuple(joined.get(u, u) for u in a)


def _cut(a: tuple[str, ...], flat_b: list[str]) -> bool:
    """Whether the other name (its ``_parts``) meets a hyphenated name of ``a`` with only its first parts, the
    last of them a full name (*Yi* for *Yi-Ling*; the initial *Y.* is no cut)."""
    at = 0
    for u in a:
        parts = u.split("-")
        seen = flat_b[at : at + len(parts)]
        if 0 < len(seen) < len(parts) and len(seen[-1]) > 1:
            return True
        at += len(parts)
    return False


@lru_cache(maxsize=100_000)
def spelled_surname(written: str) -> str | None:
    """The folded surname of a name with its umlauts written out (*Krömer* and *Kroemer*: ``kroemer``).

    >>> spelled_surname("Alin Albu-Schäffer"), spelled_surname("Oliver Kroemer"), spelled_surname("Oliver Kromer")
    ('schaeffer', 'kroemer', 'kromer')
    """
    parsed = parse_name(written.translate(_UMLAUTS) if prints_umlaut(written) else written)
    return parsed.surname if parsed else None


def prints_umlaut(written: str) -> bool:
    """Whether a name as written prints an umlaut (ä, ö, ü)."""
    return _HAS_UMLAUT.search(written) is not None


@lru_cache(maxsize=100_000)
def _umlauts_dropped(units: tuple[str, ...]) -> tuple[str, ...]:
    """Given names with a written-out umlaut's e dropped (``juergen``: ``jurgen``), as folding drops the dots."""
    return tuple(_SPELLED_OUT.sub(r"\1", u) for u in units)


def umlaut_level(units: tuple[str, ...], spelling: tuple[str, ...]) -> int:
    """``given_compatibility`` of two given names once a written-out umlaut is read as the folded one (*Juergen*
    as *Jurgen*, which is how *Jürgen* folds); ``NAME_CONFLICT`` when neither writes one out. Whether the names
    had an umlaut at all is the caller's to know: *Michael* is no *Michal*.

    >>> umlaut_level(("juergen",), ("jurgen",)) == NAME_EXACT, umlaut_level(("yang",), ("yan",))
    (True, 0)
    """
    a, b = _umlauts_dropped(units), _umlauts_dropped(spelling)
    if a == units and b == spelling:
        return NAME_CONFLICT
    return given_compatibility(a, b)


def written_both_ways(spellings) -> bool:
    """Whether a person's spellings (given names, as profiles keep them) hold one name with its umlaut written out
    and folded (``juergen`` and ``jurgen``): they printed the umlaut somewhere.

    >>> written_both_ways(["juergen", "jurgen"]), written_both_ways(["michael", "m"])
    (True, False)
    """
    seen: dict[tuple[str, ...], str] = {}
    for spelling in spellings:
        if seen.setdefault(_umlauts_dropped(tuple(spelling.split())), spelling) != spelling:
            return True
    return False


@lru_cache(maxsize=100_000)
def twin_blocks(written: str) -> tuple[str, ...]:
    """The other blocks a German surname may sit in: *Krömer* (block ``kromer o``) is also written *Kroemer*
    (``kroemer o``), and *Kroemer* may be a *Krömer*. Empty for most names.

    A person found in a twin block is the same name only if the two surnames, umlauts written out, are equal
    (``spelled_surname``): *Xue* is never a *Xü* that nobody wrote, so never a *Xu*.

    >>> twin_blocks("Oliver Krömer"), twin_blocks("Oliver Kroemer"), twin_blocks("Yang Liu")
    (('kroemer o',), ('kromer o',), ())
    """
    name = parse_name(written)
    if name is None:
        return ()
    rest = name.block[len(name.surname) :]
    out = []
    if prints_umlaut(written) and (spelled := spelled_surname(written)) and spelled != name.surname:
        out.append(spelled + rest)
    if _SPELLED_OUT.search(name.surname):
        out.append(_SPELLED_OUT.sub(r"\1", name.surname) + rest)
    return tuple(b for b in dict.fromkeys(out) if b != name.block)


def family(block: str) -> str:
    """Blocks that may hold one person between them (a block and its ``twin_blocks``) share a family: the
    surname without its e's. What an engine that splits the work by block groups by.

    >>> family("kromer o") == family("kroemer o")
    True
    """
    surname, _, initial = block.rpartition(" ")
    return f"{surname.replace('e', '')} {initial}" if surname else block.replace("e", "")
