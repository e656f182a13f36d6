"""People by name, each with what tells them apart (their profile's places, years, venues and concepts)."""

from __future__ import annotations

from dataclasses import dataclass

from kg.authors.features import name_level, spelling_levels
from kg.authors.names import NAME_EXACT, parse_name, spelled_surname, twin_blocks
from kg.authors.profile import Profile
from kg.graph.identity import clean_author_name
from kg.models import Author
from kg.readers.formats import dblp_author_ids

__all__ = ["PersonHint", "hints", "people_named", "person_hints", "resolve"]


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


def resolve(store, ref: str) -> tuple[str | None, list]:
    """(the id ``ref`` names exactly, else None; the people whose names ``ref`` fits): one read of its block
    (and of a German surname's twin: *Kroemer* finds a *Krömer*).

    A name with dblp's number (*Wei Wang 0010*) names the person with that dblp id, when the store has one;
    else it is read as the name without its number."""
    dblp = dblp_author_ids([ref])
    if dblp is not None:
        ref = clean_author_name(ref)
        key = store.author_keys_of_ids([dblp[0]]).get(dblp[0])
        if key is not None:
            _, found = resolve(store, key)
            return key, [r for r in found if r[0] == key] or found
    name = _name_of(ref)
    parsed = parse_name(name)
    if parsed is None:
        return None, []
    block, twins = parsed.block, twin_blocks(name)
    surname = spelled_surname(name) if twins else None
    rows = [
        (key, n, Profile.decode(p))
        for key, n, b, p in store.people_in_blocks([block, *twins])
        if b == block or spelled_surname(n) == surname  # Kroemer finds a Krömer, never a Kromer
    ]
    return (ref if any(key == ref for key, _, _ in rows) else None), _named(rows, ref)


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
