"""Records plus extracted concepts -> the nodes and edges one ingest adds.

Pure functions over plain data: no store, no spaCy.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from itertools import combinations
from typing import TYPE_CHECKING

from kg.extract.text import first_sentence_label
from kg.graph.correction import PaperCorrection, PeopleCorrection
from kg.graph.identity import area_chain, make_author, make_institution, paper_id, paper_keys
from kg.extract.topics import with_stats
from kg.graph.shares import SharedEdge, stored_norm
from kg.models import Author, Concept, Institution, Paper, PaperSource, ResearchArea, SourceRecord

if TYPE_CHECKING:  # the graph stage reads extraction output; it never loads spaCy
    from kg.extract.pipeline import ExtractedConcept

__all__ = ["GraphBatch", "MergedRecord", "merge_records", "same_text", "build_batch", "paper_of", "REFERENCES"]

REFERENCES = 100_000  # a paper's n-th source numbers its references from n * REFERENCES: each source's list stays apart


@dataclass(slots=True)
class MergedRecord:
    """One paper, however many records of it the input holds (``kg.works`` decides which records are one paper).

    ``record`` is what the paper is built from: its first record's byline with the fields merged over its
    records. A paper stored before the ingest (``stored``) is rewritten only when a record adds a source to it:
    then ``sources`` holds all of them and ``record`` the fields merged anew.
    """

    id: str
    record: SourceRecord
    areas: list[tuple[str, ...]] = field(default_factory=list)
    keywords: list[str] = field(default_factory=list)
    differing: list[SourceRecord] = field(default_factory=list)  # listings re-read from a file with another title or abstract
    stored: bool = False
    sources: list[PaperSource] = field(default_factory=list)  # every record of the paper, when this ingest adds one
    keys: list[str] = field(default_factory=list)  # the keys its new records name it by (None: ``paper_keys``)
    blocks: list[str] = field(default_factory=list)  # the title blocks its new records add (kg.works.fold)
    # the references of each new record, beside its place among the paper's sources (numbered apart: ``REFERENCES``)
    cited: list[tuple[int, tuple[tuple[str, ...], ...]]] = field(default_factory=list)


def same_text(a: SourceRecord, b: SourceRecord | Paper) -> bool:
    """Whether two listings of one id carry one title and abstract (case and spacing aside)."""
    fold = lambda t: " ".join((t or "").split()).casefold()
    return fold(a.title) == fold(b.title) and fold(a.abstract) == fold(b.abstract)


@dataclass(slots=True)
class GraphBatch:
    """What one ingest writes. Every list is idempotent to apply (MERGE semantics)."""

    papers: list[Paper] = field(default_factory=list)
    authors: list[Author] = field(default_factory=list)
    # author key, paper id, position; after the people stage also the name as written there, why it is that person,
    # the affiliation as written there and the source's id for the author
    authored: list[tuple] = field(default_factory=list)
    areas: list[ResearchArea] = field(default_factory=list)
    in_area: list[tuple[str, str]] = field(default_factory=list)  # paper id, area path
    concepts: list[Concept] = field(default_factory=list)
    mentions: list[tuple[str, str, float]] = field(default_factory=list)  # paper id, concept key, weight: its key concepts
    # paper id, concept key, weight: the concepts a paper names below its key ones (``ExtractedConcept.minor``);
    # stored as MENTIONS too, marked minor: concept pages, filters and shares-concept scoring see them
    minor_mentions: list[tuple[str, str, float]] = field(default_factory=list)
    broader: list[tuple[str, str]] = field(default_factory=list)  # narrower key, broader key
    coauthor_increments: dict[tuple[str, str], int] = field(default_factory=dict)  # (a, b) a < b
    shared: dict[tuple[str, str], SharedEdge] = field(default_factory=dict)  # (p, q) p < q
    institutions: list[Institution] = field(default_factory=list)
    affiliated: dict[tuple[str, str], int] = field(default_factory=dict)  # (author key, institution key) -> papers
    author_ids: dict[str, str] = field(default_factory=dict)  # source author id -> author key
    # each new paper's byline as read, for the people stage (kg.authors.stage): paper id, position, name as written,
    # affiliation, source author id; one row per author the paper keeps (a byline printed twice counts once)
    bylines: list[tuple[str, int, str, str | None, str | None]] = field(default_factory=list)
    known_as: list[tuple[str, str]] = field(default_factory=list)  # paper id, a key references may name it by
    cites: list[tuple[str, str, int]] = field(default_factory=list)  # paper id, a key of a work it cites, which reference
    correction: PeopleCorrection | None = None  # a user's correction of who is who (``kg authors merge/split``)
    paper_correction: PaperCorrection | None = None  # a user's correction of which records are one paper (``kg papers``)
    # the sources of each paper it makes or adds a record to, all of them (kg.works): what a store keeps, replaced
    sources: dict[str, list[PaperSource]] = field(default_factory=dict)
    updates: list[Paper] = field(default_factory=list)  # stored papers whose merged fields a new source changed
    blocks: list[tuple[str, str]] = field(default_factory=list)  # paper id, a title block (kg.works.fold)

    def every_mention(self) -> list[tuple[str, str, float]]:
        """Key and minor mentions: what shares-concept scoring reads (key ones first)."""
        return self.mentions + self.minor_mentions

    def set_concept_norms(self, norms: Mapping[str, float]) -> None:
        """The new papers carry their concept norms, as the stores keep them (0 for a paper with none)."""
        self.papers = [replace(p, concept_norm=stored_norm(norms.get(p.id, 0.0))) for p in self.papers]

    def set_link_stats(self, stats: Mapping[str, tuple[float, ...]]) -> None:
        """The new papers keep what linking learnt of them (``kg.graph.rerank.link_stats``) in their signatures."""
        self.papers = [replace(p, topic=with_stats(p.topic, stats[p.id])) if p.id in stats else p for p in self.papers]

    def set_topics(self, topics: Mapping[str, str]) -> None:
        """The new papers carry their signatures (``kg.extract.topics``; '' for none)."""
        self.papers = [replace(p, topic=topics.get(p.id, "")) for p in self.papers]


def merge_records(records: Iterable[SourceRecord]) -> list[MergedRecord]:
    """Fold repeated listings of one paper id together, keeping first-seen order (no matching: ``kg.works`` does that).

    The first listing gives the byline and text; later ones add areas and keywords.
    """
    merged: dict[str, MergedRecord] = {}
    for record in records:
        pid = paper_id(record)
        item = merged.get(pid)
        if item is None:
            item = merged[pid] = MergedRecord(pid, record)
        elif not same_text(record, item.record):
            item.differing.append(record)
        if record.area and record.area not in item.areas:
            item.areas.append(record.area)
        for kw in record.keywords:
            if kw not in item.keywords:
                item.keywords.append(kw)
    return list(merged.values())


def build_batch(
    items: Sequence[MergedRecord],
    concepts: Mapping[str, Sequence["ExtractedConcept"]],
    *,
    new_ids: set[str],
    max_coauthor_byline: int = 100,
    known_author_ids: Mapping[str, str] | None = None,
) -> GraphBatch:
    """Nodes and edges for the merged records.

    Parameters
    ----------
    items : merged records of this ingest
    concepts : paper id -> its key concepts (only papers in ``new_ids`` need them)
    new_ids : papers the store does not have yet; only they add authorship,
        mentions and co-author weight, so ingesting twice changes nothing. A stored paper that gains a
        source (``MergedRecord.sources``) is rewritten with its merged fields; its keys and references grow.
    max_coauthor_byline : a paper with more authors than this (a physics collaboration, a large model
        report) links each author to the paper but adds no co-author pairs (they grow with its square).
    known_author_ids : source author ids the store already has -> their author keys. An author
        with a source id is that id's author however spelled; a new id takes the key of its name.
    """
    nodes = _Nodes(known=known_author_ids or {}, id_keys=dict(known_author_ids or {}))
    batch = GraphBatch()
    for item in items:
        for path in item.areas:
            chain = area_chain(path)
            for area in chain:
                nodes.areas.setdefault(area.path, area)
            batch.in_area.append((item.id, chain[-1].path))
        batch.blocks.extend((item.id, b) for b in item.blocks)
        if item.sources:
            batch.sources[item.id] = list(item.sources)
        if item.id not in new_ids:
            if item.sources:  # a stored paper gains a record: its merged fields, keys and references
                batch.updates.append(_paper(item))
                _add_citations(item, batch)
            continue
        batch.papers.append(_paper(item))
        _add_citations(item, batch)
        keys_in_order = _add_byline(item, batch, nodes)
        if len(keys_in_order) <= max_coauthor_byline:
            for a, b in combinations(sorted(keys_in_order), 2):
                batch.coauthor_increments[(a, b)] = batch.coauthor_increments.get((a, b), 0) + 1
        for c in concepts.get(item.id, ()):
            _add_concept(nodes.concepts, Concept(c.key, c.name, c.aliases, c.broader[0][0] if c.broader else None))
            (batch.minor_mentions if c.minor else batch.mentions).append((item.id, c.key, c.weight))
            broader = list(c.broader)
            for (narrow_key, _), (broad_key, broad_name) in zip([(c.key, c.name), *broader], broader):
                _add_concept(nodes.concepts, Concept(broad_key, broad_name))
                batch.broader.append((narrow_key, broad_key))
    batch.authors = list(nodes.authors.values())
    batch.areas = list(nodes.areas.values())
    batch.concepts = list(nodes.concepts.values())
    batch.institutions = list(nodes.institutions.values())
    batch.broader = sorted(set(batch.broader))
    return batch


@dataclass(slots=True)
class _Nodes:
    """The nodes one batch collects, each once, in first-seen order."""

    known: Mapping[str, str]  # source author ids the store has -> author keys
    id_keys: dict[str, str]  # the same, plus the ids this batch sees first
    authors: dict[str, Author] = field(default_factory=dict)
    areas: dict[str, ResearchArea] = field(default_factory=dict)
    concepts: dict[str, Concept] = field(default_factory=dict)
    institutions: dict[str, Institution] = field(default_factory=dict)


def paper_of(item: MergedRecord) -> Paper:
    """The paper an item writes (or, for a stored paper gaining a source, the fields it rewrites)."""
    return _paper(item)


def _paper(item: MergedRecord) -> Paper:
    rec = item.record
    return Paper(
        id=item.id,
        title=rec.title,
        label=rec.title or first_sentence_label(rec.abstract),
        abstract=rec.abstract,
        venue=rec.venue,
        year=rec.year,
        authors_truncated=rec.authors_truncated,
        citations=rec.citations,
    )


def _add_citations(item: MergedRecord, batch: GraphBatch) -> None:
    """The keys a new paper is known by, and the keys of each work it cites (``n``: which reference)."""
    own = list(dict.fromkeys([item.id, *item.keys])) if item.keys else paper_keys(item.record, item.id)
    batch.known_as.extend((item.id, k) for k in own)
    for source, references in item.cited or [(0, item.record.references)]:
        batch.cites.extend(
            (item.id, k, source * REFERENCES + n) for n, keys in enumerate(references) for k in keys if k not in own
        )


def _add_byline(item: MergedRecord, batch: GraphBatch, nodes: _Nodes) -> list[str]:
    """Authorship and affiliations of one new paper; its distinct author keys in byline order."""
    rec = item.record
    keys_in_order: list[str] = []
    for position, raw in enumerate(rec.authors):
        author = make_author(raw)
        source_id = rec.author_ids[position] if rec.author_ids else None
        if source_id and author.key:
            key = nodes.id_keys.setdefault(source_id, author.key)
            if source_id not in nodes.known:
                batch.author_ids[source_id] = key
            author = Author(key, author.name)
        if not author.key or author.key in keys_in_order:
            continue
        nodes.authors.setdefault(author.key, author)
        keys_in_order.append(author.key)
        batch.authored.append((author.key, item.id, position))
        place = rec.affiliations[position] if rec.affiliations else None
        batch.bylines.append((item.id, position, author.name, place or None, source_id or None))
        institution = make_institution(place) if place else None
        if institution is not None:
            nodes.institutions.setdefault(institution.key, institution)
            pair = (author.key, institution.key)
            batch.affiliated[pair] = batch.affiliated.get(pair, 0) + 1
    return keys_in_order


def _add_concept(nodes: dict[str, Concept], concept: Concept) -> None:
    old = nodes.get(concept.key)
    if old is None:
        nodes[concept.key] = concept
        return
    aliases = tuple(sorted(set(old.aliases) | set(concept.aliases)))
    nodes[concept.key] = Concept(old.key, old.name, aliases, old.broader or concept.broader)
