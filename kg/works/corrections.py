"""A user's corrections of which records are one paper: two papers that are one (merge), or a record that is
another paper (split).

Each works out, from store reads, the ``PaperCorrection`` a store writes in one all-or-nothing write. A merge
keeps the first paper's id and byline; the other's records, keys, references and areas join it, and its id then
names the survivor (it is one of the keys the survivor is known by). A split takes one record out of a paper:
the keys only that record gave no longer name the paper, and the ingest that writes the correction makes the
record a paper of its own (never joined back to the one it left). Later ingests respect both: a record's keys
lead to the paper the correction left them on.
"""

from __future__ import annotations

from collections import Counter
from datetime import datetime, timezone

from kg.errors import InvalidArgument
from kg.graph.build import REFERENCES
from kg.graph.correction import PaperCorrection
from kg.graph.identity import make_institution
from kg.extract.text import first_sentence_label
from kg.models import Paper, PaperSource, SourceRecord
from kg.works.fold import title_blocks
from kg.works.merge import fields_of, filled, record_of_source, slim

__all__ = ["merge", "split"]


def _now() -> str:
    return datetime.now(timezone.utc).isoformat(timespec="microseconds")


def _paper(store, ref: str) -> Paper:
    """A paper by its id or any id one of its records carried."""
    found = store.papers_by_ids([ref])[0]
    if found is None and (pid := store.papers_known_by([ref]).get(ref)) is not None:
        found = store.papers_by_ids([pid])[0]
    if found is None:
        raise InvalidArgument(f"no paper has the id {ref!r}; `kg search WORDS` finds papers with their ids")
    return found


def _sources(store, paper: Paper) -> list[PaperSource]:
    """A paper's sources, each with every field (a paper stored before kg kept sources: one made of the paper)."""
    kept = store.sources_of_papers([paper.id])[0] or [PaperSource(paper.id, "", "", 0, "first record")]
    return filled(kept, paper)


def _rewritten(paper: Paper, sources: list[PaperSource]) -> Paper:
    fields = fields_of(sources)
    label = fields["title"] or first_sentence_label(fields["abstract"])
    return Paper(
        paper.id,
        fields["title"],
        label,
        fields["abstract"],
        fields["venue"],
        fields["year"],
        paper.authors_truncated,
        paper.concept_norm,
        fields["citations"],
    )


def _pair(a: str, b: str) -> tuple[str, str]:
    return (a, b) if a < b else (b, a)


def merge(store, keep: str, other: str, max_coauthor_byline: int) -> PaperCorrection:
    """``other`` is ``keep``: its records join ``keep``, whose id and byline stay; ``other``'s ids then name ``keep``."""
    kept, gone = _paper(store, keep), _paper(store, other)
    if kept.id == gone.id:
        raise InvalidArgument(f"{keep!r} and {other!r} are already one paper ({kept.id})")
    why = f"merged by a correction (kg papers merge {kept.id} {gone.id})"
    mine = _sources(store, kept)
    moved = [PaperSource(s.key, s.format, s.file, s.line, f"{why}; before: {s.why}", s.fields) for s in _sources(store, gone)]
    sources = mine + moved
    c = PaperCorrection(
        {"kind": "paper merge", "keep": kept.id, "other": gone.id, "sources": len(moved), "at": _now()},
        _rewritten(kept, sources),
        slim(sources),
        removed=gone.id,
    )
    c.cites = [(r.key, len(mine) * REFERENCES + n) for n, r in enumerate(store.references_of_papers([gone.id])[0])]
    byline = store.authorships_of_papers([gone.id])[0]
    c.authored = [(r.author.key, gone.id) for r in byline]
    people = sorted({r.author.key for r in byline})
    pairs: Counter = Counter()
    if len(people) <= max_coauthor_byline:
        for i, a in enumerate(people):
            for b in people[i + 1 :]:
                pairs[_pair(a, b)] -= 1
    c.coauthors = dict(pairs)
    places: Counter = Counter()
    for r in byline:
        if r.affiliation and (inst := make_institution(r.affiliation)) is not None:
            places[r.author.key, inst.key] -= 1
    c.affiliated = dict(places)
    on_kept = {a.key for a in store.authors_of_papers([kept.id])[0]}
    c.people_removed = [k for k, n in zip(people, store.paper_counts_of_authors(people)) if n <= 1 and k not in on_kept]
    return c


def split(store, ref: str, source: str) -> tuple[PaperCorrection, SourceRecord]:
    """The record ``source`` (its id, or ``file:line``) of paper ``ref`` is another paper: the correction that takes it
    out, and the record, for the ingest that makes it a paper of its own."""
    paper = _paper(store, ref)
    sources = _sources(store, paper)
    leaving = [s for s in sources if source in (s.key, f"{s.file}:{s.line}", f"{s.file.rsplit('/', 1)[-1]}:{s.line}")]
    if not leaving:
        listed = ", ".join(s.key for s in sources)
        raise InvalidArgument(f"paper {paper.id} has no record {source!r}; its records: {listed} (`kg paper {paper.id}`)")
    if len(sources) == 1:
        raise InvalidArgument(f"paper {paper.id} is read from that one record only: there is nothing to split off")
    gone = leaving[0]
    staying = [s for s in sources if s is not gone]
    kept_keys = {k for s in staying for k in (s.key, *(s.data.get("keys") or ()))} | {paper.id}
    kept_blocks = {b for s in staying for b in title_blocks(s.data.get("title"))}
    c = PaperCorrection(
        {"kind": "paper split", "paper": paper.id, "source": gone.key, "file": gone.file, "at": _now()},
        _rewritten(paper, staying),
        slim(staying),
    )
    carried = {gone.key, *(gone.data.get("keys") or ())}
    c.unlinked = sorted(carried - kept_keys)
    c.shared = sorted(carried & kept_keys)
    c.unblocked = sorted(set(title_blocks(gone.data.get("title"))) - kept_blocks)
    return c, record_of_source(gone)
