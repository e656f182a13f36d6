"""Mentions to people, one paper at a time: the known person the model finds most likely, or someone new.

The assignment is online: a mention is compared with the people its block holds
so far (their profiles), joins the most likely one when the learned model says
so, and updates that person's profile; else it starts a new person. Adding
papers therefore never re-clusters the store, and an author's key never changes.
"""

from __future__ import annotations

import json
import math
from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path

from kg.authors.features import FEATURES, coauthor_block, commonness, features, name_level
from kg.authors.names import ParsedName, fold, parse_name, run_together, spelled_surname, twin_blocks
from kg.authors.profile import Profile, venue_series
from kg.extract.topics import decode
from kg.graph.identity import author_key, clean_author_name

__all__ = [
    "Mention",
    "mention_of",
    "stored_topic",
    "PairModel",
    "load_model",
    "Person",
    "Block",
    "People",
    "Assigner",
    "Decision",
    "explain",
]

MODEL_PATH = Path(__file__).with_name("data") / "model.json"


@dataclass(frozen=True, slots=True)
class Mention:
    """One name on one paper's byline, with what the paper says about its bearer."""

    paper: str
    position: int
    written: str  # the display name as written (cleaned)
    name: ParsedName
    coauthors: tuple[str, ...]  # the other names on the byline, folded
    affiliation: str | None
    venue: str
    year: int | None
    concepts: tuple[str, ...]
    source_id: str | None = None
    topic: tuple[int, ...] | None = None  # the paper's topic vector as stored (signed bytes; kg.extract.topics)

    @property
    def block(self) -> str:
        return self.name.block

    @property
    def twins(self) -> tuple[str, ...]:
        """The blocks where the same surname, its umlauts written another way, sits (``twin_blocks``)."""
        return twin_blocks(self.written)


def stored_topic(signature: str | None) -> tuple[int, ...] | None:
    """A paper's topic vector as its signature stores it (signed bytes, ``kg.extract.topics``): integers, so that a
    profile's sum of them is exact in any order and engine; None for a paper without one."""
    vector = decode(signature)
    return None if vector is None else tuple(int(v) for v in vector)


def coauthor_names(names: Iterable[str]) -> list[str | None]:
    """Each byline name as a mention's co-authors hold it (its folded full name; None for a name without letters)."""
    return [p.full if (p := parse_name(clean_author_name(n))) is not None else None for n in names]


def mention_of(
    paper: str,
    position: int,
    name: str,
    coauthors: Iterable[str | None],
    affiliation: str | None,
    venue: str | None,
    year: int | None,
    concepts: Sequence[str],
    source_id: str | None = None,
    topic: tuple[int, ...] | None = None,
) -> Mention | None:
    """The mention of ``name`` at ``position`` of a paper's byline (None for a name without letters);
    ``coauthors`` are the byline's other names as ``coauthor_names`` folds them (fold a byline once,
    then take each mention's others from it)."""
    written = clean_author_name(name)
    parsed = parse_name(written)
    if parsed is None:
        return None
    place = " ".join(fold(affiliation).split()) if affiliation else None
    return Mention(
        paper,
        position,
        written,
        parsed,
        tuple(dict.fromkeys(o for o in coauthors if o is not None)),
        place or None,
        venue_series(venue),
        year,
        tuple(concepts),
        source_id or None,
        topic,
    )


@dataclass(frozen=True, slots=True)
class PairModel:
    """A logistic model over ``FEATURES``: the probability that a mention is a known person."""

    mean: tuple[float, ...]
    scale: tuple[float, ...]
    coef: tuple[float, ...]
    intercept: float
    threshold: float
    # a name the literature prints often (its first given name with its surname on at least ``common_count``
    # authorships of the training venues) needs this probability instead: more evidence, as more people bear it
    common_threshold: float | None = None
    common_count: int = 0

    def threshold_for(self, name: ParsedName) -> float:
        """The probability a mention of this name needs to join a known person."""
        if self.common_threshold is None or commonness(name)[2] < math.log1p(self.common_count):
            return self.threshold
        return self.common_threshold

    def probability(self, x: Sequence[float]) -> float:
        z = self.intercept + sum(c * (v - m) / s for c, v, m, s in zip(self.coef, x, self.mean, self.scale))
        return 1.0 / (1.0 + math.exp(-max(-30.0, min(30.0, z))))

    def probabilities(self, xs: Sequence[Sequence[float]]) -> list[float]:
        return [self.probability(x) for x in xs]

    def to_json(self, **extra) -> dict:
        return {
            "features": list(FEATURES),
            "mean": list(self.mean),
            "scale": list(self.scale),
            "coef": list(self.coef),
            "intercept": self.intercept,
            "threshold": self.threshold,
            **({"common_threshold": self.common_threshold, "common_count": self.common_count} if self.common_threshold else {}),
            **extra,
        }

    @classmethod
    def from_json(cls, d: dict) -> "PairModel":
        if d["features"] != list(FEATURES):
            raise ValueError("the author model was trained on other features: retrain it (python -m kg.training.authors)")
        return cls(
            tuple(d["mean"]),
            tuple(d["scale"]),
            tuple(d["coef"]),
            d["intercept"],
            d["threshold"],
            d.get("common_threshold"),
            d.get("common_count", 0),
        )


@lru_cache(maxsize=4)
def load_model(path: str | None = None) -> PairModel:
    with open(path or MODEL_PATH, encoding="utf-8") as f:
        return PairModel.from_json(json.load(f))


@dataclass(slots=True)
class Person:
    key: str
    name: str
    block: str
    profile: Profile
    _blocks: set | None = None
    _norm: float | None = None

    def coauthor_blocks(self) -> set:
        if self._blocks is None:
            self._blocks = {coauthor_block(c) for c in self.profile.coauthors}
        return self._blocks

    def concept_norm(self) -> float:
        if self._norm is None:
            self._norm = math.sqrt(sum(v * v for v in self.profile.concepts.values()))
        return self._norm

    def add(self, mention: Mention) -> None:
        self.profile.add(mention)
        if self._blocks is not None:
            self._blocks.update(coauthor_block(c) for c in mention.coauthors)
        self._norm = None


@dataclass(slots=True)
class Block:
    """The people of one block, and how often each spelling of its names was seen (whoever bore it)."""

    people: list[Person] = field(default_factory=list)
    spellings: Counter = field(default_factory=Counter)  # given names run together -> mentions
    mentions: int = 0

    def join(self, person: Person) -> None:
        self.people.append(person)
        for given, n in person.profile.names.items():
            self.spellings[run_together(given.split())] += n
            self.mentions += n

    def saw(self, mention: Mention) -> None:
        self.spellings[mention.name.joined] += 1
        self.mentions += 1

    def pairs(self, mention: Mention, people: Iterable[tuple[Person, int]]):
        """(person, features) for each (person, name level) against ``mention``."""
        blocks = frozenset(coauthor_block(c) for c in mention.coauthors)
        seen = self.spellings[mention.name.joined]
        for person, level in people:
            yield (
                person,
                features(
                    mention, person.profile, level, seen, self.mentions, blocks, person.coauthor_blocks(), person.concept_norm()
                ),
            )


@dataclass(frozen=True, slots=True)
class Decision:
    """Where a mention went and why: the person, the model's probability (None for a new person or a source id)."""

    mention: Mention
    person: Person
    probability: float | None
    reason: str  # "model" | "new" | "source id"
    why: str = ""  # in words: what decided it


class People:
    """The known people by block: read from a store on first need, then kept up to date in memory.

    ``store`` answers ``people_in_blocks``, ``author_keys_of_ids`` and ``authors_by_keys``
    (``kg.store.base.Store``); without one, everyone is new.
    """

    def __init__(self, store=None) -> None:
        self.store = store
        self.blocks: dict[str, Block] = {}
        self.by_key: dict[str, Person] = {}
        self.ids: dict[str, str] = {}
        self.taken: set[str] = set()  # keys in use

    def prepare(self, mentions: Iterable[Mention]) -> None:
        """Read the people of every block these mentions fall in, the source ids they carry and the keys
        their names would take (one read each)."""
        mentions = list(mentions)
        # (a comprehension, not a set minus the keys: that walks every block known, at each paper)
        blocks = sorted({b for m in mentions for b in (m.block, *m.twins) if b not in self.blocks})
        for b in blocks:
            self.blocks[b] = Block()
        if self.store is None:
            return
        if blocks:
            for key, name, block, profile in self.store.people_in_blocks(blocks):
                self._join(Person(key, name, block, Profile.decode(profile)))
            self.taken.update(self.store.author_aliases(blocks=blocks))  # ids merged into others stay theirs
        wanted = sorted({m.source_id for m in mentions if m.source_id and m.source_id not in self.ids})
        if wanted:
            self.ids.update(self.store.author_keys_of_ids(wanted))
            # a person an id names may sit in another block (a spelling of theirs kg has not seen): read that block too
            elsewhere = sorted({self.ids[i] for i in wanted if i in self.ids} - self.by_key.keys())
            more = {p.block for a in self.store.authors_by_keys(elsewhere) if a is not None and (p := parse_name(a.name))}
            for key, name, block, profile in self.store.people_in_blocks(sorted(b for b in more if b not in self.blocks)):
                self._join(Person(key, name, block, Profile.decode(profile)))
        bases = sorted({author_key(m.written) for m in mentions} - self.taken)
        if bases:  # authors a store holds from before people (no block)
            self.taken.update(a.key for a in self.store.authors_by_keys(bases) if a is not None)

    def as_stored(self) -> None:
        """Every person's profile as a store gives it back (``encode`` cuts long lists): what the ingest of the
        next chunk reads, so that an engine that keeps people in memory across chunks (Spark) sees the same."""
        for block in self.blocks.values():
            for person in block.people:
                person.profile = Profile.decode(person.profile.encode())
                person._blocks = person._norm = None

    def _join(self, person: Person) -> None:
        self.blocks.setdefault(person.block, Block()).join(person)
        self.by_key[person.key] = person
        self.taken.add(person.key)
        self.ids.update((i, person.key) for i in person.profile.ids)

    def new(self, mention: Mention) -> Person:
        base = author_key(mention.written)
        key, n = base, 1
        while key in self.taken:
            n += 1
            key = f"{base}~{n}"
        person = Person(key, mention.written, mention.block, Profile(), _blocks=set())
        self.blocks.setdefault(mention.block, Block()).people.append(person)
        self.by_key[key] = person
        self.taken.add(key)
        return person


def _scheme(source_id: str) -> str:
    return source_id.split(":", 1)[0]


class Assigner:
    """Assigns each paper's mentions, in byline order, with one model and one set of people."""

    def __init__(self, people: People, model: PairModel | None = None) -> None:
        self.people = people
        self.model = model or load_model()

    def candidates(self, mention: Mention, on_paper: set[str]):
        """The block's people the name fits and no source id rules out: (person, name level). The people of a
        twin block (*Krömer* for *Kroemer*) count when their surname is the mention's, umlauts written out; a given
        name's umlaut written out (*Juergen* for *Jürgen*) fits when the mention or the person's name prints it."""
        schemes = {_scheme(mention.source_id)} if mention.source_id else set()
        for person in self._people_of(mention):
            if person.key in on_paper:
                continue
            if schemes and any(_scheme(i) in schemes for i in person.profile.ids):
                continue  # another id of the same system: another person
            level = name_level(mention.name, person.profile.names, (mention.written, person.name))
            if level:
                yield person, level

    def _people_of(self, mention: Mention):
        block = self.people.blocks.get(mention.block)
        yield from block.people if block else ()
        twins = mention.twins
        surname = spelled_surname(mention.written) if twins else None
        for twin in twins:
            block = self.people.blocks.get(twin)
            yield from (p for p in (block.people if block else ()) if spelled_surname(p.name) == surname)

    def assign(self, mentions: Sequence[Mention]) -> list[Decision]:
        """One paper's mentions (the caller has ``prepare``d their blocks)."""
        on_paper: set[str] = set()
        out = []
        for m in mentions:
            decision = self._one(m, on_paper)
            decision.person.add(m)
            self.people.blocks[m.block].saw(m)
            if m.source_id:
                self.people.ids.setdefault(m.source_id, decision.person.key)
            on_paper.add(decision.person.key)
            out.append(decision)
        return out

    def _one(self, m: Mention, on_paper: set[str]) -> Decision:
        if m.source_id and (key := self.people.ids.get(m.source_id)) and key not in on_paper:
            person = self.people.by_key.get(key)
            if person is not None:
                return Decision(m, person, None, "source id", f"the source id {m.source_id}")
        best, best_p = None, -1.0
        pairs = list(self.people.blocks[m.block].pairs(m, self.candidates(m, on_paper)))
        if pairs:
            for (person, _), p in zip(pairs, self.model.probabilities([x for _, x in pairs])):
                if p > best_p or (p == best_p and person.key < best.key):  # a tie goes to the smaller key, in any order
                    best, best_p = person, p
        threshold = self.model.threshold_for(m.name)
        if best is not None and best_p >= threshold:
            return Decision(m, best, best_p, "model", explain(m, best.profile, best_p))
        why = (
            f"someone new: the likeliest known {best.name} ({best.key}) scored {best_p:.2f}, under {threshold:g}"
            if best is not None
            else f"someone new: no one kg knew bears a name that fits {m.written}"
        )
        return Decision(m, self.people.new(m), None, "new", why)


def explain(m: Mention, profile: Profile, probability: float) -> str:
    """Why a mention is a known person, in words: what the two share (co-authors, place, concepts, venue, years)."""
    shared = [c.title() for c in m.coauthors if c in profile.coauthors][:3]
    concepts = [c for c in m.concepts if c in profile.concepts][:3]
    gap = min(abs(m.year - y) for y in profile.years) if m.year and profile.years else None
    parts = [
        f"co-authors {', '.join(shared)}" if shared else "",
        f"affiliation {m.affiliation}" if m.affiliation and m.affiliation in profile.affiliations else "",
        f"concepts {', '.join(concepts)}" if concepts else "",
        f"venue {m.venue}" if m.venue and m.venue in profile.venues else "",
        f"{gap} year{'s' if gap != 1 else ''} from their nearest paper" if gap is not None else "",
    ]
    found = "; ".join(p for p in parts if p) or "a fitting name and nothing against it"
    return (
        f"the same person as on {profile.papers} earlier paper{'s' if profile.papers != 1 else ''} (p={probability:.2f}): {found}"
    )
