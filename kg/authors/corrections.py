"""A user's corrections of who is who: two people who are one (merge), or one who is two (split).

Each works out, from store reads, the ``PeopleCorrection`` a store writes in one
all-or-nothing write: the authorships it moves, the co-author and affiliation
counts they carried, the profiles as they now stand and the source ids that
follow the papers. A merged id keeps resolving to the person it joined. Later
ingests respect a correction because the people stage reads the corrected
profiles and never re-clusters what it stored.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from datetime import datetime, timezone

from kg.authors.assign import People, coauthor_names, mention_of, stored_topic
from kg.authors.names import parse_name
from kg.authors.profile import Profile
from kg.errors import InvalidArgument
from kg.graph.correction import PeopleCorrection
from kg.graph.identity import make_institution
from kg.models import Author, Authorship

__all__ = ["merge", "split"]


def _now() -> str:
    return datetime.now(timezone.utc).isoformat(timespec="microseconds")


def _person(store, key: str) -> tuple[Author, Profile, str]:
    """A person by id (an id merged away means its survivor): (author, profile, block)."""
    key = store.author_aliases(keys=[key]).get(key, key)
    found = store.authors_by_keys([key])[0]
    if found is None:
        raise InvalidArgument(f"no person has the id {key!r}; `kg author NAME` lists the people of a name with their ids")
    parsed = parse_name(found.name)
    block = parsed.block if parsed else ""
    row = next((r for r in store.people_in_blocks([block]) if r[0] == key), None) if block else None
    return found, Profile.decode(row[3] if row else None), block


def _pair(a: str, b: str) -> tuple[str, str]:
    return (a, b) if a < b else (b, a)


def merge(store, keep: str, other: str) -> PeopleCorrection:
    """``other`` is ``keep``: every paper of ``other`` moves to ``keep``, whose id survives; ``other``'s id
    then resolves to ``keep``."""
    (kept, kept_profile, kept_block), (gone, gone_profile, gone_block) = _person(store, keep), _person(store, other)
    if kept.key == gone.key:
        raise InvalidArgument(f"{keep!r} and {other!r} are already one person ({kept.key})")
    kept_papers, gone_papers = ({p for p, _, _ in rows} for rows in store.authorships_of_authors([kept.key, gone.key]))
    both = sorted(kept_papers & gone_papers)
    if both:
        raise InvalidArgument(
            f"{kept.key} and {gone.key} are both on the byline of {both[0]}: two names on one paper "
            "are two people, so kg will not merge them"
        )
    why = f"moved from {gone.key} by a correction (kg authors merge {kept.key} {gone.key})"
    c = PeopleCorrection({"kind": "merge", "keep": kept.key, "other": gone.key, "papers": len(gone_papers), "at": _now()})
    c.moves = [(p, gone.key, kept.key, why) for p in sorted(gone_papers)]
    changes: Counter = Counter()
    for co in store.coauthors_of([gone.key])[0]:
        changes[_pair(gone.key, co.author_key)] -= co.joint_papers
        changes[_pair(kept.key, co.author_key)] += co.joint_papers
    c.coauthors = dict(changes)
    places: Counter = Counter()
    for institution, n in store.institutions_of_authors([gone.key])[0]:
        places[gone.key, institution.key] -= n
        places[kept.key, institution.key] += n
    c.affiliated = dict(places)
    kept_profile.merge(gone_profile)
    c.people = [Author(kept.key, kept.name, kept_block, kept_profile.encode())]
    c.removed = [(gone.key, kept.key, gone_block)]
    c.ids = {i: kept.key for i in gone_profile.ids}
    return c


def _profile_of(key: str, ships: dict[str, list[Authorship]], papers: dict) -> Profile:
    """A person's profile counted afresh from their papers (``ships``: each paper's byline; ``papers``: each
    paper, its concepts and its stored signature)."""
    profile = Profile()
    for pid in sorted(ships):
        (paper, concepts, signature), rows = papers[pid], ships[pid]
        folded = coauthor_names(r.name or r.author.name for r in rows)
        for i, row in enumerate(rows):
            if row.author.key == key:
                others = folded[:i] + folded[i + 1 :]
                m = mention_of(
                    paper.id,
                    row.position,
                    row.name or row.author.name,
                    others,
                    row.affiliation,
                    paper.venue,
                    paper.year,
                    [k.key for k in concepts],
                    row.source_id,
                    stored_topic(signature),
                )
                if m is not None:
                    profile.add(m)
    return profile


def _new_key(store, row: Authorship) -> tuple[str, str, str]:
    """(id, name, block) of a new person for this authorship's name, given as the people stage gives one."""
    mention = mention_of(row.paper_id, row.position, row.name or row.author.name, (), None, None, None, ())
    people = People(store)
    people.prepare([mention])
    person = people.new(mention)
    return person.key, person.name, person.block


def split(store, key: str, papers: Sequence[str], max_coauthor_byline: int) -> PeopleCorrection:
    """The papers ``papers`` of person ``key`` are someone else's: they move to a new person (a new id)."""
    person, _, block = _person(store, key)
    theirs = {p for p, _, _ in store.authorships_of_authors([person.key])[0]}
    moving = sorted(dict.fromkeys(papers))
    if not moving:
        raise InvalidArgument("kg authors split needs the papers to move (--papers ID ...)")
    missing = [p for p in moving if p not in theirs]
    if missing:
        raise InvalidArgument(
            f"{person.key} is not on the byline of {', '.join(missing[:5])}; `kg author {person.key}` lists their papers"
        )
    if len(moving) == len(theirs):
        raise InvalidArgument(f"those are all of {person.key}'s papers: a split leaves some with each person")
    ids = sorted(theirs)
    ships = dict(zip(ids, store.authorships_of_papers(ids), strict=True))
    signatures = store.topics_of_papers(ids)
    read = zip(store.papers_by_ids(ids), store.concepts_of_papers(ids), [signatures.get(i) for i in ids], strict=True)
    papers = dict(zip(ids, read, strict=True))
    new_key, written, new_block = _new_key(store, next(r for r in ships[moving[0]] if r.author.key == person.key))
    c = PeopleCorrection({"kind": "split", "from": person.key, "to": new_key, "papers": moving, "at": _now()})
    c.moves = [(p, person.key, new_key, f"moved from {person.key} by a correction (kg authors split)") for p in moving]
    pairs: Counter = Counter()
    places: Counter = Counter()
    for p in moving:
        byline = ships[p]
        others = {r.author.key for r in byline} - {person.key}
        if len(others) + 1 <= max_coauthor_byline:
            for other in others:
                pairs[_pair(person.key, other)] -= 1
                pairs[_pair(new_key, other)] += 1
        for r in byline:
            if r.author.key == person.key and r.affiliation and (inst := make_institution(r.affiliation)) is not None:
                places[person.key, inst.key] -= 1
                places[new_key, inst.key] += 1
    c.coauthors, c.affiliated = dict(pairs), dict(places)
    staying = {p: rows for p, rows in ships.items() if p not in set(moving)}
    moved = {
        p: [
            Authorship(
                r.paper_id,
                r.position,
                r.name,
                Author(new_key, r.author.name) if r.author.key == person.key else r.author,
                r.affiliation,
                r.source_id,
            )
            for r in ships[p]
        ]
        for p in moving
    }
    new_profile = _profile_of(new_key, moved, papers)
    c.people = [
        Author(person.key, person.name, block, _profile_of(person.key, staying, papers).encode()),
        Author(new_key, written, new_block, new_profile.encode()),
    ]
    kept_ids = {r.source_id for rows in staying.values() for r in rows if r.author.key == person.key}
    c.ids = {i: new_key for i in new_profile.ids if i not in kept_ids}
    return c
