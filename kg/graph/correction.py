"""A user's corrections as the stores write them: of who is who (authorships moved, counts changed, ids re-pointed),
and of which records are one paper.

``kg.authors.corrections`` works one out from store reads (``kg authors merge`` /
``split``); a store applies it in the same all-or-nothing write as an ingest's
batch (``GraphBatch.correction``) and keeps ``record``, what the user asked.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from kg.models import Author, Paper, PaperSource

__all__ = ["PeopleCorrection", "PaperCorrection"]


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


@dataclass(slots=True)
class PaperCorrection:
    """A user's correction of which records are one paper, as the stores write it (``kg.works.corrections``).

    ``merge``: the paper ``removed`` is ``paper``: its keys, references, areas and title blocks move to ``paper``,
    its byline's counts go (the survivor keeps its own byline), and its node goes. ``split``: a source leaves
    ``paper`` (the keys only it gave are ``unlinked``); the ingest that writes the correction makes it a paper of
    its own. Either way ``paper`` is rewritten with its sources and the fields merged over them.
    """

    record: dict  # what the user asked, kept in the store: kind, ids, source, when
    paper: Paper  # the paper that stays, its fields merged anew
    sources: list[PaperSource] = field(default_factory=list)  # its sources, all of them
    removed: str | None = None  # merge: the paper merged away
    cites: list[tuple[str, int]] = field(default_factory=list)  # merge: the removed paper's references, renumbered
    authored: list[tuple[str, str]] = field(default_factory=list)  # merge: (author, removed paper) authorships that go
    coauthors: dict[tuple[str, str], int] = field(default_factory=dict)  # merge: (a, b) a < b -> change in joint papers
    affiliated: dict[tuple[str, str], int] = field(default_factory=dict)  # merge: (author, institution) -> change
    people_removed: list[str] = field(default_factory=list)  # merge: people left with no paper
    unlinked: list[str] = field(default_factory=list)  # split: keys ``paper`` is no longer known as
    unblocked: list[str] = field(default_factory=list)  # split: title blocks only the leaving source gave
    shared: list[str] = field(default_factory=list)  # split: keys the leaving source carries that ``paper`` keeps

    def to_json(self) -> dict:
        p = self.paper
        return {
            "record": self.record,
            "paper": [p.id, p.title, p.label, p.abstract, p.venue, p.year, p.authors_truncated, p.concept_norm, p.citations],
            "sources": [s.encode() for s in self.sources],
            "removed": self.removed,
            "cites": [list(c) for c in self.cites],
            "authored": [list(a) for a in self.authored],
            "coauthors": [[a, b, n] for (a, b), n in sorted(self.coauthors.items())],
            "affiliated": [[a, i, n] for (a, i), n in sorted(self.affiliated.items())],
            "people_removed": self.people_removed,
            "unlinked": self.unlinked,
            "unblocked": self.unblocked,
            "shared": self.shared,
        }

    @classmethod
    def from_json(cls, d: dict) -> "PaperCorrection":
        return cls(
            d["record"],
            Paper(*d["paper"]),
            [PaperSource.decode(s) for s in d["sources"]],
            d["removed"],
            [tuple(c) for c in d["cites"]],
            [tuple(a) for a in d["authored"]],
            {(a, b): n for a, b, n in d["coauthors"]},
            {(a, i): n for a, i, n in d["affiliated"]},
            list(d["people_removed"]),
            list(d["unlinked"]),
            list(d["unblocked"]),
            list(d.get("shared", ())),
        )
