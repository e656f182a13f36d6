"""Concept extraction: markup, abbreviations, vocabulary, candidates, corpus-aware ranking."""

from __future__ import annotations

import hashlib
from pathlib import Path

__all__ = ["digest"]

_PACKAGE = Path(__file__).parent


def digest(*, candidates_only: bool = False) -> str:
    """A fingerprint of what the extractor finds: its code and the data files it reads.

    Copies of its output kept on disk (Spark's stage folder, training caches) carry it, and are
    computed again when it differs. ``candidates_only``: the code and vocabulary that find
    candidates, not the trained tables that rank them (a retrained ranker ranks the same candidates).
    """
    data = [_PACKAGE / "data" / "vocabulary.jsonl"] if candidates_only else sorted((_PACKAGE / "data").iterdir())
    h = hashlib.sha256()
    for file in sorted(_PACKAGE.glob("*.py")) + data:
        h.update(file.name.encode() + b"\0" + file.read_bytes())
    return h.hexdigest()[:16]
