"""Readers: one module per input format, each yielding SourceRecords with their position."""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from pathlib import Path

from kg.errors import ReaderError
from kg.models import SourceRecord
from kg.readers.bibtex import read_bibtex
from kg.readers.jsonl import OnError, read_jsonl
from kg.readers.listing import read_listing

__all__ = ["read_listing", "read_jsonl", "read_bibtex", "read_path", "expand_paths", "file_format", "READERS", "OnError"]

READERS = {".txt": read_listing, ".jsonl": read_jsonl, ".json": read_jsonl, ".bib": read_bibtex}


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
                raise ReaderError(str(path), None, "folder holds no .txt, .jsonl, .json or .bib file")
            files.extend(found)
        elif path.is_file():
            if file_format(path) not in READERS:
                raise ReaderError(
                    str(path), None, f"unknown format {file_format(path)!r}; expected .txt (listing), .jsonl or .json (JSON Lines), .bib (BibTeX), optionally .gz"
                )
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
            skipped.append((p, f"unknown format {file_format(p) or p.name!r}: kg reads .txt, .jsonl, .json, .bib (optionally .gz)"))
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
