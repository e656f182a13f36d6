"""Spreadsheets and reference-manager exports (``.csv``, ``.tsv``): one paper a row, read with the
standard library's ``csv`` (the delimiter sniffed: comma, tab or semicolon).

The header names the columns. Each field is read from the first column present among those
its exporters use (case and spacing ignored):

* kg's own names: ``id title authors abstract year venue doi keywords area``;
* **Scopus** CSV: ``Title``, ``Author full names`` (else ``Authors``), ``Abstract`` (its ``©`` line
  dropped), ``Year``, ``Source title``, ``DOI``, ``Author Keywords``, ``EID`` (the record's id),
  ``PubMed ID``, and each author's affiliation from ``Authors with affiliations`` (else ``Affiliations``
  when it names one per author);
* **Web of Science** tab-delimited (field tags): ``TI``, ``AF`` (else ``AU``), ``AB``, ``PY``,
  ``SO``, ``DI``, ``DE``, ``UT`` (the accession number: the record's id; ``ID`` is Keywords Plus,
  index terms that are not the authors', and is not read), ``PM``, and each author's address from ``C1``;
  also its named columns (``Article Title``, ``Publication Year``, ``UT (Unique WOS ID)``, …);
* **Zotero** CSV: ``Title``, ``Author``, ``Abstract Note``, ``Publication Year``,
  ``Publication Title``, ``DOI``, ``Manual Tags``, ``Key``;
* **OpenAlex** CSV: ``display_name``, ``authorships.author.display_name``, ``publication_year``,
  ``primary_location.source.display_name``, ``doi``, ``id``.

Authors are split on ``;`` or ``|``; ``Surname, Given`` becomes ``Given Surname``. Each author's person id is
kept: Scopus's Author ID (``Author(s) ID``, or in parentheses after the name), Web of Science's ORCID
(``OI``) else ResearcherID (``RI``). A row's errors name the file and its line.
"""

from __future__ import annotations


import csv
import io
import re
from collections.abc import Iterator, Sequence
from pathlib import Path

from kg.errors import ReaderError
from kg.models import SourceRecord
from kg.readers._lines import decoded_text, report
from kg.readers.jsonl import OnError, record_of

__all__ = ["read_table", "table_format", "COLUMNS", "FORMATS", "split_people"]

COLUMNS: dict[str, tuple[str, ...]] = {  # kg's field -> the column names exporters give it, the preferred first
    "id": ("eid", "ut", "ut (unique wos id)", "key", "id"),
    "title": ("title", "article title", "ti", "display_name", "document title"),
    "authors": ("author full names", "af", "authors", "author", "au", "authorships.author.display_name"),
    "abstract": ("abstract", "abstract note", "ab"),
    "year": ("year", "publication year", "py", "publication_year"),
    "venue": ("venue", "source title", "so", "publication title", "primary_location.source.display_name"),
    "doi": ("doi", "di"),
    "keywords": ("keywords", "author keywords", "de", "manual tags"),
    "area": ("area",),
    "pmid": ("pubmed id", "pm", "pubmed id (pmid)"),
    "affiliations": ("authors with affiliations", "affiliations", "c1", "addresses"),
    "scopus_ids": ("author(s) id", "authors id"),
    "orcids": ("oi", "orcids"),
    "researcher_ids": ("ri", "researcher ids"),
}
# the columns that tell an exporter apart, and the format its records are read as
FORMATS = (
    ("Web of Science", ("ut",)),
    ("Web of Science", ("ut (unique wos id)",)),
    ("Scopus CSV", ("eid", "source title")),
    ("Zotero CSV", ("key", "item type")),
    ("OpenAlex CSV", ("display_name", "authorships.author.display_name")),
)
_WOS_ADDRESS = re.compile(r"\[([^\]]+)\]\s*([^\[]+)")
_SCOPUS_ID = re.compile(r"\s*\((\d+)\)\s*$")


def split_people(text: str) -> list[str]:
    """A byline cell as names: split on ``;`` or ``|``; ``Surname, Given`` turned around.

    >>> split_people("Lee, Ann (57190000001); Chen, Bo (57190000002)")
    ['Ann Lee', 'Bo Chen']
    >>> split_people("Ann Lee|Bo Chen"), split_people("Lee, A")
    (['Ann Lee', 'Bo Chen'], ['A Lee'])
    """
    parts = re.split(r"[;|]", text) if re.search(r"[;|]", text) else [text]
    names = []
    for part in parts:
        part = _SCOPUS_ID.sub("", part).strip()
        if part.count(",") == 1:
            surname, given = (p.strip() for p in part.split(","))
            part = f"{given} {surname}".strip()
        if part:
            names.append(part)
    return names


def _present(header: Sequence[str]) -> dict[str, str]:
    return {" ".join(h.lower().split()): h for h in header}


def _columns(header: Sequence[str]) -> dict[str, str]:
    """kg's field -> the header's column that holds it (the first exporter name present)."""
    present = _present(header)
    return {
        field: next(present[n] for n in names if n in present)
        for field, names in COLUMNS.items()
        if any(n in present for n in names)
    }


def table_format(header: Sequence[str]) -> str:
    """The exporter a header is recognised as ("Scopus CSV", "Web of Science", …; "CSV" when none)."""
    present = _present(header)
    return next((name for name, needed in FORMATS if all(n in present for n in needed)), "CSV")


def _row_record(row: dict, columns: dict[str, str]) -> dict:
    def cell(field: str) -> str:
        return (row.get(columns[field]) or "").strip() if field in columns else ""

    year = cell("year")
    keywords = [k.strip() for k in re.split(r"[;|]", cell("keywords")) if k.strip()]
    authors = split_people(cell("authors"))
    return {
        "id": cell("id") or None,
        "title": cell("title") or None,
        "abstract": cell("abstract") or None,
        "authors": authors,
        "venue": cell("venue") or None,
        "doi": cell("doi") or None,
        "keywords": keywords,
        "area": cell("area") or None,
        "year": int(year[:4]) if re.fullmatch(r"\d{4}(\.0)?", year) else None,
        "ids": [f"pmid:{cell('pmid')}"] if cell("pmid").isdigit() else None,
        "affiliations": _affiliations(cell("affiliations"), authors, row, columns),
        "author_ids": _author_ids(cell, authors),
    }


def _author_ids(cell, authors: list[str]) -> list | None:
    """Each author's person id, aligned with ``authors``: Scopus's ``Author(s) ID`` (else the ids in parentheses
    after each name of ``Author full names``) as ``scopus:…``; Web of Science's ``OI`` (ORCID) else ``RI``
    (ResearcherID, ``wos:…``), given by name (``Lee, Ann/0000-0002-1825-0097; …``). None when none is given."""
    if not authors:
        return None
    scopus = [i.strip() for i in cell("scopus_ids").split(";") if i.strip()]
    if not scopus:
        scopus = [m.group(1) if (m := _SCOPUS_ID.search(p)) else "" for p in re.split(r"[;|]", cell("authors"))]
    if len(scopus) == len(authors) and any(scopus):
        return [f"scopus:{i}" if i.isdigit() else None for i in scopus]
    by_name: dict[str, str] = {}
    for field, scheme in (("orcids", "orcid"), ("researcher_ids", "wos")):
        for entry in cell(field).split(";"):
            name, slash, value = entry.rpartition("/")
            if slash and name.strip() and value.strip():
                by_name.setdefault(" ".join(split_people(name.strip())).casefold(), f"{scheme}:{value.strip()}")
    found = [by_name.get(a.casefold()) for a in authors]
    return found if any(found) else None


def _affiliations(text: str, authors: list[str], row: dict, columns: dict[str, str]) -> list | None:
    """Each author's affiliation, aligned with ``authors``, where the export says whose it is: Scopus's
    ``Authors with affiliations`` (``Lee A., Univ X; Chen B., Univ Y``) or an ``Affiliations`` cell with one
    per author; Web of Science's ``C1`` (``[Lee, Ann; Chen, Bo] Univ X; [Day, C] Univ Y``). None otherwise."""
    if not text or not authors:
        return None
    if "[" in text:  # Web of Science addresses, by name
        places: dict[str, str] = {}
        for names, place in _WOS_ADDRESS.findall(text):
            for name in names.split(";"):
                places.setdefault(" ".join(split_people(name.strip())).casefold(), place.strip(" ;"))
        found = [places.get(a.casefold()) for a in authors]
        return found if any(found) else None
    parts = [p.strip() for p in text.split(";") if p.strip()]
    if len(parts) != len(authors):
        return None
    if " ".join(columns.get("affiliations", "").lower().split()) == "authors with affiliations":
        parts = [p.split(",", 1)[1].strip() if "," in p else "" for p in parts]  # 'Lee A., Univ X' -> 'Univ X'
    return [p or None for p in parts]


def read_table(path: str | Path, on_error: OnError | None = None) -> Iterator[SourceRecord]:
    """Read one paper a row from a CSV or tab-separated file with a header row."""
    path = Path(path)
    text = decoded_text(path, on_error)
    if not text.strip():
        return
    try:
        dialect = csv.Sniffer().sniff(text[:20_000], delimiters=",\t;")
    except csv.Error:
        dialect = csv.excel_tab if path.name.removesuffix(".gz").endswith(".tsv") else csv.excel
    reader = csv.DictReader(io.StringIO(text), dialect=dialect)
    columns = _columns(reader.fieldnames or [])
    fmt = table_format(reader.fieldnames or [])
    if "title" not in columns and "abstract" not in columns:
        raise ReaderError(
            str(path),
            1,
            f"no title or abstract column in the header; kg reads {', '.join(COLUMNS['title'] + COLUMNS['abstract'])} "
            "(see kg.readers.tables)",
        )
    start = reader.line_num + 1
    for row in reader:
        try:
            yield record_of(_row_record(row, columns), str(path), start, fmt)
        except ReaderError as exc:
            report(exc, ",".join(str(v) for v in row.values()), on_error)
        start = reader.line_num + 1
