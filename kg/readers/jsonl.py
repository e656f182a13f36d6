"""JSON records: {id, title, authors, abstract, area, keywords, venue, year, doi, arxiv_id, ids}.

A file is JSON Lines (one value a line) or one JSON document (pretty-printed or not). Either way a
value may be a record, an array of records, an OpenAlex results page (``{"meta", "results": […]}``)
or a Semantic Scholar page (``{"total" or "next" or "token", "data": […]}``). Records from an arXiv
metadata snapshot, OpenAlex or Semantic Scholar are recognised by their content and converted
first (``kg.readers.formats``). A record needs a title or an abstract: title-only records are papers
too. Control characters are removed from every string.
"""

from __future__ import annotations

import itertools
import json
from dataclasses import replace
from collections.abc import Callable, Iterable, Iterator
from pathlib import Path

from kg.errors import ReaderError
from kg.models import AREA_SEPARATOR, SourceRecord
from kg.readers._lines import decoded_lines, joined, readable, report, strip_boilerplate, strip_controls
from kg.readers.bbl import bbl_references
from kg.readers.formats import dblp_author_ids, detect, normal_arxiv_id, normal_doi, person_id, reference_keys

__all__ = ["read_jsonl", "parse_line", "parse_numbered", "page_items", "record_of", "plausible_year", "OnError"]

FIRST_YEAR = 1800  # the earliest year a paper may carry; the latest is next year (``last_year``)


def last_year() -> int:
    import datetime

    return datetime.date.today().year + 1


def plausible_year(year: int) -> bool:
    """Whether a record's year may be a paper's: 1800 to next year (a typo, ``20188``, or ``10**30`` is refused).

    >>> plausible_year(2024), plausible_year(20188), plausible_year(1066)
    (True, False, False)
    """
    return FIRST_YEAR <= year <= last_year()


OnError = Callable[[ReaderError, str], None]  # (the error, the line's raw text)


def read_jsonl(path: str | Path, on_error: OnError | None = None) -> Iterator[SourceRecord]:
    """Read paper records from JSON Lines (blank lines allowed) or from one JSON document.

    Raises
    ------
    ReaderError
        naming the file, the line (or the item of a document) and the field that is wrong
        (unless ``on_error`` takes it).
    """
    path = Path(path)
    lines = decoded_lines(path, on_error)
    seen: list[tuple[int, str]] = []
    for number, text in lines:
        seen.append((number, text))
        if text.strip():
            break
    if seen and _continues(seen[-1][1]):  # the first value runs past its line: one (pretty-printed) document
        yield from _document(path, joined(path, itertools.chain(seen, lines)), on_error)
        return
    for number, text in itertools.chain(seen, lines):
        if not text.strip():
            continue
        for found in _line_records(text, str(path), number):
            if isinstance(found, ReaderError):
                report(found, text, on_error)
            else:
                yield found


def _continues(text: str) -> bool:
    """Whether a line is the unfinished start of a JSON value (its parse fails only at its end).

    >>> _continues("{"), _continues('{"title": "x",'), _continues('{"title": "x"}'), _continues("{not json")
    (True, True, False, False)
    """
    try:
        json.loads(text)
    except json.JSONDecodeError as exc:
        return exc.pos >= len(text.rstrip())
    except RecursionError:
        return False  # a line nested too deeply: JSON Lines, and that line's error says so
    return False


def _line_records(text: str, source: str, number: int) -> list[SourceRecord | ReaderError]:
    """A line's records: one for an object, one each for an array's items or a results page's."""
    try:
        value = json.loads(text)
    except (json.JSONDecodeError, RecursionError):
        value = None
    items = page_items(value)
    if items is None:
        try:
            return [parse_line(text, source, number)]
        except ReaderError as exc:
            return [exc]
    out: list[SourceRecord | ReaderError] = []
    for i, item in enumerate(items, start=1):
        try:
            out.append(replace(record_of(item, f"{source}:{number} (item {i})", None), source=source, line=number))
        except ReaderError as exc:
            out.append(exc)
    return out


def _document(path: Path, text: str, on_error: OnError | None) -> Iterator[SourceRecord]:
    """The records of one JSON document; an item's error names the file and the item."""
    try:
        value = json.loads(text)
    except json.JSONDecodeError as exc:
        raise ReaderError(str(path), exc.lineno, f"invalid JSON: {exc.msg} (column {exc.colno})") from exc
    except RecursionError as exc:
        raise ReaderError(str(path), None, "invalid JSON: nested too deeply") from exc
    items = page_items(value)
    for i, item in enumerate(items if items is not None else [value], start=1):
        try:
            found = record_of(item, f"{path} (item {i})" if items is not None else str(path), None)
            yield replace(found, source=str(path), line=i)  # a document's records are numbered by item
        except ReaderError as exc:
            report(exc, json.dumps(item, ensure_ascii=False)[:10_000], on_error)


def page_items(value) -> list | None:
    """The records a JSON value holds when it is an array or a results page; None for anything else.

    >>> page_items([{"title": "a"}]), page_items({"meta": {}, "results": [1]}), page_items({"total": 1, "data": [2]})
    ([{'title': 'a'}], [1], [2])
    >>> page_items({"title": "one record"}) is None, page_items([1, 2]) is None
    (True, True)
    """
    if isinstance(value, list) and all(isinstance(v, dict) for v in value):
        return value
    if isinstance(value, dict):
        if isinstance(value.get("results"), list) and "meta" in value:  # an OpenAlex page
            return value["results"]
        if isinstance(value.get("data"), list) and (
            {"total", "next", "token", "offset"} & value.keys()
        ):  # a Semantic Scholar page
            return value["data"]
    return None


def parse_numbered(lines: Iterable[tuple[int, str]], source: str) -> Iterator[tuple[int, str, SourceRecord | ReaderError]]:
    """(line number from 1, text) -> (number, text, its record or its error); blank lines and a
    byte-order mark are passed over. Shared by ``read_jsonl`` and the Spark engine's readers."""
    for number, text in lines:
        if number == 1:
            text = text.removeprefix("\ufeff")
        if not text.strip():
            continue
        try:
            yield number, text, parse_line(text, source, number)
        except ReaderError as exc:
            yield number, text, exc


def parse_line(text: str, source: str, number: int) -> SourceRecord:
    """One JSON Lines line (numbered from 1) as a record; a ReaderError names the line."""
    try:
        obj = json.loads(text)
    except json.JSONDecodeError as exc:
        raise ReaderError(source, number, f"invalid JSON: {exc.msg} (column {exc.colno})") from exc
    except RecursionError as exc:
        raise ReaderError(source, number, "invalid JSON: nested too deeply") from exc
    return record_of(obj, source, number)


def record_of(obj, source: str, line: int | None, fmt: str | None = None) -> SourceRecord:
    """One JSON value as a record (converted first when its content names another format). ``fmt`` names the
    format a reader read it as (``SourceRecord.format``); a JSON value is named by what ``detect`` finds."""
    if not isinstance(obj, dict):
        raise ReaderError(source, line, "expected a JSON object (a paper record)")
    name, convert = detect(obj)
    if convert is not None:
        try:
            obj = convert(obj)
        except (TypeError, AttributeError, ValueError, KeyError) as exc:
            raise ReaderError(source, line, f"not a valid {name} ({exc})") from exc
    return _record(obj, source, line, fmt or name)


def _record(obj: dict, source: str, line: int | None, fmt: str) -> SourceRecord:
    def fail(field: str, why: str) -> ReaderError:
        return ReaderError(source, line, f"field {field!r}: {why}")

    authors, keywords, per_author = _checked(obj, fail)
    names = [readable(a).strip() for a in authors]
    area = obj.get("area")
    area_path = tuple(p.strip() for p in area.split(AREA_SEPARATOR.strip())) if area and area.strip() else None
    if area_path is not None and not all(area_path):
        raise fail("area", "empty part in area path")
    return SourceRecord(
        source=source,
        line=line if line is not None else 0,  # an item of a document: its reader numbers it
        id=(strip_controls(obj.get("id") or "").strip() or None),
        title=readable(obj.get("title") or "").strip() or None,
        authors=tuple(n for n in names if n),
        abstract=strip_boilerplate(readable(obj.get("abstract") or "")),
        area=tuple(readable(p) for p in area_path) if area_path else None,
        keywords=tuple(k for k in (readable(k).strip() for k in keywords) if k),
        venue=readable(obj["venue"]) if obj.get("venue") else None,
        year=obj.get("year"),
        doi=normal_doi(obj.get("doi")),
        arxiv_id=normal_arxiv_id(obj.get("arxiv_id")) or normal_arxiv_id(obj.get("doi")),
        citations=obj.get("citations"),
        affiliations=_aligned(names, per_author["affiliations"]),
        author_ids=dblp_author_ids([n for n in names if n], _person_ids(_aligned(names, per_author["author_ids"]))),
        references=_references(obj.get("references"), obj.get("bbl"), fail),
        ids=tuple(dict.fromkeys(strip_controls(i).strip() for i in obj.get("ids") or () if i and i.strip())),
        format=fmt,
    )


def _references(value, bbl, fail) -> tuple[tuple[str, ...], ...]:
    """The works a record cites, each by its keys: ids, DOIs, arXiv ids or titles, or objects giving them; then those of
    its compiled LaTeX bibliography (``bbl``), if it has one."""
    if value is not None and (not isinstance(value, list) or not all(isinstance(r, (str, dict)) for r in value)):
        raise fail("references", "expected a list of ids, DOIs, arXiv ids or titles (or objects with id, doi, arxiv_id, title)")
    if bbl is not None and not isinstance(bbl, str):
        raise fail("bbl", "expected the text of a compiled LaTeX bibliography (a .bbl file) or null")
    cited = [*(value or ()), *(bbl_references(bbl) if bbl else ())]
    found = (tuple(reference_keys(strip_controls(r) if isinstance(r, str) else r)) for r in cited)
    return tuple(dict.fromkeys(keys for keys in found if keys))


def _checked(obj: dict, fail) -> tuple[list, list, dict]:
    """Every field's type checked (the first wrong one raises ``fail(field, why)``); (authors, keywords, per-author lists)."""
    abstract, title = obj.get("abstract"), obj.get("title")
    if abstract is not None and not isinstance(abstract, str):
        raise fail("abstract", "expected a string or null")
    if not (abstract or "").strip() and not (isinstance(title, str) and title.strip()):
        raise fail("abstract", "required, a non-empty string (or a title, for a title-only record)")
    authors = obj.get("authors", [])
    if not isinstance(authors, list) or not all(isinstance(a, str) for a in authors):
        raise fail("authors", "expected a list of strings")
    keywords = obj.get("keywords") or []
    if not isinstance(keywords, list) or not all(isinstance(k, str) for k in keywords):
        raise fail("keywords", "expected a list of strings")
    ids = obj.get("ids")
    if ids is not None and (not isinstance(ids, list) or not all(isinstance(i, str) for i in ids)):
        raise fail("ids", "expected a list of id strings (doi:…, openalex:W…, pmid:…) or null")
    for field in ("id", "title", "area", "venue", "doi", "arxiv_id"):
        value = obj.get(field)
        if value is not None and not isinstance(value, str):
            raise fail(field, "expected a string or null")
    year = obj.get("year")
    if year is not None and (not isinstance(year, int) or isinstance(year, bool)):
        raise fail("year", "expected an integer or null")
    if year is not None and not plausible_year(year):
        raise fail("year", f"{year} is not a year of a paper: expected {FIRST_YEAR} to {last_year()}")
    citations = obj.get("citations")
    if citations is not None and (not isinstance(citations, int) or isinstance(citations, bool) or citations < 0):
        raise fail("citations", "expected a non-negative integer or null")
    per_author = {}
    for field, what in (("affiliations", "string"), ("author_ids", "id string")):
        values = obj.get(field)
        if values is not None and (
            not isinstance(values, list)
            or len(values) != len(authors)
            or not all(v is None or isinstance(v, str) for v in values)
        ):
            raise fail(field, f"expected null or a list with one {what} (or null) per author")
        per_author[field] = values
    return authors, keywords, per_author


def _person_ids(ids: tuple[str | None, ...] | None) -> tuple[str | None, ...] | None:
    """Each author's id with its kind (``person_id``: ``~Yang_Liu1`` is OpenReview's, a bare ORCID ORCID's)."""
    return None if ids is None else tuple(person_id(i) for i in ids)


def _aligned(names: list[str], values: list | None) -> tuple[str | None, ...] | None:
    """A per-author list, kept for the authors whose (cleaned) names are not empty."""
    if values is None:
        return None
    return tuple((readable(v).strip() or None) if v else None for name, v in zip(names, values) if name)
