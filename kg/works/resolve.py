"""Records to papers, one record at a time: the paper an id names, the paper the model finds most likely, or a new one.

The assignment is online, in ingest order, as the people stage's is: a record is compared with the
papers known so far (those stored, read through ``WorkLookup``, and those this ingest made from
earlier records), joins one, and becomes one of its keys. So adding files never re-clusters the
store, a paper's id never changes, and an ingest in chunks gives the papers an ingest at once gives.

- **Hard evidence** (``kg.works.keys``): a record carrying a key a paper holds (an id of a known kind,
  or the record's own id) is that paper. A record whose keys name two papers joins the first.
- **Otherwise** it is compared with the papers whose titles share one of its blocks
  (``kg.works.fold.title_blocks``), each through its likeliest record (``kg.works.model``). A paper
  carrying an id of a kind the record carries too, with another value, is never a candidate
  (``keys.conflict``); neither is one whose abstract shares too little with the record's, when both
  have one. The likeliest paper at or above the model's threshold takes the record.
- **Else** the record is a new paper, under the id ``kg.graph.identity.paper_id`` gives it.
"""

from __future__ import annotations

import heapq
from collections import Counter
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from typing import Protocol

from kg.graph.identity import paper_id
from kg.models import SourceRecord
from kg.works.features import Signature, extra_words, features, signature, title_content, venue_kind
from kg.works.fold import Vocabulary, load_vocabulary, title_blocks
from kg.works.keys import conflict, joining_keys, kind_of, source_key
from kg.works.merge import fields_signature
from kg.works.model import WorkModel, load_model

__all__ = ["WorkLookup", "Known", "Decision", "Works", "record_signature", "CANDIDATES", "ABSTRACT_AGREEMENT"]

CANDIDATES = 25  # papers scored per record at most: those sharing the most blocks with it
BLOCK_CAP = 200  # a block holding more papers than this is passed over (its word is too common to tell anything)
MIN_CONTAINMENT = 0.5  # of the shorter title's content words, found in the other: below it, never scored
ABSTRACT_AGREEMENT = 0.1  # two abstracts sharing fewer of their first words than this are two papers (Jaccard)
SAME_ABSTRACT = 0.5  # records with abstracts whose titles differ by a word that says what a paper is about need this much


class WorkLookup(Protocol):
    """What the stage reads of a store (``kg.store.base.Store``)."""

    def papers_known_by(self, keys: Sequence[str]) -> dict[str, str]: ...  # key -> the paper it names

    def papers_in_blocks(self, blocks: Sequence[str], limit: int | None = None) -> dict[str, list[str]]: ...  # block -> ids

    def work_records(self, ids: Sequence[str]) -> dict[str, list[tuple[list[str], str, dict]]]: ...  # (keys, file, fields)s


@dataclass(slots=True)
class Known:
    """A paper as matching sees it: every key it holds, and one signature per record."""

    id: str
    keys: set[str] = field(default_factory=set)
    stored: bool = False
    # one per record, the stored ones first: [the file it was read from, its fields, its title's content words,
    # its signature], the last two made on first need (most stored papers read for a chunk are never compared)
    records: list[list] = field(default_factory=list)

    def typed(self) -> set[str]:
        return {k for k in self.keys if kind_of(k)}

    def read(self, file: str, fields: dict) -> None:
        self.records.append([file, fields, None, None])

    def add(self, file: str, sig: Signature) -> None:
        self.records.append([file, None, sig.content, sig])

    @property
    def signatures(self) -> list[tuple[str, Signature]]:
        return [(r[0], self._signed(r)) for r in self.records]

    def comparable(self, content: frozenset[str]) -> Iterator[tuple[str, Signature]]:
        """The records whose titles may be one with a title of these content words (``_titles_meet``)."""
        for r in self.records:
            if r[2] is None:
                r[2] = title_content(r[1].get("title"))
            if _titles_meet(content, r[2]):
                yield r[0], self._signed(r)

    @staticmethod
    def _signed(r: list) -> Signature:
        if r[3] is None:
            r[3] = fields_signature(r[1])
        return r[3]


@dataclass(frozen=True, slots=True)
class Decision:
    """Where a record went and why."""

    record: SourceRecord
    paper: str  # the paper's id
    new: bool  # a paper this ingest makes (else one stored before it, or made from an earlier record of it)
    why: str  # in words: "first record", "the same doi:…", "matched 0.97 (…)"
    probability: float | None = None
    keys: tuple[str, ...] = ()  # the keys the record names the paper by
    signature: Signature | None = None


def record_signature(record: SourceRecord) -> Signature:
    return signature(record.title, record.authors, record.year, record.venue, record.abstract)


class Works:
    """The papers known so far, by key and by block: read from a store on first need, then kept up to date."""

    def __init__(
        self,
        lookup: WorkLookup | None = None,
        model: WorkModel | None = None,
        vocabulary: Vocabulary | None = None,
        apart: dict[tuple[str, str], set[str]] | None = None,
        freed: set[str] | None = None,
    ):
        self.lookup = lookup
        self.apart = apart or {}  # (file, record key) -> papers that record is not (``kg papers split``)
        self.freed = freed or set()  # keys a correction written with this ingest takes off the paper holding them
        self.model = model or load_model()
        self.vocabulary = vocabulary or load_vocabulary()
        self.by_key: dict[str, str] = {}
        self.by_block: dict[str, dict[str, None]] = {}  # block -> its papers (in the order they came), if not common
        self.common: set[str] = set()  # blocks holding more than BLOCK_CAP papers
        self.papers: dict[str, Known] = {}
        self._asked_keys: set[str] = set()
        self._asked_blocks: set[str] = set()

    # -- reading what the store holds -----------------------------------------------------------
    def prepare(self, records: Iterable[SourceRecord]) -> None:
        """Read the stored papers these records may be: those their keys name and those in their blocks (one read each)."""
        if self.lookup is None:
            return
        records = list(records)
        keys = sorted({k for r in records for k in (*joining_keys(r), paper_id(r))} - self._asked_keys)
        blocks = sorted({b for r in records for b in title_blocks(r.title, self.vocabulary)} - self._asked_blocks)
        self._asked_keys.update(keys)
        self._asked_blocks.update(blocks)
        found = self.lookup.papers_known_by(keys) if keys else {}
        in_blocks = self.lookup.papers_in_blocks(blocks, limit=BLOCK_CAP + 1) if blocks else {}
        for block, pids in in_blocks.items():
            self._add_to_block(block, pids)
        # read now: the papers their keys name, and each record's likeliest candidates as the store has them (those
        # sharing the most uncommon blocks with it: what ``_likeliest`` compares, but for a paper of this chunk
        # taking a place, or a block turning common; ``_likeliest`` reads any other it needs then)
        candidates = set(found.values())
        for record in records:
            candidates.update(pid for pid, _ in self._ranked(record))
        self._load(candidates)
        self.by_key.update((k, p) for k, p in found.items() if k not in self.by_key and k not in self.freed)

    def _load(self, pids: Iterable[str]) -> None:
        """Stored papers into ``papers``: their keys now, their records' signatures when first compared."""
        wanted = sorted({p for p in pids if p not in self.papers})
        if not wanted or self.lookup is None:
            return
        for pid in wanted:
            self.papers[pid] = Known(pid, stored=True)
        for pid, rows in self.lookup.work_records(wanted).items():
            known = self.papers[pid]
            for keys_of, file, fields in rows:
                known.keys.update(keys_of)
                known.read(file, fields)
                self.by_key.update((k, pid) for k in keys_of if k not in self.by_key and k not in self.freed)

    def _ranked(self, record: SourceRecord) -> list[tuple[str, int]]:
        """The papers sharing the most blocks with a record (``CANDIDATES`` at most), the smaller id first in a tie."""
        shared: Counter[str] = Counter()
        for block in title_blocks(record.title, self.vocabulary):
            shared.update(self.by_block.get(block, {}).keys())  # a common block (a title word that tells nothing) has none
        return heapq.nsmallest(CANDIDATES, shared.items(), key=lambda x: (-x[1], x[0]))

    def _add_to_block(self, block: str, pids: Iterable[str]) -> None:
        """Papers into a block's members; a block past ``BLOCK_CAP`` is only remembered as common (its members,
        thousands for a word like 'learning', would cost a look-up each and never be compared)."""
        if block in self.common:
            return
        members = self.by_block.setdefault(block, {})
        members.update(dict.fromkeys(pids))
        if len(members) > BLOCK_CAP:
            self.common.add(block)
            del self.by_block[block]

    # -- assigning -----------------------------------------------------------------------------------
    def assign(self, record: SourceRecord, own: str | None = None) -> Decision:
        """The paper of one record (``prepare`` it first when there is a store); the record is then one of its keys.
        ``own`` is the id the record would have alone (``paper_id``), for a caller that has it already."""
        own = own or paper_id(record)
        keys = joining_keys(record, own)
        sig = record_signature(record)
        not_these = self.apart.get((record.source, source_key(record)), set())
        named = next((self.by_key[k] for k in keys if k in self.by_key and self.by_key[k] not in not_these), None)
        if named is not None:
            which = next(k for k in keys if self.by_key.get(k) == named)
            decision = Decision(record, named, not self.papers[named].stored, f"the same {_said(which)}", None, tuple(keys), sig)
        else:
            best, p = self._likeliest(record, keys, sig, not_these)
            if best is not None:
                why = f"matched {p:.2f} ({_explain(sig, [o for _, o in self.papers[best].signatures])})"
                decision = Decision(record, best, not self.papers[best].stored, why, p, tuple(keys), sig)
            else:
                # a record split off a paper (``not_these``) is named by its own id where it can be
                named_as = source_key(record) if not_these and source_key(record) not in self.by_key else own
                decision = Decision(record, self._free(named_as), True, "first record", None, tuple(keys), sig)
        self._remember(decision, own)
        return decision

    def _free(self, pid: str) -> str:
        """``pid``, or ``pid~2``, ``pid~3`` … when a paper holds it already (a citation key two files give two
        papers, a record split off a paper that keeps the record's DOI through another record)."""
        candidate, n = pid, 1  # ``prepare`` asked the store about ``pid``; a suffixed one is asked here
        while candidate in self.by_key or (n > 1 and self.lookup is not None and self.lookup.papers_known_by([candidate])):
            n += 1
            candidate = f"{pid}~{n}"
        return candidate

    def _likeliest(self, record: SourceRecord, keys: list[str], sig: Signature, not_these: set[str]) -> tuple[str | None, float]:
        typed = [k for k in keys if kind_of(k)]
        ranked = self._ranked(record)
        self._load(pid for pid, _ in ranked)
        pairs: list[tuple[str, list[float]]] = []
        for pid, _ in ranked:
            known = self.papers[pid]
            if pid in not_these or (typed and conflict(typed, known.typed())):
                continue
            for file, other in known.comparable(sig.content):
                if _plausible(sig, other) and (file != record.source or _duplicate(sig, other)):
                    pairs.append((pid, features(sig, other)))
        if not pairs:
            return None, 0.0
        best, best_p = None, -1.0
        for (pid, _), p in zip(pairs, self.model.probability([x for _, x in pairs])):
            if p > best_p or (p == best_p and best is not None and pid < best):  # a tie goes to the smaller id
                best, best_p = pid, float(p)
        return (best, best_p) if best_p >= self.model.threshold else (None, best_p)

    def _remember(self, decision: Decision, own: str) -> None:
        pid = decision.paper
        known = self.papers.setdefault(pid, Known(pid))
        for key in (*decision.keys, own):
            known.keys.add(key)
            self.by_key.setdefault(key, pid)
        if decision.signature is not None:
            known.add(decision.record.source, decision.signature)
        for block in title_blocks(decision.record.title, self.vocabulary):
            self._add_to_block(block, (pid,))


def _plausible(a: Signature, b: Signature) -> bool:
    """Whether two records are worth scoring: the shorter title's content words mostly in the other, no number in
    each title that the other lacks ('Part 2', 'Task 1', 'two robots': a catalogue may add numbers to a title, never
    swap them). Records that both have an abstract are complete records, not a catalogue's: their titles may differ
    by no word that says what a paper is about (``extra_words``: 'Scalable …', '… Liquid-Fabric …' are follow-ups),
    or by one when their abstracts mostly agree; and two abstracts that share almost nothing are two papers."""
    if not _titles_meet(a.content, b.content):
        return False
    if a.numbers - b.numbers and b.numbers - a.numbers:
        return False
    if a.abstract and b.abstract:
        agreement = len(a.abstract & b.abstract) / len(a.abstract | b.abstract)
        extra = len(extra_words(a, b))
        return not (agreement < ABSTRACT_AGREEMENT or extra > 1 or (extra == 1 and agreement < SAME_ABSTRACT))
    return True


def _titles_meet(a: frozenset[str], b: frozenset[str]) -> bool:
    """The shorter title's content words mostly in the other."""
    short, long_ = (a, b) if len(a) <= len(b) else (b, a)
    return bool(short) and len(short & long_) >= MIN_CONTAINMENT * len(short)


def _duplicate(a: Signature, b: Signature) -> bool:
    """Whether two records of one file repeat one paper: one title, one byline (by surname), one year (or none given).
    A file lists distinct works but for such repeats; records of one file that differ more (a conference paper and
    its journal version, two papers of a series) are two papers, however alike."""
    if a.year is not None and b.year is not None and a.year != b.year:
        return False
    ka, kb = venue_kind(a.venue), venue_kind(b.venue)
    return not (ka and kb and ka != kb)


def _said(key: str) -> str:
    return key if kind_of(key) else f"record id {key.rsplit('#', 1)[-1]}"


def _explain(sig: Signature, others: Sequence[Signature]) -> str:
    """What the record shares with the paper's closest record, in words."""
    other = max(others, key=lambda o: len(set(sig.words) & set(o.words)))
    parts = ["title" if sig.title == other.title else "title words"]
    if set(sig.surnames) & set(other.surnames):
        parts.append("authors")
    if sig.year is not None and other.year is not None and abs(sig.year - other.year) <= 1:
        parts.append("year")
    if set(sig.venue) & set(other.venue):
        parts.append("venue")
    return ", ".join(parts)
