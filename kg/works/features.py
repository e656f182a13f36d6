"""What two bibliographic records have in common, as numbers a learned model weighs (``FEATURES``).

A record is compared through its ``Signature``: the folded title words, the authors' surnames and
first initials, the year, the venue's words and the first words of its abstract. Every feature is
symmetric in the two records; a missing field gives NaN (the model learns what missing means).
"""

from __future__ import annotations

import math
import re
from collections.abc import Sequence
from dataclasses import dataclass

from kg.authors.names import fold
from kg.works.fold import STOPWORDS, acronym, initial, load_vocabulary, surname, title_words, venue_words

__all__ = ["Signature", "signature", "features", "extra_words", "numbers", "venue_kind", "FEATURES"]

ABSTRACT_WORDS = 60  # the first words of an abstract a signature keeps (enough to tell two texts apart)

FEATURES = (
    "title_jaccard",  # folded title words, |A ∩ B| / |A ∪ B|
    "title_containment",  # |A ∩ B| / the shorter title's words: a catalogue's junk around a title
    "title_trigrams",  # the folded titles' character trigrams (spaces out: words run together still meet), Dice
    "title_equal",  # the folded titles are one
    "title_length_ratio",  # the shorter title's words over the longer's
    "title_numbers_differ",  # a number in one title and not the other ('part 2', 'ii', a year)
    "content_missing",  # content words of the shorter title missing from the other
    "extra_words",  # words of one title the other lacks that say what a paper is about (``extra_words``)
    "authors_jaccard",  # surnames
    "first_author_equal",  # the first surname of each
    "authors_min",  # the shorter byline's length (0: a record without authors)
    "initials_conflict",  # surnames in common whose first initials differ
    "author_in_title",  # a surname of one record inside the other's title (a catalogue ran the byline in)
    "year_gap",  # |year - year| (NaN when either is missing)
    "venue_jaccard",  # venue words
    "venue_acronym",  # one venue's acronym is a word of the other ('vldb', 'very large data bases')
    "venue_prefix",  # the shorter venue's words that begin a word of the other ('acm trans database syst'), a share
    "venue_kind",  # both venues of one kind (journal, proceedings): 1, of two: 0, unknown: NaN
    "abstract_jaccard",  # the first words of both abstracts (NaN unless both have one)
)

_WORDS = re.compile(r"[^\W_]+")
_NUMBER = re.compile(r"^(?:\d+|ii|iii|iv|vi|vii|viii|ix|xi)$")


@dataclass(frozen=True, slots=True)
class Signature:
    """A record as matching sees it."""

    words: tuple[str, ...]
    title: str  # the folded title
    surnames: tuple[str, ...]
    initials: tuple[str, ...]
    year: int | None
    venue: tuple[str, ...]
    abstract: frozenset[str]
    trigrams: frozenset[str] = frozenset()  # of the title, spaces out (``_trigrams``)
    content: frozenset[str] = frozenset()  # the title's words but stopwords
    numbers: frozenset[str] = frozenset()  # the title's numbers (``numbers``)


def signature(title: str | None, authors: Sequence[str], year: int | None, venue: str | None, abstract: str | None) -> Signature:
    """The signature of one record's fields."""
    names = [a for a in authors if surname(a)]
    words = title_words(title)
    abstract_words = _WORDS.findall(fold(" ".join((abstract or "").split()[:ABSTRACT_WORDS])))
    return Signature(
        words,
        " ".join(words),
        tuple(surname(a) for a in names),
        tuple(initial(a) for a in names),
        year,
        venue_words(venue),
        frozenset(w for w in abstract_words if w not in STOPWORDS),
        _trigrams(" ".join(words)),
        frozenset(w for w in words if w not in STOPWORDS),
        frozenset(numbers(words)),
    )


def title_content(title: str | None) -> frozenset[str]:
    """A title's content words, as ``Signature.content`` holds them."""
    return frozenset(w for w in title_words(title) if w not in STOPWORDS)


def _trigrams(title: str) -> frozenset[str]:
    text = title.replace(" ", "")
    return frozenset(text[i : i + 3] for i in range(len(text) - 2))


_JOURNAL = frozenset({"journal", "trans", "transactions", "letters", "review", "magazine", "record", "bulletin"})
_PROCEEDINGS = frozenset({"conference", "conf", "proc", "proceedings", "symposium", "workshop", "sigmod", "vldb", "icde"})


def venue_kind(words: tuple[str, ...]) -> str:
    """'journal', 'proceedings' or '' (unknown) for a venue's words ('vldb j.' is a journal, 'vldb' proceedings).

    >>> venue_kind(("vldb", "j")), venue_kind(("vldb",)), venue_kind(("acm", "trans", "database", "syst")), venue_kind(())
    ('journal', 'proceedings', 'journal', '')
    """
    found = set(words)
    if found & _JOURNAL or (words and words[-1] == "j"):
        return "journal"
    return "proceedings" if found & _PROCEEDINGS else ""


def _prefixed(a: tuple[str, ...], b: tuple[str, ...]) -> float:
    """The share of the shorter venue's words (two letters or more) that begin some word of the other."""
    short, long_ = (a, b) if len(a) <= len(b) else (b, a)
    words = [w for w in short if len(w) > 1]
    return sum(1 for w in words if any(o.startswith(w) for o in long_)) / len(words) if words else math.nan


_CATALOGUE = frozenset(
    "proc proceedings conference conf international intl int journal trans transactions vol volume pp pages "
    "editors eds ed in press preprint arxiv extended version abstract technical report tutorial oral poster "
    "university univ dept department available http www".split()
)


_SUFFIXES = (
    "ations",
    "ation",
    "ions",
    "ion",
    "ives",
    "ive",
    "ings",
    "ing",
    "ities",
    "ity",
    "ies",
    "ic",
    "ed",
    "es",
    "al",
    "y",
    "s",
)


def _stem(word: str) -> str:
    """A word without its ending, so that one word's forms compare equal ('induction', 'inductive'; 'symmetric',
    'symmetry'; 'networks', 'network')."""
    for suffix in _SUFFIXES:
        if word.endswith(suffix) and len(word) - len(suffix) >= 4 and not word.endswith("ss"):
            return word[: -len(suffix)]
    return word


def extra_words(a: Signature, b: Signature) -> set[str]:
    """The words of one title that the other lacks and that say what a paper is about: not stopwords or numbers, not
    a surname or venue word of either record, not what catalogues add ('proc', 'extended version'), not a word no
    title in the vocabulary holds (a misprint, words run together); plurals folded. Two versions of one paper differ
    by none or one ('[From Oral 3C]'); a follow-up paper by more ('Extended …', '… for Neural Nets').

    >>> from kg.works.features import signature
    >>> a = signature("Learning to Optimize", ["Ke Li"], 2017, "ICLR", None)
    >>> sorted(extra_words(a, signature("Learning to Optimize Neural Nets", ["Ke Li"], 2018, "ICLR", None)))
    ['nets', 'neur']
    >>> extra_words(a, signature("Learning to optimize. K. Li, ICLR 2017", ["K Li"], None, "", None))
    set()
    """
    known = load_vocabulary().df
    ignore = STOPWORDS | _CATALOGUE | set(a.surnames) | set(b.surnames) | set(a.venue) | set(b.venue)

    def content(words: tuple[str, ...]) -> set[str]:
        return {_stem(w) for w in words if w not in ignore and not _NUMBER.match(w) and len(w) > 1 and (not known or w in known)}

    ca, cb = content(a.words), content(b.words)
    return (ca - cb) | (cb - ca)


_NUMBER_WORDS = frozenset("one two three four five six seven eight nine ten first second third".split())


def numbers(words) -> set[str]:
    """The numbers of a title's words: digits, number words, Roman numerals from 2 on ('part ii'), and 'i' after 'part'.

    >>> sorted(numbers(("motion", "planning", "part", "i"))), sorted(numbers(("control", "of", "two", "robots")))
    (['i'], ['two'])
    """
    found = {w for w in words if _NUMBER.match(w) or w in _NUMBER_WORDS}
    return found | ({"i"} if "i" in words and "part" in words else set())


def _jaccard(a, b) -> float:
    a, b = set(a), set(b)
    return len(a & b) / len(a | b) if a or b else math.nan


def features(a: Signature, b: Signature) -> list[float]:
    """The values of ``FEATURES`` for one pair of records (symmetric)."""
    wa, wb = set(a.words), set(b.words)
    short, long_ = (wa, wb) if len(wa) <= len(wb) else (wb, wa)
    common = wa & wb
    ta, tb = a.trigrams, b.trigrams
    trigrams = 2 * len(ta & tb) / (len(ta) + len(tb)) if ta and tb else math.nan
    numbers_a, numbers_b = a.numbers, b.numbers
    content_short = {w for w in short if w not in STOPWORDS}
    sa, sb = set(a.surnames), set(b.surnames)
    shared = sa & sb
    ia = dict(zip(a.surnames, a.initials))
    ib = dict(zip(b.surnames, b.initials))
    conflicts = sum(1 for s in shared if ia.get(s) and ib.get(s) and ia[s] != ib[s])
    in_title = bool((sa - STOPWORDS) & wb) or bool((sb - STOPWORDS) & wa)
    va, vb = set(a.venue), set(b.venue)
    ka, kb = venue_kind(a.venue), venue_kind(b.venue)
    acr = (acronym(a.venue) and acronym(a.venue) in vb) or (acronym(b.venue) and acronym(b.venue) in va)
    return [
        len(common) / len(wa | wb) if wa or wb else math.nan,
        len(short & long_) / len(short) if short else math.nan,
        trigrams,
        float(bool(a.title) and a.title == b.title),
        len(short) / len(long_) if long_ else math.nan,
        float(numbers_a != numbers_b),
        float(len(content_short - long_)),
        float(len(extra_words(a, b))),
        _jaccard(sa, sb) if sa and sb else math.nan,
        float(a.surnames[0] == b.surnames[0]) if a.surnames and b.surnames else math.nan,
        float(min(len(a.surnames), len(b.surnames))),
        float(conflicts),
        float(in_title),
        float(abs(a.year - b.year)) if a.year is not None and b.year is not None else math.nan,
        _jaccard(va, vb) if va and vb else math.nan,
        float(bool(acr)) if va and vb else math.nan,
        _prefixed(a.venue, b.venue) if va and vb else math.nan,
        float(ka == kb) if ka and kb else math.nan,
        _jaccard(a.abstract, b.abstract) if a.abstract and b.abstract else math.nan,
    ]
