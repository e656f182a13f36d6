"""Readers: one module per input format, each yielding SourceRecords with their position."""

from __future__ import annotations

import gzip
from collections.abc import Iterable, Iterator
from pathlib import Path

from kg.errors import ReaderError
from kg.models import SourceRecord
from kg.readers.atom import read_atom
from kg.readers.bibtex import read_bibtex
from kg.readers.jsonl import OnError, read_jsonl
from kg.readers.listing import read_listing
from kg.readers.ris import read_ris
from kg.readers.tables import read_table

__all__ = [
    "read_listing",
    "read_jsonl",
    "read_bibtex",
    "read_table",
    "read_ris",
    "read_atom",
    "read_path",
    "expand_paths",
    "file_format",
    "READERS",
    "KNOWN",
    "OnError",
]


def _read_text(path: Path, on_error: OnError | None = None) -> Iterator[SourceRecord]:
    """A ``.txt`` file: a paper listing, or a Web of Science tab-delimited export (``savedrecs.txt``,
    whose header starts with the field tag ``PT`` and a tab)."""
    with gzip.open(path, "rb") if path.suffix == ".gz" else Path(path).open("rb") as handle:
        head = handle.read(64)
    if head.removeprefix(b"\xef\xbb\xbf").startswith(b"PT\t"):
        return read_table(path, on_error)
    return read_listing(path, on_error)


READERS = {
    ".txt": _read_text,
    ".jsonl": read_jsonl,
    ".json": read_jsonl,
    ".bib": read_bibtex,
    ".csv": read_table,
    ".tsv": read_table,
    ".ris": read_ris,
    ".atom": read_atom,
    ".xml": read_atom,
}
KNOWN = (
    "a listing or Web of Science export (.txt), JSON Lines or a JSON document (.jsonl, .json; OpenAlex and Semantic "
    "Scholar pages too), BibTeX (.bib), CSV or TSV with a header (.csv, .tsv: Scopus, Web of Science, Zotero, OpenAlex), "
    "RIS (.ris), an arXiv API Atom feed (.atom, .xml); each optionally .gz"
)


def file_format(path: Path) -> str:
    """The format suffix of a file, seen through a ``.gz`` (``papers.jsonl.gz`` -> ``.jsonl``)."""
    return Path(path.stem).suffix if path.suffix == ".gz" else path.suffix


def expand_paths(paths: Iterable[str | Path], skipped: list[tuple[Path, str]] | None = None) -> list[Path]:
    """Files named, plus the readable files inside folders named, in a stable order.

    Inside a folder, a link that leads out of it is never followed, and a file of no known format
    is passed over: each is added to ``skipped`` with the reason.
    """
    files: list[Path] = []
    for raw in paths:
        path = Path(raw)
        if path.is_dir():
            found = _folder_files(path, [] if skipped is None else skipped)
            if not found:
                raise ReaderError(str(path), None, f"folder holds no file kg reads: {KNOWN}")
            files.extend(found)
        elif path.is_file():
            if file_format(path) not in READERS:
                raise ReaderError(str(path), None, f"unknown format {file_format(path)!r}; kg reads {KNOWN}")
            files.append(path)
        else:
            raise ReaderError(str(path), None, "no such file or folder")
    return files


def _folder_files(folder: Path, skipped: list[tuple[Path, str]]) -> list[Path]:
    inside = folder.resolve()
    found = []
    for p in sorted(folder.rglob("*")):
        if not p.resolve().is_relative_to(inside):
            if p.is_symlink():  # what lies below a linked folder is not named again
                skipped.append((p, f"a link to {p.resolve()}, outside the folder: not followed"))
        elif not p.is_file():
            continue
        elif file_format(p) not in READERS:
            skipped.append((p, f"unknown format {file_format(p) or p.name!r}: kg reads {', '.join(READERS)} (optionally .gz)"))
        else:
            found.append(p)
    return found


def read_path(path: str | Path, on_error: OnError | None = None) -> Iterator[SourceRecord]:
    """Read one file with the reader its extension selects.

    With ``on_error``, a bad record is handed to it (with its error) and reading goes on;
    without, the first bad record raises its ReaderError.
    """
    path = Path(path)
    reader = READERS.get(file_format(path))
    if reader is None:
        raise ReaderError(str(path), None, f"unknown format {file_format(path)!r}")
    return reader(path, on_error)
