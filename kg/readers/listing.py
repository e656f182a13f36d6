"""The native paper-listing format.

A header line, then entries separated by blank lines. An entry is an optional
area line ``Top · Sub``, a byline (comma-separated names, possibly ending in
``等`` = et al.) and an abstract paragraph.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path

from kg.errors import ReaderError
from kg.models import AREA_SEPARATOR, SourceRecord
from kg.readers._lines import decoded_lines, readable, report
from kg.readers.jsonl import OnError

__all__ = ["read_listing", "parse_area", "parse_byline", "ET_AL_MARKERS"]

ET_AL_MARKERS = ("等", "et al.", "et al")
_AREA_RE = re.compile(r"^[^·.]{1,80}( · [^·.]{1,100})+$")
_MAX_NAME_WORDS = 7
_MAX_NAME_CHARS = 60


def parse_area(line: str) -> tuple[str, ...] | None:
    """``'Theory · Everything Else'`` -> ``('Theory', 'Everything Else')``; None if not an area line."""
    text = line.strip()
    if not _AREA_RE.match(text):
        return None
    return tuple(part.strip() for part in text.split(AREA_SEPARATOR))


def parse_byline(line: str) -> tuple[tuple[str, ...], bool] | None:
    """Names in byline order and whether the byline was cut short (``等``).

    Returns None when the line does not look like a byline.
    """
    text = line.strip()
    truncated = False
    for marker in ET_AL_MARKERS:
        if text.endswith(marker):
            text = text[: -len(marker)].rstrip(" ,")
            truncated = True
            break
    names = [n.strip() for n in re.split(r"[,，]", text)]
    if not text or any(not n for n in names):
        return None
    for name in names:
        if len(name) > _MAX_NAME_CHARS or len(name.split()) > _MAX_NAME_WORDS or name.endswith("."):
            return None
    return tuple(names), truncated


def read_listing(path: str | Path, on_error: OnError | None = None) -> Iterator[SourceRecord]:
    """Read a listing file; each record knows the line its entry starts on.

    With ``on_error``, a bad entry is handed to it and reading resumes at the next paragraph.

    Raises
    ------
    ReaderError
        for a truncated entry, a missing byline or abstract, or invalid UTF-8,
        naming the file and line.
    """
    path = Path(path)
    source = str(path)
    paragraphs = [(n, readable(t).strip()) for n, t in decoded_lines(path, on_error) if t.strip()]
    if not paragraphs:
        raise ReaderError(source, None, "empty file: expected a header line and entries")
    # The first non-empty line is the listing's header (e.g. a search title).
    i = 1
    while i < len(paragraphs):
        try:
            record, i = _entry(paragraphs, i, source)
        except ReaderError as exc:
            report(exc, paragraphs[i][1], on_error)
            i += 1
            continue
        yield record


def _entry(paragraphs: list[tuple[int, str]], i: int, source: str) -> tuple[SourceRecord, int]:
    """The entry starting at paragraph ``i``, and the index after it."""
    start, text = paragraphs[i]
    area = parse_area(text)
    if area is not None:
        i += 1
        if i >= len(paragraphs):
            raise ReaderError(source, start, "truncated entry: area line without byline and abstract")
    line_no, byline_text = paragraphs[i]
    byline = parse_byline(byline_text)
    if byline is None:
        raise ReaderError(source, line_no, "expected a byline (comma-separated author names)")
    if i + 1 >= len(paragraphs):
        raise ReaderError(source, line_no, "truncated entry: byline without abstract")
    abstract_line, abstract = paragraphs[i + 1]
    if parse_area(abstract) is not None or _looks_like_byline_only(abstract):
        raise ReaderError(source, abstract_line, "truncated entry: expected an abstract after the byline")
    names, truncated = byline
    record = SourceRecord(
        source=source, line=start, abstract=abstract, authors=names, area=area, authors_truncated=truncated, format="listing"
    )
    return record, i + 2


def _looks_like_byline_only(text: str) -> bool:
    """An 'abstract' that is a short list of names means the real abstract is missing."""
    return parse_byline(text) is not None and not re.search(r"[.!?]\s|[.!?]$", text) and len(text) < 300
