"""arXiv API results (``.atom``, or ``.xml`` holding an Atom feed): one paper per ``<entry>``, read
with the standard library's ElementTree through ``defusedxml`` (no entity expansion, no external
entities).

Written from the arXiv API user manual: an entry's ``<id>`` is ``http://arxiv.org/abs/ID`` (with
its version), ``<title>``, ``<summary>`` (the abstract), ``<author><name>`` (with
``<arxiv:affiliation>``), ``<published>`` (its year), ``<arxiv:primary_category term=…>`` (the area,
named by the arXiv taxonomy), ``<arxiv:doi>``, ``<arxiv:journal_ref>`` (the venue; else arXiv).
An entry's errors name the file and the entry.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import replace
from pathlib import Path

from defusedxml import ElementTree
from defusedxml.common import DefusedXmlException

from kg.errors import ReaderError
from kg.models import SourceRecord
from kg.readers._lines import decoded_text, report
from kg.readers.formats import arxiv_area, normal_arxiv_id
from kg.readers.jsonl import OnError, record_of

__all__ = ["read_atom"]

NS = {"a": "http://www.w3.org/2005/Atom", "arxiv": "http://arxiv.org/schemas/atom"}


def _text(node, path: str) -> str:
    found = node.find(path, NS)
    return " ".join((found.text or "").split()) if found is not None else ""


def _entry_record(entry) -> dict:
    arxiv_id = normal_arxiv_id(_text(entry, "a:id").rsplit("/abs/", 1)[-1])
    authors = [_text(a, "a:name") for a in entry.findall("a:author", NS)]
    affiliations = [_text(a, "arxiv:affiliation") or None for a in entry.findall("a:author", NS)]
    primary = entry.find("arxiv:primary_category", NS)
    area = arxiv_area(primary.get("term", "")) if primary is not None else None
    published = _text(entry, "a:published")
    return {
        "id": f"arxiv:{arxiv_id}" if arxiv_id else _text(entry, "a:id") or None,
        "arxiv_id": arxiv_id,
        "title": _text(entry, "a:title") or None,
        "abstract": _text(entry, "a:summary") or None,
        "authors": authors,
        "affiliations": affiliations if any(affiliations) else None,
        "area": " · ".join(area) if area else None,
        "doi": _text(entry, "arxiv:doi") or None,
        "venue": _text(entry, "arxiv:journal_ref") or "arXiv",
        "year": int(published[:4]) if published[:4].isdigit() else None,
    }


def read_atom(path: str | Path, on_error: OnError | None = None) -> Iterator[SourceRecord]:
    """Read one paper per entry of an Atom feed (the arXiv API's answer)."""
    path = Path(path)
    text = decoded_text(path, on_error)
    try:
        root = ElementTree.fromstring(text)
    except ElementTree.ParseError as exc:
        raise ReaderError(str(path), exc.position[0], f"not well-formed XML: {exc.msg if hasattr(exc, 'msg') else exc}") from exc
    except DefusedXmlException as exc:
        raise ReaderError(str(path), None, f"refused: the XML declares entities or a DTD ({type(exc).__name__})") from exc
    if root.tag != f"{{{NS['a']}}}feed":
        raise ReaderError(str(path), 1, f"expected an Atom feed (the arXiv API's answer), found <{root.tag}>")
    for i, entry in enumerate(root.findall("a:entry", NS), start=1):
        try:
            yield replace(record_of(_entry_record(entry), f"{path} (entry {i})", None, "arXiv Atom"), source=str(path), line=i)
        except ReaderError as exc:
            report(exc, _text(entry, "a:id"), on_error)
