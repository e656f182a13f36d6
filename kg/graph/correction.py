"""A user's correction of who is who, as the stores write it: authorships moved, counts changed, ids re-pointed.

``kg.authors.corrections`` works one out from store reads (``kg authors merge`` /
``split``); a store applies it in the same all-or-nothing write as an ingest's
batch (``GraphBatch.correction``) and keeps ``record``, what the user asked.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from kg.models import Author

__all__ = ["PeopleCorrection"]


@dataclass(slots=True)
class PeopleCorrection:
    record: dict  # what the user asked, kept in the store: kind, ids, papers, when
    moves: list[tuple[str, str, str, str]] = field(default_factory=list)  # paper id, from key, to key, why
    people: list[Author] = field(default_factory=list)  # the people it changes, profiles as they now stand
    removed: list[tuple[str, str, str]] = field(default_factory=list)  # key merged away, the key it now means, its block
    coauthors: dict[tuple[str, str], int] = field(default_factory=dict)  # (a, b) a < b -> change in joint papers
    affiliated: dict[tuple[str, str], int] = field(default_factory=dict)  # (author, institution) -> change in papers
    ids: dict[str, str] = field(default_factory=dict)  # source author id -> the person it names now

    def to_json(self) -> dict:
        return {
            "record": self.record,
            "moves": [list(m) for m in self.moves],
            "people": [[a.key, a.name, a.block, a.profile] for a in self.people],
            "removed": [list(r) for r in self.removed],
            "coauthors": [[a, b, n] for (a, b), n in sorted(self.coauthors.items())],
            "affiliated": [[a, i, n] for (a, i), n in sorted(self.affiliated.items())],
            "ids": self.ids,
        }

    @classmethod
    def from_json(cls, d: dict) -> "PeopleCorrection":
        return cls(
            d["record"],
            [tuple(m) for m in d["moves"]],
            [Author(*a) for a in d["people"]],
            [tuple(r) for r in d["removed"]],
            {(a, b): n for a, b, n in d["coauthors"]},
            {(a, i): n for a, i, n in d["affiliated"]},
            dict(d["ids"]),
        )
