"""Stable identities: paper ids, author keys and display names, research-area paths."""

from __future__ import annotations

import hashlib
import re
import unicodedata

from kg.readers.formats import title_key
from kg.models import AREA_SEPARATOR, Author, Institution, ResearchArea, SourceRecord

__all__ = ["paper_id", "paper_keys", "author_key", "clean_author_name", "make_author", "make_institution", "area_chain"]

_CAMEL = re.compile(r"^([A-Z][a-z]+)([A-Z][a-z]+)$")


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
    """
    tokens = unicodedata.normalize("NFKC", raw).split()
    # 'JunhuaShu JunhuaShu': a glued full name written twice. 'Yang Yang' is a real name.
    if len(tokens) == 2 and tokens[0] == tokens[1] and (m := _CAMEL.match(tokens[0])):
        tokens = [m.group(1), m.group(2)]
    out = []
    for tok in tokens:
        if len(tok) > 1 and tok.isupper() and any(c.isalpha() for c in tok):
            tok = "-".join(part.capitalize() for part in tok.split("-"))
        out.append(tok)
    return " ".join(out)


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
