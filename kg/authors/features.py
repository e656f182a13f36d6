"""The pairwise features: one mention against one known person's profile.

Each feature says something a person reading the two bylines would weigh: the
given names, the co-authors they share, the place, the topics (kg's concepts, and
the papers' topic vectors), the venue and the years between them, and how crowded
the name is (how often kg saw it, and how often the literature prints its surname,
its first name and the two together).
"""

from __future__ import annotations

import gzip
import json
import math
from functools import lru_cache
from pathlib import Path

from kg.authors.names import (
    NAME_CONFLICT,
    NAME_EXACT,
    NAME_FULL,
    NAME_INITIAL,
    ParsedName,
    given_compatibility,
    prints_umlaut,
    umlaut_level,
    written_both_ways,
)

__all__ = [
    "FEATURES",
    "features",
    "topic_cosine",
    "name_level",
    "spelling_levels",
    "coauthor_block",
    "name_counts",
    "commonness",
    "NAME_COUNTS",
]

FEATURES = (
    "name_exact",
    "name_full",
    "name_initial",
    "mention_initials",
    "person_initials_only",
    "shared_coauthors",
    "any_shared_coauthor",
    "shared_coauthor_blocks",
    "shared_block_share",
    "no_coauthors",
    "affiliation_same",
    "affiliation_other",
    "concept_cosine",
    "shared_concepts",
    "venue_same",
    "year_gap",
    "person_papers",
    "name_mentions",
    "block_mentions",
    "coauthor_x_initial",
    "concepts_x_common",
    "surname_count",
    "given_count",
    "coauthors_x_common",
    "full_count",
    "full_x_shared",
    "topic_cosine",
    "topic_x_common",
)

NAME_COUNTS = Path(__file__).with_name("data") / "name_counts.json.gz"


@lru_cache(maxsize=1)
def name_counts() -> tuple[dict, dict, dict]:
    """How many authorships of the literature carry each surname, each first given name, and each first given
    name with its surname (folded; names, never people): how common a name is before kg has seen its bearers
    (``python -m kg.training.authors --name-counts``)."""
    if not NAME_COUNTS.exists():
        return {}, {}, {}
    with gzip.open(NAME_COUNTS, "rt", encoding="utf-8") as f:
        d = json.load(f)
    return d["surnames"], d["given"], d.get("full", {})


def commonness(name: ParsedName) -> tuple[float, float, float]:
    surnames, given, full = name_counts()
    first = name.given[0] if name.given and len(name.given[0]) > 1 else ""
    return (
        math.log1p(surnames.get(name.surname, 0)),
        math.log1p(given.get(first, 0)) if first else 0.0,
        math.log1p(full.get(f"{first} {name.surname}", 0)) if first else 0.0,
    )


def coauthor_block(full: str) -> str:
    """A co-author's folded full name as its block (surname and first initial): robust to their own variants."""
    parts = full.split()
    return f"{parts[-1]} {parts[0][0]}" if len(parts) > 1 else full


def spelling_levels(name: ParsedName, variants, written: tuple[str, ...] = ()):
    """How a name agrees with each spelling a person has used, in order (``given_compatibility``; 0: a conflict).

    A given name with its umlaut written out fits the folded one (*Juergen*, *Jürgen*) when the umlaut was printed:
    in one of ``written`` (the names as written: the mention's, the person's), or among the person's spellings, which
    hold the name both ways. Else *Michael* would fit *Michal*. Whether it was printed is asked only of a pair that
    an umlaut would join, which few are."""
    printed = None
    for given in variants:
        spelling = tuple(given.split())
        fit = given_compatibility(name.units, spelling)
        if not fit and (spelled := umlaut_level(name.units, spelling)):
            if printed is None:
                printed = any(prints_umlaut(w) for w in written) or written_both_ways(variants)
            fit = spelled if printed else NAME_CONFLICT
        yield fit


def name_level(name: ParsedName, variants, written: tuple[str, ...] = ()) -> int:
    """The weakest agreement between a name and every spelling a person has used (0: some conflict;
    ``spelling_levels``)."""
    level = NAME_EXACT
    for fit in spelling_levels(name, variants, written):
        level = min(level, fit)
        if not level:
            return 0
    return level


def features(
    mention,
    profile,
    level: int,
    name_mentions: int,
    block_mentions: int,
    mention_blocks: frozenset,
    profile_blocks: set,
    concept_norm: float,
) -> list[float]:
    """The feature vector (``FEATURES`` order) of ``mention`` against ``profile``.

    ``level`` is ``name_level`` of the two; ``name_mentions`` and ``block_mentions`` how often the name
    and the block were seen before (how common the name is, whoever its bearers); ``concept_norm`` the
    length of the profile's concept counts.
    """
    shared = sum(1 for c in mention.coauthors if c in profile.coauthors)
    shared_blocks = len(mention_blocks & profile_blocks)
    n_co = len(mention.coauthors)
    aff = mention.affiliation
    aff_same = 1.0 if aff and aff in profile.affiliations else 0.0
    aff_other = 1.0 if aff and profile.affiliations and not aff_same else 0.0
    overlap = [profile.concepts[c] for c in mention.concepts if c in profile.concepts]
    cosine = sum(overlap) / (concept_norm * math.sqrt(len(mention.concepts))) if overlap else 0.0
    gap = min(abs(mention.year - y) for y in profile.years) if mention.year and profile.years else 3
    initial = 1.0 if level == NAME_INITIAL else 0.0
    surname_count, given_count, full_count = commonness(mention.name)
    topic = topic_cosine(mention.topic, profile.topic)
    return [
        1.0 if level == NAME_EXACT else 0.0,
        1.0 if level == NAME_FULL else 0.0,
        initial,
        1.0 if mention.name.initials_only else 0.0,
        1.0 if all(len(g) <= 1 or all(len(t) == 1 for t in g.split()) for g in profile.names) else 0.0,
        math.log1p(shared),
        1.0 if shared else 0.0,
        math.log1p(shared_blocks),
        shared_blocks / n_co if n_co else 0.0,
        0.0 if n_co else 1.0,
        aff_same,
        aff_other,
        cosine,
        math.log1p(len(overlap)),
        1.0 if mention.venue and mention.venue in profile.venues else 0.0,
        math.log1p(min(gap, 20)),
        math.log1p(profile.papers),
        math.log1p(name_mentions),
        math.log1p(block_mentions),
        initial * math.log1p(shared_blocks),
        cosine * math.log1p(name_mentions),
        surname_count,
        given_count,
        math.log1p(shared) * (surname_count + given_count),
        full_count,
        math.log1p(shared) * full_count,
        topic,
        topic * math.log1p(name_mentions),
    ]


def topic_cosine(a, b) -> float:
    """The cosine of a paper's topic vector and a profile's sum of them (0 when either has none)."""
    if not a or not b:
        return 0.0
    dot = sum(x * y for x, y in zip(a, b))
    na, nb = math.sqrt(sum(x * x for x in a)), math.sqrt(sum(y * y for y in b))
    return dot / (na * nb) if na and nb else 0.0
