"""RIS files (``.ris``: EndNote, Mendeley, Zotero, most publishers' "export citation"), parsed with
``rispy``: one paper per ``TY  - … ER  -`` entry.

Fields read: ``TI``/``T1`` (title), ``AU``/``A1`` (authors, ``Surname, Given`` turned around),
``AB``/``N2`` (abstract), ``PY``/``Y1``/``DA`` (year), ``T2``/``JO``/``JF`` (venue), ``DO`` (DOI),
``KW`` (keywords), ``ID``, ``AN`` (an accession number: ``WOS:…`` from Web of Science, a PubMed id …).
An entry's errors name the file and the line of its ``TY`` tag.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path

import rispy
from rispy.parser import ParseError

from kg.errors import ReaderError
from kg.models import SourceRecord
from kg.readers._lines import bounded, decoded_lines, report
from kg.readers.jsonl import OnError, record_of
from kg.readers.tables import split_people

__all__ = ["read_ris"]

_START = re.compile(r"^TY  - ")
_END = re.compile(r"^ER  -")


def _first(entry: dict, *keys: str):
    return next((entry[k] for k in keys if entry.get(k)), None)


def _entry_record(entry: dict) -> dict:
    year = re.search(r"\b(1[89]|20)\d{2}\b", str(_first(entry, "year", "publication_year", "date") or ""))
    people = [n for a in (_first(entry, "authors", "first_authors") or []) for n in split_people(a)]
    return {
        "id": _first(entry, "id"),
        "title": _first(entry, "title", "primary_title"),
        "abstract": _first(entry, "abstract", "notes_abstract"),
        "authors": people,
        "venue": _first(entry, "secondary_title", "journal_name", "alternate_title3", "alternate_title1"),
        "doi": _first(entry, "doi"),
        "keywords": list(entry.get("keywords") or []),
        "year": int(year.group(0)) if year else None,
        "ids": [str(entry["accession_number"])] if entry.get("accession_number") else None,
    }


def _entry_starts(lines: list[tuple[int, str]]) -> tuple[list[int], list[int]]:
    """The lines of the entries' ``TY`` tags: of those that end with ``ER``, and of those that do not (the file
    stops, or the next ``TY`` comes, first)."""
    ended, unended, open_at = [], [], None
    for number, text in lines:
        if _START.match(text):
            if open_at is not None:
                unended.append(open_at)
            open_at = number
        elif _END.match(text) and open_at is not None:
            ended.append(open_at)
            open_at = None
    if open_at is not None:
        unended.append(open_at)
    return ended, unended


def read_ris(path: str | Path, on_error: OnError | None = None) -> Iterator[SourceRecord]:
    """Read one paper per RIS entry."""
    path = Path(path)
    lines = list(bounded(path, decoded_lines(path, on_error)))
    starts, unended = _entry_starts(lines)
    for line in unended:
        report(ReaderError(str(path), line, "entry without its end tag (ER  - ): it is not read"), "", on_error)
    try:
        entries = rispy.loads("\n".join(text for _, text in lines))
    except (ParseError, ValueError, KeyError) as exc:
        raise ReaderError(str(path), None, f"not a valid RIS file: {' '.join(str(exc).split())}") from exc
    if len(entries) != len(starts):
        raise ReaderError(str(path), None, f"not a valid RIS file: {len(starts)} entries end with ER, {len(entries)} were read")
    for n, (entry, line) in enumerate(zip(entries, starts, strict=True), start=1):
        try:
            yield record_of(_entry_record(entry), str(path), line or n, "RIS")
        except ReaderError as exc:
            report(exc, str(entry)[:10_000], on_error)
