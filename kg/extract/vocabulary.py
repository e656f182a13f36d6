"""The curated concept vocabulary: canonical names, aliases, broader concepts, context words."""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from functools import lru_cache
from importlib import resources
from pathlib import Path

from kg.errors import ExtractionError
from kg.extract.normalize import phrase_key

__all__ = ["VocabularyEntry", "Vocabulary", "load_vocabulary", "is_short_form", "choose_short"]


def is_short_form(text: str) -> bool:
    """An acronym-like alias (SAM, LLM, QLoRA): matched only with its exact case."""
    letters = [c for c in text if c.isalpha()]
    return 1 < len(text) <= 6 and " " not in text and sum(c.isupper() for c in letters) >= 2


@dataclass(frozen=True)
class VocabularyEntry:
    name: str
    key: str
    aliases: tuple[str, ...]
    broader: str | None = None
    context: tuple[str, ...] = ()
    case_sensitive: bool = False


@dataclass
class Vocabulary:
    entries: dict[str, VocabularyEntry] = field(default_factory=dict)
    by_key: dict[str, VocabularyEntry] = field(default_factory=dict)
    by_short: dict[str, list[VocabularyEntry]] = field(default_factory=dict)
    max_words: int = 1
    first_words: set[str] = field(default_factory=set)  # first word of every phrase key

    def add(self, entry: VocabularyEntry) -> None:
        self.entries[entry.key] = entry
        for surface in (entry.name, *entry.aliases):
            if is_short_form(surface) or (entry.case_sensitive and " " not in surface):
                self.by_short.setdefault(surface, []).append(entry)
                continue
            key = phrase_key(surface)
            if key and key not in self.by_key:
                self.by_key[key] = entry
                self.first_words.add(key.split(" ", 1)[0])
                self.max_words = max(self.max_words, key.count(" ") + 1)

    def lookup(self, key: str) -> VocabularyEntry | None:
        return self.by_key.get(key)

    def broader_of(self, key: str) -> VocabularyEntry | None:
        entry = self.entries.get(key)
        if entry is None or entry.broader is None:
            return None
        return self.entries.get(phrase_key(entry.broader))


def _read(path: Path, text: str) -> Vocabulary:
    vocab = Vocabulary()
    for number, line in enumerate(text.splitlines(), start=1):
        if not line.strip() or line.lstrip().startswith("#"):
            continue
        try:
            obj = json.loads(line)
            name = obj["name"]
            entry = VocabularyEntry(
                name=name,
                key=phrase_key(name),
                aliases=tuple(obj.get("aliases", [])),
                broader=obj.get("broader"),
                context=tuple(c.lower() for c in obj.get("context", [])),
                case_sensitive=bool(obj.get("case_sensitive", False)),
            )
        except (ValueError, KeyError, TypeError) as exc:
            raise ExtractionError(f"{path}:{number}: bad vocabulary entry ({exc})") from exc
        vocab.add(entry)
    for entry in vocab.entries.values():
        if entry.broader and phrase_key(entry.broader) not in vocab.entries:
            raise ExtractionError(f"{path}: {entry.name!r} names an unknown broader concept {entry.broader!r}")
    return vocab


@lru_cache(maxsize=4)
def load_vocabulary(path: str | None = None) -> Vocabulary:
    """The vocabulary shipped with kg, or one from ``path``."""
    if path is None:
        resource = resources.files("kg.extract") / "data" / "vocabulary.jsonl"
        return _read(Path(str(resource)), resource.read_text(encoding="utf-8"))
    return _read(Path(path), Path(path).read_text(encoding="utf-8"))


def choose_short(entries: list[VocabularyEntry], text_lower: str) -> VocabularyEntry | None:
    """Pick the vocabulary sense of a short form, by its context words in the document."""
    best, best_hits = None, 0
    for entry in entries:
        if not entry.context:
            if len(entries) == 1:
                return entry
            continue
        hits = sum(1 for c in entry.context if c in text_lower)
        if hits > best_hits:
            best, best_hits = entry, hits
    return best
