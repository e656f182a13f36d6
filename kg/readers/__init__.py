"""Readers: one module per input format, each yielding SourceRecords with their position."""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from pathlib import Path

from kg.errors import ReaderError
from kg.models import SourceRecord
from kg.readers.jsonl import read_jsonl
from kg.readers.listing import read_listing

__all__ = ["read_listing", "read_jsonl", "read_path", "expand_paths", "READERS"]

READERS = {".txt": read_listing, ".jsonl": read_jsonl}


def expand_paths(paths: Iterable[str | Path]) -> list[Path]:
    """Files named, plus the readable files inside folders named, in a stable order."""
    files: list[Path] = []
    for raw in paths:
        path = Path(raw)
        if path.is_dir():
            found = sorted(p for p in path.rglob("*") if p.is_file() and p.suffix in READERS)
            if not found:
                raise ReaderError(str(path), None, "folder holds no .txt or .jsonl file")
            files.extend(found)
        elif path.is_file():
            if path.suffix not in READERS:
                raise ReaderError(str(path), None, f"unknown format {path.suffix!r}; expected .txt (listing) or .jsonl")
            files.append(path)
        else:
            raise ReaderError(str(path), None, "no such file or folder")
    return files


def read_path(path: str | Path) -> Iterator[SourceRecord]:
    """Read one file with the reader its extension selects."""
    path = Path(path)
    reader = READERS.get(path.suffix)
    if reader is None:
        raise ReaderError(str(path), None, f"unknown format {path.suffix!r}")
    return reader(path)
