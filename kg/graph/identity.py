"""Stable identities: paper ids, author keys and display names, research-area paths."""

from __future__ import annotations

import hashlib
import re
import unicodedata
from functools import lru_cache

from kg.readers._lines import readable
from kg.readers.formats import title_key
from kg.models import AREA_SEPARATOR, Author, Institution, ResearchArea, SourceRecord

__all__ = ["paper_id", "paper_keys", "author_key", "clean_author_name", "make_author", "make_institution", "area_chain"]

_CAMEL = re.compile(r"^([A-Z][a-z]+)([A-Z][a-z]+)$")
_ESCAPE = re.compile(r"U\+([0-9A-F]{4,5})")  # 'KU+000E4stner': a code point written out
_MARKS = re.compile(r"[*∗⁎†‡§¶✉#]+|[(\[][\s\d,*∗⁎†‡§¶✉#]*[)\]]")  # footnote marks: 'Feng*', 'Liu(†)', 'Ravi[2]'
_GLUED = re.compile(
    r"(?<!\S)\d[\d,]*(?=[^\W\d_])|(?<=[^\W\d_])\d[\d,]*(?!\S)|(?<!\S)[\d,]+(?!\S)"
)  # '1Michael', 'Morgül1', 'Smith 1,2'
_JOINER = re.compile(r"^(?:and|&)\s+(?=\S+\s+\S)|(?<=\S\s)\s*(?:and|&)$")  # 'and Kristen Grauman': the word that joined a byline
_ROMAN = re.compile(r"^(?:II|III|IV|VI{0,3})$")  # 'Hal Daumé III' keeps its numeral


def paper_id(record: SourceRecord) -> str:
    """The arXiv id, else the DOI, else the source id, else a hash of the normalised abstract (or title).

    Examples
    --------
    >>> from kg.models import SourceRecord
    >>> a = SourceRecord("x", 1, "Some  Abstract.", ("A",))
    >>> b = SourceRecord("y", 9, "some abstract.", ("B",))
    >>> paper_id(a) == paper_id(b)
    True
    """
    if record.arxiv_id:  # the same preprint from arXiv, OpenAlex or Semantic Scholar is one paper
        return f"arxiv:{record.arxiv_id}"
    if record.doi:
        return f"doi:{record.doi}"
    if record.id:
        return record.id
    basis = record.abstract or record.title or ""  # title-only records are known by their title
    normal = " ".join(unicodedata.normalize("NFKC", basis).lower().split())
    return "h" + hashlib.sha1(normal.encode("utf-8")).hexdigest()[:16]


def paper_keys(record: SourceRecord, pid: str) -> list[str]:
    """Every key a reference may name this paper by: its id, arXiv id, DOI, source id and title."""
    keys = [
        pid,
        f"arxiv:{record.arxiv_id}" if record.arxiv_id else None,
        f"doi:{record.doi}" if record.doi else None,
        record.id,
        title_key(record.title),
    ]
    return list(dict.fromkeys(k for k in keys if k))


@lru_cache(maxsize=100_000)  # one byline name is cleaned for its key, its person, its co-authors' mentions: once
def clean_author_name(raw: str) -> str:
    """A display name: doubled tokens collapsed, shouted surnames in title case.

    Examples
    --------
    >>> clean_author_name("JunhuaShu JunhuaShu")
    'Junhua Shu'
    >>> clean_author_name("Wei  LIN")
    'Wei Lin'
    >>> clean_author_name("Yang Yang")
    'Yang Yang'

    What a byline carries besides the name goes: footnote marks and numbers, the joining
    "and", stray punctuation; text decoded with the wrong encoding is mended (ftfy), and a
    code point written out (``U+000E4``) is read.

    >>> clean_author_name("and Jürgen Sturm*")
    'Jürgen Sturm'
    >>> [clean_author_name(n) for n in ("JÃ¼rgen Sturm", "1Zoltan-Csaba Marton", "Ze Liu(†)", "Sujith Ravi[2]")]
    ['Jürgen Sturm', 'Zoltan-Csaba Marton', 'Ze Liu', 'Sujith Ravi']
    >>> [clean_author_name(n) for n in ("Linh KU+000E4stner", "Issam Laradji)", "Maximilian L. Ach,", "Mufan (Bill) Li")]
    ['Linh Kästner', 'Issam Laradji', 'Maximilian L. Ach', 'Mufan (Bill) Li']
    """
    tokens = _without_marks(unicodedata.normalize("NFKC", readable(raw))).split()
    # 'JunhuaShu JunhuaShu': a glued full name written twice. 'Yang Yang' is a real name.
    if len(tokens) == 2 and tokens[0] == tokens[1] and (m := _CAMEL.match(tokens[0])):
        tokens = [m.group(1), m.group(2)]
    out = []
    for tok in tokens:
        if len(tok) > 1 and tok.isupper() and any(c.isalpha() for c in tok) and not _ROMAN.match(tok):
            tok = "-".join(part.capitalize() for part in tok.split("-"))
        out.append(tok)
    return " ".join(out)


def _without_marks(name: str) -> str:
    name = _ESCAPE.sub(lambda m: chr(int(m.group(1), 16)), name)
    name = _GLUED.sub("", _MARKS.sub(" ", name))
    if name.count("(") != name.count(")"):
        name = name.replace("(", " ").replace(")", " ")
    return _JOINER.sub("", name.strip(" ,;:")).strip()


def author_key(name: str) -> str:
    """Case- and space-insensitive key of a person's name.

    Examples
    --------
    >>> author_key("Wei LIN") == author_key(" wei   lin ") == author_key("WeiLin WeiLin")
    True
    """
    return " ".join(clean_author_name(name).casefold().split())


def make_author(raw: str) -> Author:
    return Author(key=author_key(raw), name=clean_author_name(raw))


def make_institution(name: str) -> Institution | None:
    """An institution keyed by its case- and space-folded name.

    >>> make_institution("  Technical University of  Munich ")
    Institution(key='technical university of munich', name='Technical University of Munich')
    """
    clean = " ".join(name.split())
    return Institution(clean.casefold(), clean) if clean else None


def area_chain(path: tuple[str, ...]) -> list[ResearchArea]:
    """The area and its ancestors, top first: ('Theory', 'Everything Else') -> [Theory, Theory · Everything Else]."""
    chain = []
    for depth in range(1, len(path) + 1):
        full = AREA_SEPARATOR.join(path[:depth])
        parent = AREA_SEPARATOR.join(path[: depth - 1]) if depth > 1 else None
        chain.append(ResearchArea(path=full, name=path[depth - 1], parent=parent))
    return chain
