"""A paper's fields from its records, by fixed rules, so that no file order changes them.

Each record a paper was read from is kept as a ``PaperSource`` (its format, file, line, id, why it
joined, and the fields it gave). The paper's own fields are a function of that set alone:

- **title** and **venue**: the published version's (a record with a venue that is no preprint
  server, or a journal's DOI) over a preprint's; among equals, the title without markup and in
  mixed case, then the longest;
- **abstract**: the fullest, publisher boilerplate (``©`` lines) removed;
- **year**: the earliest; **citations**: the largest count a source reports;
- **ids**, **references**, **keywords**: the union (written as the record comes: ``kg.graph.build``).

The byline stays the first record's (the people stage decided who is on it).
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterable, Sequence
from dataclasses import replace

from kg.models import Paper, PaperSource, SourceRecord
from kg.readers._lines import strip_boilerplate
from kg.works.features import Signature, signature

__all__ = [
    "source_of",
    "fields_of",
    "merged_record",
    "record_of_source",
    "filled",
    "slim",
    "fields_signature",
    "Fields",
]

_PREPRINT_VENUE = re.compile(r"\b(?:arxiv|biorxiv|medrxiv|ssrn|preprints?|corr|research square|techrxiv|osf)\b", re.I)
_PREPRINT_FORMAT = re.compile(r"arxiv", re.I)
_MARKUP = re.compile(r"[{}$\\<>]")

Fields = dict  # title, venue, year, abstract, citations


def _published(f: dict) -> int:
    """2: a journal's or proceedings' DOI; 1: a venue that is no preprint server; 0: a preprint (or nothing known)."""
    doi = f.get("doi") or ""
    if doi and not doi.startswith(("10.48550/", "10.1101/", "10.2139/", "10.31219/", "10.20944/", "10.21203/")):
        return 2
    venue = f.get("venue") or ""
    if venue and not _PREPRINT_VENUE.search(venue) and not _PREPRINT_FORMAT.search(f.get("format") or ""):
        return 1
    return 0


def _title_rank(f: dict) -> tuple:
    title = f.get("title") or ""
    return (_published(f), not _MARKUP.search(title), not (title.islower() or title.isupper()), len(title), title)


_OWN = ("title", "venue", "year", "citations", "abstract")  # what a paper of one source keeps on itself only


def source_of(record: SourceRecord, key: str, why: str, keys: Sequence[str]) -> PaperSource:
    """A record as its paper keeps it: enough to compare it with new records and to make a paper of it again."""
    fields = {
        "keys": list(keys),
        "authors": list(record.authors),
        "ids": list(record.ids),
        "arxiv_id": record.arxiv_id,
        "doi": record.doi,
        "title": record.title,
        "venue": record.venue,
        "year": record.year,
        "citations": record.citations,
        "abstract": strip_boilerplate(record.abstract) or None,
    }
    return PaperSource(key, record.format, record.source, record.line, why, _dumps(fields))


def _dumps(fields: dict) -> str:
    return json.dumps(fields, ensure_ascii=False, sort_keys=True)


def filled(sources: Sequence[PaperSource], paper: Paper) -> list[PaperSource]:
    """A paper's sources with every field each gave: a paper of one source keeps that source's title, venue, year,
    citations and abstract on itself only (``slim``), and they are read back from it."""
    data = sources[0].data if len(sources) == 1 else None
    if data is None or "title" in data:
        return list(sources)
    return [replace(sources[0], fields=_dumps(filled_fields([data], paper)[0]))]


def filled_fields(data: Sequence[dict], paper: Paper) -> list[dict]:
    """``filled`` on the sources' fields (``PaperSource.data``), read once."""
    if len(data) != 1 or "title" in data[0]:
        return list(data)
    own = {"title": paper.title, "venue": paper.venue, "year": paper.year, "citations": paper.citations}
    return [{**data[0], **own, "abstract": paper.abstract or None}]


def slim(sources: Sequence[PaperSource]) -> list[PaperSource]:
    """What a store keeps: a paper of one source keeps no second copy of the fields it has from it."""
    if len(sources) != 1:
        return list(sources)
    return [replace(sources[0], fields=_dumps({k: v for k, v in sources[0].data.items() if k not in _OWN}))]


def fields_signature(f: dict) -> Signature:
    """What matching compares of a source's fields (filled: ``filled_fields``)."""
    return signature(f.get("title"), f.get("authors") or (), f.get("year"), f.get("venue"), f.get("abstract"))


def fields_of(sources: Iterable[PaperSource]) -> Fields:
    """The paper's title, venue, year, abstract and citation count from its sources (each with its abstract)."""
    data = [{**s.data, "format": s.format} for s in sources]
    titled = [f for f in data if f.get("title")]
    best = max(titled, key=_title_rank) if titled else None
    with_venue = [f for f in data if f.get("venue")]
    venue = max(with_venue, key=lambda f: (_published(f), f["venue"]))["venue"] if with_venue else None
    years = [f["year"] for f in data if f.get("year") is not None]
    abstracts = [f["abstract"] for f in data if f.get("abstract")]
    counts = [f["citations"] for f in data if f.get("citations") is not None]
    return {
        "title": best["title"] if best else None,
        "venue": venue,
        "year": min(years) if years else None,
        "abstract": max(abstracts, key=lambda a: (len(a), a)) if abstracts else "",
        "citations": max(counts) if counts else None,
    }


def record_of_source(source: PaperSource) -> SourceRecord:
    """The record a source was read as, made again from what its paper keeps of it (``filled`` first): its fields,
    ids and byline (its references stay with the paper)."""
    f = source.data
    return SourceRecord(
        source=source.file,
        line=source.line,
        abstract=f.get("abstract") or "",
        authors=tuple(f.get("authors") or ()),
        id=source.key,
        title=f.get("title"),
        venue=f.get("venue"),
        year=f.get("year"),
        doi=f.get("doi"),
        arxiv_id=f.get("arxiv_id"),
        citations=f.get("citations"),
        ids=tuple(f.get("ids") or ()),
        format=source.format,
    )


def merged_record(byline: SourceRecord, records: Sequence[SourceRecord], fields: Fields) -> SourceRecord:
    """The record a paper is built from: the first record's byline, the merged fields, every record's references
    and keywords."""
    references = tuple(dict.fromkeys(r for rec in records for r in rec.references))
    keywords = tuple(dict.fromkeys(k for rec in records for k in rec.keywords))
    return replace(
        byline,
        title=fields["title"],
        venue=fields["venue"],
        year=fields["year"],
        abstract=fields["abstract"],
        citations=fields["citations"],
        references=references,
        keywords=keywords,
    )
