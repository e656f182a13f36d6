"""BibTeX files (``.bib``), parsed with bibtexparser: one paper per entry.

Fields read: ``title``, ``author`` (split into people by bibtexparser's middlewares),
``abstract``, ``keywords`` (comma or semicolon separated), ``year``, ``journal`` or
``booktitle`` as the venue, ``doi``, and ``eprint`` (with ``archivePrefix = arXiv``).
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path

import bibtexparser
from bibtexparser.middlewares import LatexDecodingMiddleware, SeparateCoAuthors, SplitNameParts

from kg.errors import ReaderError
from kg.models import SourceRecord
from kg.readers._lines import decoded_lines, joined, readable, report, strip_boilerplate
from kg.readers.formats import dblp_author_ids, normal_arxiv_id, normal_doi
from kg.readers.jsonl import OnError, plausible_year

__all__ = ["read_bibtex"]


def _person(parts) -> str:
    return " ".join(x for x in (" ".join(parts.first), " ".join(parts.von), " ".join(parts.last), " ".join(parts.jr)) if x)


def _text(value) -> str:
    return " ".join(readable(str(value or "")).replace("{", "").replace("}", "").split())


def _reason(error: Exception) -> str:
    """The parser's reason for a failed block (its aborted blocks keep it in ``abort_reason``, not the message)."""
    reason = getattr(error, "abort_reason", None) or str(error) or type(error).__name__
    return " ".join(reason.split())


def read_bibtex(path: str | Path, on_error: OnError | None = None) -> Iterator[SourceRecord]:
    """Read the entries of a BibTeX file; each record knows the line its entry starts on."""
    path = Path(path)
    text = joined(path, decoded_lines(path))  # invalid UTF-8 is named with its line here
    library = bibtexparser.parse_string(
        text, append_middleware=[LatexDecodingMiddleware(), SeparateCoAuthors(), SplitNameParts()]
    )
    problems = [
        ReaderError(str(path), (block.start_line or 0) + 1, f"invalid BibTeX: {_reason(block.error)}")
        for block in library.failed_blocks
    ]
    for error in problems:
        report(error, "", on_error)
    for entry in library.entries:
        line = (entry.start_line or 0) + 1
        fields = {k.lower(): v.value for k, v in entry.fields_dict.items()}
        title, abstract = _text(fields.get("title")), _text(fields.get("abstract"))
        if not title and not abstract:
            report(
                ReaderError(str(path), line, f"entry {entry.key!r}: field 'title': required (or an abstract)"),
                entry.key,
                on_error,
            )
            continue
        authors = fields.get("author") or []
        names = [_person(a) for a in authors] if isinstance(authors, list) else [_text(authors)]
        byline = tuple(_text(n) for n in names if _text(n))
        year_text = re.search(r"\d{4}", str(fields.get("year", "")))
        if year_text and not plausible_year(int(year_text.group(0))):
            report(
                ReaderError(str(path), line, f"entry {entry.key!r}: field 'year': {year_text.group(0)} is not a year of a paper"),
                entry.key,
                on_error,
            )
            continue
        eprint = fields.get("eprint") if str(fields.get("archiveprefix", "arxiv")).lower() == "arxiv" else None
        yield SourceRecord(
            source=str(path),
            line=line,
            id=f"bibtex:{entry.key}",
            title=title or None,
            abstract=strip_boilerplate(abstract),
            authors=byline,
            author_ids=dblp_author_ids(byline),
            keywords=tuple(k.strip() for k in re.split(r"[;,]", _text(fields.get("keywords"))) if k.strip()),
            venue=_text(fields.get("journal") or fields.get("booktitle")) or None,
            year=int(year_text.group(0)) if year_text else None,
            doi=normal_doi(_text(fields.get("doi"))),
            arxiv_id=normal_arxiv_id(_text(eprint)) if eprint else normal_arxiv_id(_text(fields.get("doi"))),
            format="BibTeX",
        )
