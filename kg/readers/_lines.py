"""Decoding a file line by line, so that a bad byte is reported with its line."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

from kg.errors import ReaderError

__all__ = ["decoded_lines"]


def decoded_lines(path: Path) -> Iterator[tuple[int, str]]:
    """Yield (line number from 1, text without the line break)."""
    try:
        handle = path.open("rb")
    except OSError as exc:
        raise ReaderError(str(path), None, f"cannot open: {exc.strerror}") from exc
    with handle:
        for number, raw in enumerate(handle, start=1):
            try:
                text = raw.decode("utf-8")
            except UnicodeDecodeError as exc:
                raise ReaderError(
                    str(path), number, f"invalid UTF-8 at byte {exc.start} of the line"
                ) from exc
            if number == 1:
                text = text.removeprefix("\ufeff")
            yield number, text.rstrip("\r\n")
