"""JSON Lines records: {id, title, authors, abstract, area, keywords, venue, year}."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path

from kg.errors import ReaderError
from kg.models import AREA_SEPARATOR, SourceRecord
from kg.readers._lines import decoded_lines

__all__ = ["read_jsonl"]


def read_jsonl(path: str | Path) -> Iterator[SourceRecord]:
    """Read paper records, one JSON object a line; blank lines are allowed.

    Raises
    ------
    ReaderError
        naming the file, the line and the field that is wrong.
    """
    path = Path(path)
    for number, text in decoded_lines(path):
        if not text.strip():
            continue
        try:
            obj = json.loads(text)
        except json.JSONDecodeError as exc:
            raise ReaderError(str(path), number, f"invalid JSON: {exc.msg} (column {exc.colno})") from exc
        if not isinstance(obj, dict):
            raise ReaderError(str(path), number, "expected a JSON object")
        yield _record(obj, str(path), number)


def _record(obj: dict, source: str, line: int) -> SourceRecord:
    def fail(field: str, why: str) -> ReaderError:
        return ReaderError(source, line, f"field {field!r}: {why}")

    abstract = obj.get("abstract")
    if not isinstance(abstract, str) or not abstract.strip():
        raise fail("abstract", "required, a non-empty string")
    authors = obj.get("authors", [])
    if not isinstance(authors, list) or not all(isinstance(a, str) for a in authors):
        raise fail("authors", "expected a list of strings")
    keywords = obj.get("keywords") or []
    if not isinstance(keywords, list) or not all(isinstance(k, str) for k in keywords):
        raise fail("keywords", "expected a list of strings")
    for field in ("id", "title", "area", "venue"):
        value = obj.get(field)
        if value is not None and not isinstance(value, str):
            raise fail(field, "expected a string or null")
    year = obj.get("year")
    if year is not None and (not isinstance(year, int) or isinstance(year, bool)):
        raise fail("year", "expected an integer or null")
    area = obj.get("area")
    area_path = tuple(p.strip() for p in area.split(AREA_SEPARATOR.strip())) if area and area.strip() else None
    if area_path is not None and not all(area_path):
        raise fail("area", "empty part in area path")
    return SourceRecord(
        source=source,
        line=line,
        id=(obj.get("id") or None),
        title=(obj.get("title") or "").strip() or None,
        authors=tuple(a.strip() for a in authors if a.strip()),
        abstract=abstract.strip(),
        area=area_path,
        keywords=tuple(k.strip() for k in keywords if k.strip()),
        venue=obj.get("venue"),
        year=year,
    )
