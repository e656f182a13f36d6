"""People by name, each with what tells them apart (their profile's places, years, venues and concepts)."""

from __future__ import annotations

import difflib
from dataclasses import dataclass

from kg.authors.features import name_level, spelling_levels
from kg.authors.names import NAME_EXACT, fold, parse_name, spelled_surname, twin_blocks
from kg.authors.profile import Profile
from kg.graph.identity import author_key, clean_author_name
from kg.models import Author
from kg.readers.formats import dblp_author_ids

__all__ = [
    "close_people",
    "NameLookup",
    "PersonHint",
    "hints",
    "name_lookup",
    "people_named",
    "person_hints",
    "resolve",
    "resolve_in",
    "settled",
]


@dataclass(frozen=True, slots=True)
class PersonHint:
    """One person and what tells them apart from others of their name."""

    author: Author
    papers: int
    affiliations: tuple[str, ...]  # most papers first
    years: tuple[int, int] | None  # first and last
    venues: tuple[str, ...]  # venue series, most papers first
    concepts: tuple[str, ...]  # concept names, most papers first

    def describe(self) -> str:
        """One line: ``ETH Zurich; icra, iros; 2010–2015; legged robot, model predictive control; 12 papers``."""
        parts = [
            ", ".join(self.affiliations),
            ", ".join(self.venues),
            f"{self.years[0]}–{self.years[1]}" if self.years else "",
            ", ".join(self.concepts),
            f"{self.papers} paper{'s' if self.papers != 1 else ''}",
        ]
        return "; ".join(p for p in parts if p)


def _name_of(ref: str) -> str:
    """A name, or a person's id (``yang liu~2``) without its number."""
    base, tilde, n = ref.rpartition("~")
    return base if tilde and n.isdigit() else ref


def _block_of(ref: str) -> str | None:
    """The block a name, or a person's id (``yang liu~2``), falls in."""
    parsed = parse_name(_name_of(ref))
    return parsed.block if parsed else None


def _named(rows, name: str) -> list:
    """The rows (key, name, profile) of people who used this spelling, else whose names it fits; most papers first."""
    parsed = parse_name(name)
    if parsed is None:
        return []
    exact = [r for r in rows if NAME_EXACT in spelling_levels(parsed, r[2].names, (name, r[1]))]  # Jürgen finds Juergen
    found = exact or [r for r in rows if name_level(parsed, r[2].names, (name, r[1]))]
    return sorted(found, key=lambda r: (-r[2].papers, r[0]))


@dataclass(frozen=True, slots=True)
class NameLookup:
    """What reading the people a name may mean takes: its blocks (its own, and a German surname's twins)."""

    ref: str
    block: str
    blocks: tuple[str, ...]
    surname: str | None  # the surname as spelled, when twins are read: Kroemer finds a Krömer, never a Kromer


def name_lookup(ref: str) -> NameLookup | None:
    """The blocks to read for a name or a person's id; None for a name that parses to nothing."""
    name = _name_of(ref)
    parsed = parse_name(name)
    if parsed is None:
        return None
    twins = twin_blocks(name)
    return NameLookup(ref, parsed.block, (parsed.block, *twins), spelled_surname(name) if twins else None)


def resolve_in(lookup: NameLookup, people) -> tuple[str | None, list]:
    """``resolve``'s answer from the people of the lookup's blocks (``store.people_in_blocks`` rows)."""
    rows = [(key, n, Profile.decode(p)) for key, n, b, p in people if b == lookup.block or spelled_surname(n) == lookup.surname]
    ref = lookup.ref
    return (ref if any(key == ref for key, _, _ in rows) else None), _named(rows, ref)


def settled(ref: str, exact: str | None, found: list) -> str | None:
    """The id a name's lookup (``resolve``) settles on with no more reads: the id it names exactly, else the one
    person who bears the name, else (no one) the name's key. None when more must be read: a reference spelled
    as an id may be one merged away, and several people of the name need telling apart."""
    if exact is not None:
        return exact
    if ref == author_key(ref) or len(found) > 1:
        return None
    return found[0][0] if found else author_key(ref)


def resolve(store, ref: str, *, heads: bool = False) -> tuple[str | None, list]:
    """(the id ``ref`` names exactly, else None; the people whose names ``ref`` fits): one read of its block
    (and of a German surname's twin: *Kroemer* finds a *Krömer*). With ``heads`` only the head of each profile is
    read (papers and given names: what resolving needs, not what tells people apart).

    A name with dblp's number (*Wei Wang 0010*) names the person with that dblp id, when the store has one;
    else it is read as the name without its number."""
    dblp = dblp_author_ids([ref])
    if dblp is not None:
        ref = clean_author_name(ref)
        key = store.author_keys_of_ids([dblp[0]]).get(dblp[0])
        if key is not None:
            _, found = resolve(store, key, heads=heads)
            return key, [r for r in found if r[0] == key] or found
    lookup = name_lookup(ref)
    if lookup is None:
        return None, []
    return resolve_in(lookup, store.people_in_blocks(list(lookup.blocks), heads=heads))


def close_people(store, name: str, limit: int) -> list[Author]:
    """People whose names are nearest to one no one bears ("did you mean"), nearest first: those of its name blocks
    (an initial, a given name misspelled), those any of its words begins a word of (accents and case folded: the
    store's ``suggest``), and those whose id holds one of its words; by the likeness of their folded names, word
    order aside (*Lin Wei* is near *Wei Lin*)."""
    words = fold(name).split()
    if not words:
        return []
    seen: dict[str, Author] = {}
    lookup = name_lookup(name)
    if lookup is not None:
        for key, n, _, _ in store.people_in_blocks(list(lookup.blocks), heads=True):
            seen.setdefault(key, Author(key, n))
    for word in sorted(set(words), key=len, reverse=True):
        for s in store.suggest(word, 50):
            if s.kind == "author":
                seen.setdefault(s.key, Author(s.key, s.label))
        for a in store.find_authors(word, 0, 50).items:
            seen.setdefault(a.key, a)
    wanted = " ".join(sorted(words))

    def nearness(a: Author) -> float:
        return difflib.SequenceMatcher(None, wanted, " ".join(sorted(fold(a.name or a.key).split()))).ratio()

    return sorted(seen.values(), key=lambda a: (-nearness(a), a.key))[:limit]


def person_hints(store, keys: list[str], *, top: int = 3) -> dict[str, PersonHint]:
    """What tells each of these people apart (people kg knew before people, without a profile, are left out)."""
    wanted = set(keys)
    blocks = sorted({b for k in keys if (b := _block_of(k))})
    rows = [(key, n, Profile.decode(p)) for key, n, _, p in store.people_in_blocks(blocks) if key in wanted]
    return {h.author.key: h for h in hints(store, rows, top)}


def people_named(store, name: str, *, top: int = 3) -> list[PersonHint]:
    """Every person who has used this spelling of a name (else whose names it fits), most papers first."""
    return hints(store, resolve(store, name)[1], top)


def hints(store, found: list, top: int = 3) -> list[PersonHint]:
    """The hints of ``resolve``'s rows (one read of concept names for all of them)."""
    keys = sorted({c for _, _, p in found for c, _ in p.concepts.most_common(top)})
    names = {k: c.name for k, c in zip(keys, store.concepts_by_keys(keys)) if c is not None}
    return [
        PersonHint(
            Author(key, n),
            p.papers,
            tuple(a for a, _ in p.affiliations.most_common(top)),
            (min(p.years), max(p.years)) if p.years else None,
            tuple(v for v, _ in p.venues.most_common(top)),
            tuple(names.get(c, c) for c, _ in p.concepts.most_common(top)),
        )
        for key, n, p in found
    ]
