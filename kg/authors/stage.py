"""The people stage of an ingest: a name-keyed graph batch made person-keyed.

``build_batch`` keys each author by name and records each new paper's byline
(``GraphBatch.bylines``). This stage reads those bylines as mentions, in batch
order, assigns each to a person (``Assigner``) and rewrites the batch's authors,
authorships, co-author pairs, affiliations and source ids with the people's keys.
Both engines run it: the single-machine ingest per chunk, Spark per block
(blocks are independent, so grouping by block gives the same people).
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable, Mapping
from itertools import combinations

from kg.authors.assign import Assigner, Decision, Mention, coauthor_names, mention_of, stored_topic
from kg.graph.build import GraphBatch
from kg.graph.identity import make_author, make_institution
from kg.models import Author

__all__ = ["batch_mentions", "assign_in_order", "people_of", "rewrite"]

Order = tuple[int, int, int]  # chunk, paper index in its batch, byline position


def batch_mentions(batch: GraphBatch, chunk: int = 0, max_coauthor_byline: int = 100) -> list[tuple[Order, Mention]]:
    """The batch's new bylines as mentions, each with its place in ingest order.

    A byline of more than ``max_coauthor_byline`` names (``KG_MAX_COAUTHOR_BYLINE``) gives its
    mentions no co-authors, as it gives the graph no co-author pairs: five thousand names on a
    physics paper say nothing about who any one of them works with."""
    index = {p.id: (i, p) for i, p in enumerate(batch.papers)}
    concepts: dict[str, list[tuple[float, str]]] = defaultdict(list)
    for pid, key, weight in batch.mentions:
        concepts[pid].append((-weight, key))
    names: dict[str, list[str]] = defaultdict(list)
    for pid, _, written, _, _ in batch.bylines:
        names[pid].append(written)
    topics = {p.id: stored_topic(p.topic) for p in batch.papers}
    folded = {pid: coauthor_names(byline) if len(byline) <= max_coauthor_byline else [] for pid, byline in names.items()}
    out = []
    nth: dict[str, int] = defaultdict(int)
    for pid, position, written, place, source_id in batch.bylines:
        i, paper = index[pid]
        k = nth[pid]
        nth[pid] += 1
        byline = folded[pid]
        m = mention_of(
            pid,
            position,
            written,
            byline[:k] + byline[k + 1 :],
            place,
            paper.venue,
            paper.year,
            [key for _, key in sorted(concepts[pid])],
            source_id,
            topics.get(pid),
        )
        if m is not None:
            out.append(((chunk, i, position), m))
    return out


def assign_in_order(assigner: Assigner, mentions: Iterable[tuple[Order, Mention]]) -> list[Decision]:
    """Each paper's mentions assigned together, papers in ingest order (the people must be ``prepare``d)."""
    by_paper: dict[tuple[int, int], list[Mention]] = defaultdict(list)
    for (chunk, i, _), m in sorted(mentions, key=lambda x: x[0]):
        by_paper[chunk, i].append(m)
    out = []
    current: int | None = None  # the chunk of the papers assigned last
    for key in sorted(by_paper):
        if current is not None and key[0] != current:
            assigner.people.as_stored()  # a new chunk reads the people as the last one stored them
        current = key[0]
        out.extend(assigner.assign(by_paper[key]))
    return out


def people_of(decisions: Iterable[Decision]) -> tuple[dict[tuple[str, int], tuple[str, str]], dict[str, Author]]:
    """(paper id, position) -> (person key, why), and each person as the batch writes them (profile as it now stands)."""
    keys, authors = {}, {}
    for d in decisions:
        keys[d.mention.paper, d.mention.position] = (d.person.key, d.why)
        authors[d.person.key] = d.person
    return keys, {k: Author(p.key, p.name, p.block, p.profile.encode()) for k, p in authors.items()}


def rewrite(
    batch: GraphBatch, keys: Mapping[tuple[str, int], tuple[str, str]], people: Mapping[str, Author], max_coauthor_byline: int
) -> None:
    """The batch keyed by people: ``keys`` maps (paper id, position) of each byline row to its person's key and why.

    A name without letters keeps its name key. Authors are the people this batch touched,
    with their profiles; co-author pairs and affiliations are counted again per person.
    """
    authors: dict[str, Author] = {}
    authored = []
    affiliated: dict[tuple[str, str], int] = defaultdict(int)
    pairs: dict[tuple[str, str], int] = defaultdict(int)
    byline_of: dict[str, list[str]] = defaultdict(list)
    author_ids: dict[str, str] = {}
    for pid, position, written, place, source_id in batch.bylines:
        key, why = keys.get((pid, position), (None, ""))
        author = make_author(written) if key is None else people[key]
        authors[author.key] = author
        if author.key in byline_of[pid]:
            continue
        byline_of[pid].append(author.key)
        authored.append((author.key, pid, position, written, why, place, source_id))
        institution = make_institution(place) if place else None
        if institution is not None:
            affiliated[author.key, institution.key] += 1
        if source_id:
            author_ids.setdefault(source_id, author.key)
    for byline in byline_of.values():
        if len(byline) <= max_coauthor_byline:
            for a, b in combinations(sorted(byline), 2):
                pairs[a, b] += 1
    batch.authors = list(authors.values())
    batch.authored = authored
    batch.affiliated = dict(affiliated)
    batch.coauthor_increments = dict(pairs)
    batch.author_ids = author_ids
