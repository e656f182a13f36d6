"""Hard evidence: the ids that name one work wherever they appear.

A DOI, an arXiv id (without its version), an OpenAlex work (``W…``), a Semantic Scholar ``paperId``,
a PubMed id, a Web of Science accession number (``UT``), a Scopus ``EID``, a DBLP key or a MAG id is
the same paper in every file that carries it. Each is a *kind*: two different ids of one kind are
two papers (``conflict``), except that a preprint server's DOI (bioRxiv, SSRN, …) is a kind of its
own, apart from the DOI of the published version.

A record's own id (a Zotero key, a listing's id) also names it for good (``record_keys``), but it is
no kind: a library may hold one paper under two keys, and those records may still be one paper. A
citation key (a BibTeX key, a RIS ``ID``: ``Li2018``) names a record within its file only: two files
may use one key for two papers, so it joins records of its own file (``joining_keys``).
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping

from kg.graph.identity import paper_id
from kg.models import SourceRecord

__all__ = ["KINDS", "LOCAL_IDS", "typed_id", "record_keys", "joining_keys", "source_key", "hard_ids", "conflict", "kind_of"]

LOCAL_IDS = frozenset({"BibTeX", "RIS"})  # formats whose record ids are citation keys, unique within a file only
KINDS = ("doi", "preprint-doi", "arxiv", "openalex", "s2", "pmid", "wos", "scopus", "dblp", "mag")
# DOI prefixes of preprint servers: a preprint's DOI and its published version's are one work
_PREPRINT_DOI = re.compile(r"^10\.(?:1101|48550|31219|20944|21203|2139|36227|22541|31234|26434|31235|32942|13140)/", re.I)
_SCHEMES = {
    "openalex": re.compile(r"^(?:https?://openalex\.org/|openalex:)(w\d+)$", re.I),
    "s2": re.compile(r"^(?:s2:|https?://(?:www\.)?semanticscholar\.org/paper/(?:[^/]*/)?)([0-9a-f]{40})$", re.I),
    "pmid": re.compile(r"^(?:pmid:|https?://pubmed\.ncbi\.nlm\.nih\.gov/)(\d+)/?$", re.I),
    "wos": re.compile(r"^(?:wos:|isi:)(\d{15})$", re.I),
    "scopus": re.compile(r"^(?:scopus:)?(2-s2\.0-\d+)$", re.I),
    "dblp": re.compile(r"^(?:dblp:|https?://dblp\.org/rec/)((?:conf|journals|books|phd|series|reference)/[^\s]+?)(?:\.html)?$"),
    "mag": re.compile(r"^mag:(\d+)$", re.I),
}


def kind_of(key: str) -> str | None:
    """The kind of a typed key (``doi:…``, ``arxiv:…``, ``openalex:W…``, …); None for a record's own id.

    >>> kind_of("doi:10.1101/2020.01.01.123"), kind_of("doi:10.1038/nature14539"), kind_of("9NCF43EQ")
    ('preprint-doi', 'doi', None)
    """
    scheme, _, value = key.partition(":")
    if scheme == "doi":
        return "preprint-doi" if _PREPRINT_DOI.match(value) else "doi"
    return scheme if scheme in KINDS else None


def typed_id(value: str | None) -> str | None:
    """An id as its typed key, when it has a known scheme: ``https://openalex.org/W2626778328`` ->
    ``openalex:W2626778328``, ``WOS:000263546700010`` -> ``wos:000263546700010``,
    ``2-s2.0-85059419211`` -> ``scopus:2-s2.0-85059419211``; None for anything else.

    >>> typed_id("https://openalex.org/W2626778328"), typed_id("WOS:000263546700010"), typed_id("2-s2.0-85059419211")
    ('openalex:W2626778328', 'wos:000263546700010', 'scopus:2-s2.0-85059419211')
    >>> typed_id("s2:DF2B0E26D0599CE3E70DF8A9DA02E51594E0E992"), typed_id("ABCD1234")
    ('s2:df2b0e26d0599ce3e70df8a9da02e51594e0e992', None)
    """
    if not value:
        return None
    text = value.strip()
    for kind, pattern in _SCHEMES.items():
        match = pattern.match(text)
        if match:
            found = match.group(1)
            return f"{kind}:{found.upper() if kind == 'openalex' else found.lower() if kind != 'dblp' else found}"
    return None


def hard_ids(record: SourceRecord) -> list[str]:
    """The typed keys a record carries: its DOI, arXiv id, and every id of a known scheme (its own id among them)."""
    found = [
        f"doi:{record.doi}" if record.doi else None,
        f"arxiv:{record.arxiv_id}" if record.arxiv_id else None,
        *(typed_id(i) or (i if kind_of(i) else None) for i in (record.id, *record.ids) if i),
    ]
    return list(dict.fromkeys(k for k in found if k))


def record_keys(record: SourceRecord) -> list[str]:
    """Every key that names the record's work for good: its typed ids, then its own id as the source gives it."""
    return list(dict.fromkeys([*hard_ids(record), *([record.id] if record.id else [])]))


def source_key(record: SourceRecord) -> str:
    """The key a paper keeps a record under: its own id, else its first typed id, else its text's hash."""
    return record.id or next(iter(hard_ids(record)), None) or paper_id(record)


def joining_keys(record: SourceRecord, own: str | None = None) -> list[str]:
    """The keys a record is looked up by to find the paper it is: its typed ids, its own id (a citation key
    qualified by its file: ``refs.bib#bibtex:li2018``), and for a record without any id the hash its text gives
    (``kg.graph.identity.paper_id``: a listing repeated word for word; ``own`` when the caller has it already)."""
    typed = hard_ids(record)
    key: str | None
    if record.id and record.format in LOCAL_IDS:
        key = f"{record.source}#{record.id}"
    else:
        key = record.id or (None if typed else own or paper_id(record))
    return list(dict.fromkeys([*typed, *([key] if key else [])]))


def conflict(a: Mapping[str, set[str]] | Iterable[str], b: Mapping[str, set[str]] | Iterable[str]) -> str | None:
    """The kind under which two works carry different ids (so cannot be one), or None.

    >>> conflict(["doi:10.1/a", "arxiv:1"], ["doi:10.1/b"]), conflict(["doi:10.1101/x"], ["doi:10.1/a"])
    ('doi', None)
    """
    ka, kb = _by_kind(a), _by_kind(b)
    for kind in KINDS:
        if kind in ka and kind in kb and not ka[kind] & kb[kind]:
            return kind
    return None


def _by_kind(keys) -> Mapping[str, set[str]]:
    if isinstance(keys, Mapping):
        return keys
    out: dict[str, set[str]] = {}
    for key in keys:
        kind = kind_of(key)
        if kind is not None:
            out.setdefault(kind, set()).add(key)
    return out
