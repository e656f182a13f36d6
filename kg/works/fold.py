"""Titles, names and venues folded so that two records of one paper compare equal.

Sources write one title many ways: case, accents, punctuation, LaTeX (``\\emph{…}``, ``$\\ell_1$``)
and HTML entities (``&amp;``, ``& hellip ;``), a year or a venue run into the title by a
catalogue (*… join costs . 1995*, *… spatial data mining , '' 23rd int*), a hyphen written or not
(*high-dimensional*, *highdimensional*). ``title_words`` folds all of these the same way; what a
catalogue appended is dropped where it can be told (a trailing year, "Proc. of …", "In: …").

Blocks are what keeps matching linear: a record is compared only with records that share one of
its title's rarest words (``blocks``).
"""

from __future__ import annotations

import gzip
import html
import json
import math
import re
import unicodedata
from dataclasses import dataclass, field
from functools import cached_property, lru_cache
from importlib import resources

from kg.authors.names import fold

__all__ = [
    "Vocabulary",
    "load_vocabulary",
    "title_words",
    "folded_title",
    "surname",
    "initial",
    "venue_words",
    "acronym",
    "blocks",
    "title_blocks",
    "STOPWORDS",
    "VOCABULARY_FILE",
]

VOCABULARY_FILE = "title_words.json.gz"  # in kg/works/data

STOPWORDS = frozenset(
    "a an and are as at be by for from has in into is it its of on or over that the their this to under using via "
    "with without we our towards toward vs versus based new".split()
)
_LATEX_COMMAND = re.compile(r"\\(?:emph|textbf|textit|textrm|mathrm|mathbf|mathcal|mathit|text|bf|it|em|rm)\s*")
_LATEX_ESCAPE = re.compile(r"\\([&%$#_{}])")
_HTML_SPACED = re.compile(r"&\s*([a-z]+|#\d+)\s*;", re.I)  # '& hellip ;', '&#39;' as tokenised catalogues print them
_TAGS = re.compile(r"</?[a-z][^>]*>", re.I)  # <i>, <sub>, <scp> in publisher titles
_PROCEEDINGS = re.compile(
    r"(?:[.,;:]\s*|\s)(?:in\s*:?\s*)?(?:proc(?:eedings|\.)?|in proc|conference|conf\.?|intl?\.?|int\s*'?\s*l)\b.*$", re.I
)
_TRAILING_YEAR = re.compile(r"(?:[\s.,;:(\[]+)(?:19|20)\d{2}[a-z]?[\s.,;:)\]]*$")
_WORD = re.compile(r"[^\W_]+(?:['’][^\W_]+)*", re.UNICODE)
_HYPHENATED = re.compile(r"(?<=[^\W_])[-‐‑‒–](?=[^\W_])")


@lru_cache(maxsize=200_000)
def folded_title(title: str | None) -> str:
    return fold_text(title)


def fold_text(title: str | None) -> str:
    """A title as the words it is compared by, joined by spaces (see ``title_words``).

    >>> folded_title("The X-Tree: An Index Structure for High-Dimensional Data")
    'the xtree an index structure for highdimensional data'
    >>> folded_title("parallelism and its price : a case study of nonstop sql/mp . 1995")
    'parallelism and its price a case study of nonstop sql mp'
    >>> folded_title("Sharpness-Aware Minimization: \\\\emph{Efficiently} Improving Generalization")
    'sharpnessaware minimization efficiently improving generalization'
    >>> folded_title("the vldb journal &amp; hellip ; ,")
    'the vldb journal'
    """
    text = unicodedata.normalize("NFKC", title or "")
    for _ in range(2):  # '&amp; hellip ;': an entity escaped, then tokenised
        text = html.unescape(_HTML_SPACED.sub(r"&\1;", text))
    text = text.replace("…", " ")
    text = _TAGS.sub(" ", text)
    text = _LATEX_ESCAPE.sub(r"\1", _LATEX_COMMAND.sub("", text)).replace("{", "").replace("}", "").replace("$", "")
    for _ in range(2):  # '… mining , 23rd int . conf . 1997': the venue, then the year before it
        stripped = _TRAILING_YEAR.sub("", text)
        cut = _PROCEEDINGS.search(stripped)
        if cut is not None and len(stripped[: cut.start()].split()) >= 3:
            stripped = stripped[: cut.start()]
        if stripped == text:
            break
        text = stripped
    text = _HYPHENATED.sub("", fold(text))
    return " ".join(_WORD.findall(text)).replace("'", "").replace("’", "")


@dataclass(frozen=True)
class Vocabulary:
    """How many titles of a collection hold each folded word (``kg.training.works --vocabulary``): the rarity that
    picks a title's blocks, and the words a run-together token is split into."""

    n_titles: int = 0
    df: dict[str, int] = field(default_factory=dict)

    @cached_property
    def _costs(self) -> dict[str, float]:
        total = sum(self.df.values()) or 1  # a split's pieces are words of four letters or more, or stopwords
        return {w: math.log(total / n) for w, n in self.df.items() if len(w) >= 4 or w in STOPWORDS}

    @cached_property
    def _longest(self) -> int:
        return max(map(len, self._costs), default=0)

    def rarity(self, word: str) -> float:
        """Higher is rarer: minus the titles holding it (a word never seen is rarest)."""
        return -float(self.df.get(word, 0))

    def split(self, token: str) -> list[str]:
        """A token of eight letters or more that no title holds, split into the likeliest known words (a unigram
        model, by dynamic programming): catalogues run words together ('combinationofschemamatchingapproaches').
        Returned whole when no split covers it."""
        if len(token) < 8 or token in self.df or not self.df:
            return [token]
        costs, n = self._costs, len(token)
        best = [0.0] + [math.inf] * n
        back = [0] * (n + 1)
        for end in range(1, n + 1):
            for start in range(max(0, end - self._longest), end):
                cost = costs.get(token[start:end])
                if cost is not None and best[start] + cost < best[end]:
                    best[end], back[end] = best[start] + cost, start
        if math.isinf(best[n]):
            return [token]
        out, end = [], n
        while end > 0:
            out.append(token[back[end] : end])
            end = back[end]
        return out[::-1]

    def to_json(self) -> dict:
        return {"n_titles": self.n_titles, "df": dict(sorted(self.df.items()))}


@lru_cache(maxsize=1)
def load_vocabulary() -> Vocabulary:
    """The shipped table (an empty one if the package has none: no token is split, every word equally rare)."""
    resource = resources.files("kg.works") / "data" / VOCABULARY_FILE
    if not resource.is_file():
        return Vocabulary()
    with gzip.open(str(resource), "rt", encoding="utf-8") as handle:
        obj = json.load(handle)
    return Vocabulary(obj["n_titles"], obj["df"])


@lru_cache(maxsize=200_000)
def title_words(title: str | None) -> tuple[str, ...]:
    """The folded words of a title (``folded_title``), a run-together token split into words (``Vocabulary.split``);
    stopwords kept."""
    vocabulary = load_vocabulary()
    return tuple(part for word in folded_title(title).split() for part in vocabulary.split(word))


@lru_cache(maxsize=200_000)
def surname(name: str) -> str:
    """The folded last word of a name (``Surname, Given`` as readers turn it around is ``Given Surname``).

    >>> surname("Jürgen Schmidhuber"), surname("hp kriegel"), surname("Daumé III, Hal")
    ('schmidhuber', 'kriegel', 'daume')
    """
    if name.count(",") == 1:
        last, given = name.split(",")
        name = f"{given} {last}"
    words = [w for w in _WORD.findall(fold(name)) if w not in ("jr", "sr", "ii", "iii", "iv")]
    return words[-1] if words else ""


@lru_cache(maxsize=200_000)
def initial(name: str) -> str:
    """The folded first letter of a name's first given name ('' for a one-word name)."""
    if name.count(",") == 1:
        last, given = name.split(",")
        name = f"{given} {last}"
    words = _WORD.findall(fold(name))
    return words[0][0] if len(words) > 1 else ""


def venue_words(venue: str | None) -> tuple[str, ...]:
    """A venue's folded words, stopwords and years out: 'Proc. of the 26th Int'l Conf. on Very Large Data Bases'
    -> ('proc', '26th', 'intl', 'conf', 'very', 'large', 'data', 'bases')."""
    words = _WORD.findall(fold(html.unescape(_HTML_SPACED.sub(r"&\1;", venue or ""))).replace("'", ""))
    return tuple(w for w in words if w not in STOPWORDS and not re.fullmatch(r"(?:19|20)\d{2}", w))


def acronym(words: tuple[str, ...]) -> str:
    """The initials of a venue's capitalised words: ('very', 'large', 'data', 'bases') -> 'vldb'."""
    skip = {"proc", "proceedings", "conference", "conf", "international", "intl", "int", "annual", "journal", "acm", "ieee"}
    return "".join(w[0] for w in words if w not in skip and not w[0].isdigit())


_SEGMENTS = re.compile(r"\s*[.,;]\s+|\s+[.,;]\s*|\s*['\"“”]{2}\s*")  # where a catalogue glued a byline or a venue on


def title_blocks(title: str | None, vocabulary: Vocabulary | None = None, n: int = 4) -> list[str]:
    """(see ``_title_blocks``; the shipped vocabulary's answers are kept: each title is blocked several times)"""
    if vocabulary is None or vocabulary is load_vocabulary():
        return list(_shipped_blocks(title, n))
    return _title_blocks(title, vocabulary, n)


@lru_cache(maxsize=100_000)
def _shipped_blocks(title: str | None, n: int) -> tuple[str, ...]:
    return tuple(_title_blocks(title, load_vocabulary(), n))


def _title_blocks(title: str | None, vocabulary: Vocabulary, n: int) -> list[str]:
    """The blocks of a title: those of its words (``blocks``), and those of its first and last segments (split at
    '. ' and ', ') when each holds three content words or more: a catalogue that wrote the byline before the title
    or the venue after it still meets the clean record.

    >>> sorted(_title_blocks("andc . faloutsos 1994 . hilbert r-tree : an improved r-tree using fractals", Vocabulary(), 4))[:3]
    ['t:andc faloutsos 1994 hilbert rtree an improved rtree using fractals', 't:hilbert rtree an improved rtree using fractals', 'w:1994']
    """
    words = title_words(title)
    keys = dict.fromkeys(blocks(words, vocabulary.rarity, n))
    parts = [p for p in _SEGMENTS.split(title or "") if p.strip()]
    for part in {parts[0], parts[-1]} if len(parts) > 1 else ():
        inner = title_words(part)
        if sum(1 for w in inner if w not in STOPWORDS) >= 3:
            keys.update(dict.fromkeys(blocks(inner, vocabulary.rarity, n)))
    return list(keys)


def blocks(words: tuple[str, ...], rarity, n: int = 4) -> list[str]:
    """The block keys of a title: its ``n`` rarest content words (``rarity(word)``: higher is rarer), and the
    whole folded title, so that identical titles always meet.

    >>> blocks(("a", "compact", "btree"), lambda w: {"compact": 2.0, "btree": 5.0}.get(w, 9.0))
    ['t:a compact btree', 'w:btree', 'w:compact']
    """
    content = sorted({w for w in words if w not in STOPWORDS and (len(w) > 2 or w.isdigit())}, key=lambda w: (-rarity(w), w))
    keys = [f"t:{' '.join(words)}"] if words else []
    return keys + [f"w:{w}" for w in sorted(content[:n], key=lambda w: (-rarity(w), w))]
