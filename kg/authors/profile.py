"""What a person's papers say about them: the spellings, co-authors, places, venues, years, concepts and topics.

A profile is all the pairwise model needs to compare a new mention with a known
person, so adding papers reads profiles, not papers. Stores keep it on the
author as compact JSON (``encode``/``decode``).
"""

from __future__ import annotations

import json
import re
from collections import Counter
from dataclasses import dataclass, field

__all__ = ["Profile", "venue_series", "without_year"]

MAX_CONCEPTS = 60  # a profile keeps its person's most frequent concepts
MAX_COAUTHORS = 300


def without_year(venue: str | None) -> str:
    """A venue as written, without its year: ``ICRA 2021`` -> ``ICRA``.

    >>> without_year("NeurIPS 2023 Datasets and Benchmarks")
    'NeurIPS Datasets and Benchmarks'
    """
    return " ".join(w for w in (venue or "").split() if not re.fullmatch(r"\d{4}", w))


def venue_series(venue: str | None) -> str:
    """A venue without its year, case folded: ``ICRA 2021`` -> ``icra``.

    >>> venue_series("NeurIPS 2023 Datasets and Benchmarks")
    'neurips datasets and benchmarks'
    """
    return without_year(venue).casefold()


def _ranked(counts: Counter, limit: int | None = None) -> dict:
    return dict(sorted(counts.items(), key=lambda kv: (-kv[1], kv[0]))[:limit])


HEAD_END = ',"co":'  # where an encoded profile's head (papers, given names) ends: see ``Profile.head``


@dataclass(slots=True)
class Profile:
    """Counts over one person's mentions (``papers`` of them)."""

    papers: int = 0
    names: Counter = field(default_factory=Counter)  # folded given names as written ("michael j", "m")
    coauthors: Counter = field(default_factory=Counter)  # co-authors' folded full names
    affiliations: Counter = field(default_factory=Counter)
    venues: Counter = field(default_factory=Counter)
    years: Counter = field(default_factory=Counter)
    concepts: Counter = field(default_factory=Counter)
    ids: list = field(default_factory=list)  # source author ids (hard evidence)
    topic: list = field(default_factory=list)  # the sum of the papers' stored topic vectors (empty in a profile from before)

    def add(self, mention) -> None:
        self.papers += 1
        self.names[" ".join(mention.name.units)] += 1
        self.coauthors.update(mention.coauthors)
        if mention.affiliation:
            self.affiliations[mention.affiliation] += 1
        if mention.venue:
            self.venues[mention.venue] += 1
        if mention.year:
            self.years[mention.year] += 1
        self.concepts.update(mention.concepts)
        if mention.source_id and mention.source_id not in self.ids:
            self.ids.append(mention.source_id)
        self._add_topic(mention.topic)

    def merge(self, other: "Profile") -> None:
        self.papers += other.papers
        for mine, theirs in (
            (self.names, other.names),
            (self.coauthors, other.coauthors),
            (self.affiliations, other.affiliations),
            (self.venues, other.venues),
            (self.years, other.years),
            (self.concepts, other.concepts),
        ):
            mine.update(theirs)
        self.ids.extend(i for i in other.ids if i not in self.ids)
        self._add_topic(other.topic)

    def _add_topic(self, topic) -> None:
        """Another topic vector (or sum of them) into the person's sum; none adds nothing."""
        if topic:
            self.topic = [a + b for a, b in zip(self.topic, topic)] if self.topic else list(topic)

    def encode(self) -> str:
        """Canonical JSON (most first, then by key; co-authors and concepts cut to the most frequent): equal
        profiles encode alike, whichever order their papers came in."""
        return json.dumps(
            {
                "n": self.papers,
                "names": _ranked(self.names),
                "co": _ranked(self.coauthors, MAX_COAUTHORS),
                "aff": _ranked(self.affiliations),
                "venues": _ranked(self.venues),
                "years": {str(y): n for y, n in sorted(self.years.items())},
                "concepts": _ranked(self.concepts, MAX_CONCEPTS),
                "ids": self.ids,
                **({"topic": self.topic} if self.topic else {}),
            },
            ensure_ascii=False,
            separators=(",", ":"),
        )

    @staticmethod
    def head(text: str) -> str:
        """The head of an encoded profile, as valid JSON: its papers and given names, all a name's lookup needs
        (``encode`` writes them first, and a key outside a string is the only place ``,"co":`` can stand)."""
        if not text:
            return text
        cut = text.find(HEAD_END)
        return text if cut < 0 else text[:cut] + "}"

    @classmethod
    def decode(cls, text: str | None) -> "Profile":
        if not text:
            return cls()
        d = json.loads(text)
        if "co" not in d:  # a head (``head``): papers and given names
            return cls(d["n"], Counter(d["names"]))
        return cls(
            d["n"],
            Counter(d["names"]),
            Counter(d["co"]),
            Counter(d["aff"]),
            Counter(d["venues"]),
            Counter({int(y): n for y, n in d["years"].items()}),
            Counter(d["concepts"]),
            list(d["ids"]),
            list(d.get("topic", ())),
        )
