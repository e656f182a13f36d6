"""Decoding a file line by line, so that a bad byte is reported with its line."""

from __future__ import annotations

import gzip
import re
from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from pathlib import Path

from kg.errors import ReaderError

__all__ = [
    "decoded_lines",
    "decoded_text",
    "readable",
    "report",
    "strip_controls",
    "strip_boilerplate",
    "line_limit",
    "joined",
    "bounded",
    "MAX_LINE_BYTES",
]

MAX_LINE_BYTES = 64 * 1024 * 1024  # a line (or a file a reader takes whole) longer than this is refused (``line_limit``)
_LIMIT: ContextVar[int] = ContextVar("kg_max_line_bytes", default=MAX_LINE_BYTES)


@contextmanager
def line_limit(limit: int) -> Iterator[None]:
    """Readers refuse lines (and files read whole) of more than ``limit`` decompressed bytes while this is held
    (``KG_MAX_LINE_BYTES``): a small gzip file may hold gigabytes, which are never held in memory."""
    token = _LIMIT.set(limit)
    try:
        yield
    finally:
        _LIMIT.reset(token)


_CONTROLS = re.compile(r"[\x00-\x08\x0b\x0c\x0e-\x1f\x7f-\x9f]")
# A UTF-8 lead byte read as Latin-1 or Windows-1252, then a continuation byte read so: all mojibake of that
# kind has one, and a text with neither that nor a C1 control is left to itself (ftfy is not called: reading stays fast)
_SUSPECT = re.compile(
    "[\u00c2-\u00f4][\u0080-\u00bf\u0152\u0153\u0160\u0161\u0178\u017d\u017e\u0192\u02c6\u02dc"
    "\u2013\u2014\u2018-\u201e\u2020-\u2022\u2026\u2030\u2039\u203a\u20ac\u2122]"
    "|[\u0080-\u009f]"  # or a Windows-1252 character read as its byte: 'robot\x92s' is 'robot’s'
)


def strip_controls(text: str) -> str:
    r"""Text without NUL and other control characters (tabs and line breaks stay).

    >>> strip_controls("Wei\x00 Lin\x1b")
    'Wei Lin'
    """
    return _CONTROLS.sub("", text)


_BOILERPLATE = re.compile(
    r"(?:\s*(?:©|\(c\)|copyright\b)[^\n]*?(?:\d{4}|rights reserved|the authors?|elsevier|springer|ieee|acm|wiley|"
    r"published by|licen[cs]ee?)[^\n]*$)+",
    re.I,
)


def strip_boilerplate(abstract: str | None) -> str:
    r"""An abstract without the publisher's copyright lines at its end (Scopus and Web of Science print them).

    >>> strip_boilerplate("We learn things. © 2018 by the author(s).")
    'We learn things.'
    >>> strip_boilerplate("A study.\nCopyright © 2020 Elsevier B.V. All rights reserved.")
    'A study.'
    >>> strip_boilerplate("The (c) term of the expansion.")
    'The (c) term of the expansion.'
    """
    text = (abstract or "").strip()
    return _BOILERPLATE.sub("", text).strip()


def readable(text: str) -> str:
    r"""Text as its writer meant it: mis-decoded UTF-8 mended (``ftfy.fix_encoding``: 'JÃ¼rgen' is 'Jürgen',
    'naÃ¯ve' is 'naïve'), then control characters stripped (``strip_controls``).

    >>> readable("JÃ¼rgen Sturm\x00")
    'Jürgen Sturm'
    """
    if not text.isascii() and _SUSPECT.search(text):
        import ftfy

        text = ftfy.fix_encoding(text)
    return strip_controls(text)


def report(error: ReaderError, text: str, on_error) -> None:
    """A bad record: raise its error, or with ``on_error`` (``OnError``) hand it over with the record's text."""
    if on_error is None:
        raise error
    on_error(error, text)


def decoded_text(path: Path, on_error=None) -> str:
    """The whole file as text, its lines joined (a line that is not UTF-8 is reported as ``decoded_lines`` does);
    a file of more than the line limit (``line_limit``) in all is refused when it passes it."""
    return joined(path, decoded_lines(path, on_error))


def joined(path: Path, lines) -> str:
    """Numbered lines joined into one text (``bounded``)."""
    return "\n".join(text for _, text in bounded(path, lines))


def bounded(path: Path, lines) -> Iterator[tuple[int, str]]:
    """Numbered lines, refused as soon as together they pass the line limit (``line_limit``): what a reader takes
    whole (a JSON document, a CSV, XML, RIS or BibTeX file) is bounded like a line."""
    limit, total = _LIMIT.get(), 0
    for number, text in lines:
        total += len(text) + 1
        if total > limit:
            raise ReaderError(str(path), number, f"the file passes {limit} bytes here (KG_MAX_LINE_BYTES): it is not read")
        yield number, text


def decoded_lines(path: Path, on_error=None) -> Iterator[tuple[int, str]]:
    """Yield (line number from 1, text without the line break); ``.gz`` files are read through gzip.

    A line that is not UTF-8 raises its ReaderError, or with ``on_error`` (``OnError``) is handed
    to it (with the line's text, bad bytes replaced) and left out.
    """
    try:
        handle = gzip.open(path, "rb") if path.suffix == ".gz" else path.open("rb")
    except OSError as exc:
        raise ReaderError(str(path), None, f"cannot open: {exc.strerror}") from exc
    with handle:
        for number, raw in _numbered(handle, path):
            if raw is None:
                report(
                    ReaderError(str(path), number, f"line longer than {_LIMIT.get()} bytes (KG_MAX_LINE_BYTES): refused"),
                    "",
                    on_error,
                )
                continue
            try:
                text = raw.decode("utf-8")
            except UnicodeDecodeError as exc:
                report(
                    ReaderError(str(path), number, f"invalid UTF-8 at byte {exc.start} of the line"),
                    raw.decode("utf-8", "replace").rstrip("\r\n"),
                    on_error,
                )
                continue
            if number == 1:
                text = text.removeprefix("\ufeff")
            yield number, text.rstrip("\r\n")


def _numbered(handle, path: Path) -> Iterator[tuple[int, bytes | None]]:
    """Each line with its number; a line longer than the limit is None, read past and never held whole."""
    limit, number = _LIMIT.get(), 0
    try:
        while raw := handle.readline(limit + 1):
            number += 1
            if len(raw) > limit and not raw.endswith(b"\n"):
                while (rest := handle.readline(1 << 20)) and not rest.endswith(b"\n"):
                    pass  # the rest of the line, read and dropped a megabyte at a time
                yield number, None
                continue
            yield number, raw
    except (OSError, EOFError) as exc:  # a damaged or cut-off gzip stream
        raise ReaderError(str(path), number + 1, f"cannot read: {exc}") from exc
