"""What Spark's Python workers run: plain functions over plain data, each one stage of the
single-machine ingest (``kg.ingest``) applied to one partition, one chunk or one block.

No pyspark import here: these are unit-testable without a JVM, and the same functions the
single-machine ingest uses do the work (readers, ``ConceptExtractor``, ``build_batch``,
``shared_concept_edges``), so that both engines give one graph.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass

from kg.graph.build import GraphBatch
from kg.graph.chunk import build_chunk as build_graph_chunk
from kg.graph.identity import make_author
from kg.graph.shares import concept_norm, linking_idf, shared_concept_edges, stored_norm
from kg.models import SourceRecord

__all__ = [
    "ChunkSettings",
    "parse_lines",
    "matching_view",
    "paper_items",
    "first_listing_ids",
    "candidates_of",
    "build_chunk",
    "assign_block",
    "people_batch",
    "block_stats",
    "chunk_norms",
    "score_block",
]

_EXTRACTORS: dict[tuple, object] = {}  # one extractor (spaCy pipeline, model) per worker process and settings


@dataclass(frozen=True, slots=True)
class ChunkSettings:
    """The settings every stage reads, shipped to the workers with the tasks."""

    chunk: int
    top_n: int
    spacy_model: str | None
    concept_model: str | None
    related_per_paper: int
    max_coauthor_byline: int
    related_ranking: str = "citations"
    related_model: str | None = None

    @classmethod
    def of(cls, settings) -> "ChunkSettings":
        """The stage settings of a ``kg.config.Settings``."""
        model = str(settings.related_model) if settings.related_model is not None else None
        return cls(
            settings.ingest_chunk,
            settings.concepts_per_paper,
            settings.spacy_model,
            settings.concept_model,
            settings.related_per_paper,
            settings.max_coauthor_byline,
            settings.related_ranking,
            model,
        )


def extractor_for(settings: ChunkSettings):
    """The worker's extractor, loaded once per Python worker (Spark reuses its workers)."""
    key = (settings.spacy_model, settings.concept_model, settings.top_n)
    if key not in _EXTRACTORS:
        from kg.extract.pipeline import ConceptExtractor

        _EXTRACTORS[key] = ConceptExtractor.load(model=settings.spacy_model, ranker=settings.concept_model, top_n=settings.top_n)
    return _EXTRACTORS[key]


# -- read ---------------------------------------------------------------------------------------
def parse_lines(file_no: int, source: str, lines: Iterable[tuple[str, int]]) -> Iterator[tuple[tuple[int, int], object]]:
    """JSON Lines text as Spark reads it, ``(text, line index from 0)`` -> ``((file, line), record or error)``.

    A bad line becomes its ReaderError (file and line named), so that the driver can report
    the first one before anything is written, as the single-machine ingest does.
    """
    from kg.readers.jsonl import parse_numbered

    for number, _, found in parse_numbered(((index + 1, text) for text, index in lines), source):
        yield (file_no, number), found


# -- papers (kg.works) and source author ids -----------------------------------------------------
def matching_view(item: tuple[int, SourceRecord]) -> tuple[int, SourceRecord, str]:
    """(record number, the record as matching reads it, the id it would have alone): the driver matches every record,
    so it gets each without what matching never reads (references, keywords, the abstract past its first words)."""
    from dataclasses import replace

    from kg.graph.identity import paper_id
    from kg.works.features import ABSTRACT_WORDS

    index, record = item
    light = replace(
        record,
        abstract=" ".join(record.abstract.split()[:ABSTRACT_WORDS]),
        references=(),
        keywords=(),
        affiliations=None,
        author_ids=None,
    )
    return index, light, paper_id(record)


def paper_items(pid: str, rows: Iterable[tuple[int, SourceRecord]], size: int, decided: Mapping[int, tuple]):
    """One paper's items, ``(chunk, (number of its first record there, MergedRecord))`` for each chunk that has
    records of it, as the chunk-by-chunk ingest builds them (``kg.works.stage.chunk_items``)."""
    from kg.works.stage import chunk_items

    by_chunk: dict[int, list[tuple[int, SourceRecord]]] = {}
    for index, record in sorted(rows, key=lambda x: x[0]):
        by_chunk.setdefault(index // size, []).append((index, record))
    firsts = {chunk: rows[0][0] for chunk, rows in by_chunk.items()}
    chunks = [(chunk, [_decision(record, decided[index]) for index, record in rows]) for chunk, rows in sorted(by_chunk.items())]
    for chunk, item in chunk_items(pid, chunks):
        yield chunk, (firsts[chunk], item)


def _decision(record: SourceRecord, decided: tuple):
    """A record's decision as the driver made it (``job.resolve_works``): its paper, why, and its keys."""
    from kg.works.resolve import Decision

    pid, why, keys = decided
    return Decision(record, pid, why == "first record", why, None, tuple(keys))


# -- papers and source author ids ---------------------------------------------------------------
def first_listing_ids(first_index: int, record: SourceRecord) -> Iterator[tuple[str, tuple[int, int, str]]]:
    """(source author id, (order, position, author key)) of a paper's first listing: the earliest
    sighting of an id names its author, as the single-machine ingest's chunk order does."""
    for position, raw in enumerate(record.authors):
        source_id = record.author_ids[position] if record.author_ids else None
        if source_id:
            key = make_author(raw).key
            if key:
                yield source_id, (first_index, position, key)


# -- extract, stage 1: candidates per document --------------------------------------------------
def candidates_of(settings: ChunkSettings, rows: Iterable[tuple[str, SourceRecord]]) -> Iterator[tuple[str, tuple[dict, int]]]:
    """(paper id, (plain candidate data, title tokens)) for each paper's first listing: spaCy's part."""
    from kg.extract.pipeline import DocumentInput

    rows = list(rows)
    documents = [DocumentInput(r.abstract, (), r.title or "") for _, r in rows]
    found = extractor_for(settings).plain_candidates(documents)
    for (pid, _), data in zip(rows, found, strict=True):
        yield pid, data


# -- extract, stage 2, and build: one chunk as the single-machine ingest commits it --------------
def build_chunk(
    settings: ChunkSettings,
    items: Sequence[tuple[int, object]],
    candidates: Mapping[str, tuple[dict, int]],
    known_author_ids: Mapping[str, str],
) -> GraphBatch:
    """The chunk's graph batch without its shares-concept edges (``score_block`` adds those).

    ``items`` are the chunk's papers, ``(number of its first record in the chunk, MergedRecord)``: a paper made by an
    earlier chunk adds what its records add (areas, sources, ids, references, merged fields); ``known_author_ids``
    is every source author id's key.
    """
    from kg.extract.component import from_plain

    extractor = extractor_for(settings)

    def extract(documents, new):
        cands = [from_plain(candidates[m.id][0], extractor.vocabulary) for m in new]
        return extractor.rank(documents, cands, [candidates[m.id][1] for m in new])

    return build_graph_chunk(
        [item for _, item in sorted(items, key=lambda x: x[0])],
        extract,
        max_coauthor_byline=settings.max_coauthor_byline,
        known_author_ids=known_author_ids,
    ).batch


# -- people: one name block at a time ------------------------------------------------------------
def assign_block(items: Iterable[tuple[tuple[int, int, int], object]]) -> Iterator[tuple[int, tuple]]:
    """One block's mentions (``(order, mention)``, any order) assigned as the single-machine ingest assigns
    them: ``(chunk, ("m", paper id, position, key))`` per mention and ``(chunk, ("p", author))`` per person
    and chunk that names them, with the person's profile at the end of the run (what a first load writes)."""
    from kg.authors.assign import Assigner, People
    from kg.authors.stage import assign_in_order, people_of

    items = list(items)
    people = People()
    people.prepare(m for _, m in items)
    order = {(m.paper, m.position): o[0] for o, m in items}
    keys, authors = people_of(assign_in_order(Assigner(people), items))
    named = set()
    for (pid, position), (key, why) in keys.items():
        chunk = order[pid, position]
        yield chunk, ("m", pid, position, key, why)
        if (chunk, key) not in named:
            named.add((chunk, key))
            yield chunk, ("p", authors[key])


def people_batch(batch: GraphBatch, rows: Iterable[tuple], max_coauthor_byline: int) -> GraphBatch:
    """A chunk's batch keyed by the people ``assign_block`` found for it."""
    from kg.authors.stage import rewrite

    keys, authors = {}, {}
    for row in rows:
        if row[0] == "m":
            keys[row[1], row[2]] = (row[3], row[4])
        else:
            authors[row[1].key] = row[1]
    rewrite(batch, keys, authors, max_coauthor_byline)
    return batch


# -- shares-concept edges -----------------------------------------------------------------------
def chunk_norms(touched: Mapping[str, Mapping[str, float]], df: Mapping[str, int], n_papers: int, **limits) -> dict[str, float]:
    """Each touched paper's concept norm with the idf its chunk sees: ``df`` counts the papers
    of this chunk and every earlier one, ``n_papers`` all of those papers (``shared_concept_edges``'s rule)."""
    idf = linking_idf(df, n_papers, **limits)  # limits: max_df_share, min_df_cap
    return {pid: concept_norm(weights, idf) for pid, weights in touched.items()}


def block_index(keys: Iterable[str], chunk: int, postings: Mapping[str, Sequence[tuple[int, str, float, float]]]):
    """The postings a paper of ``chunk`` is scored against: papers of earlier chunks with their
    stored (rounded) norms, papers of its own chunk with fresh ones, as the store would hand them."""
    return {
        key: [(pid, w, norm if c == chunk else stored_norm(norm)) for c, pid, w, norm in postings[key] if c <= chunk]
        for key in keys
    }


def score_block(
    touched: Mapping[str, Mapping[str, float]],
    chunk: int,
    n_papers: int,
    per_paper: int,
    postings: Mapping[str, Sequence[tuple[int, str, float, float]]],
    topics: Mapping[str, str],
    years: Mapping[str, int | None] | None = None,
    ranker=None,
):
    """Shares-concept edges picked by one block of a chunk's papers (ids in order), as
    ``shared_concept_edges`` picks them for the whole chunk, and what linking keeps about the
    block's papers: the block's papers see every other paper of the chunk through the postings,
    with the same idf, norms and signatures (``topics``: every paper's, with the stats that
    ``block_stats`` found for the papers of this chunk and the earlier ones)."""
    keys = sorted({k for weights in touched.values() for k in weights})
    edges, _, stats = shared_concept_edges(
        touched,
        block_index(keys, chunk, postings),
        n_papers,
        per_paper=per_paper,
        topics_of=lambda ids: {i: topics[i] for i in ids if i in topics},
        years=years,
        ranker=ranker,
    )
    return edges, stats


def block_stats(
    touched: Mapping[str, Mapping[str, float]],
    chunk: int,
    n_papers: int,
    postings: Mapping[str, Sequence[tuple[int, str, float, float]]],
    topics: Mapping[str, str],
    years: Mapping[str, int | None],
) -> dict[str, tuple[float, ...]]:
    """What linking keeps about one block's papers (``kg.graph.rerank.link_stats``), which the ranker reads
    of every candidate: found by similarity alone, before any paper is ranked."""
    return score_block(touched, chunk, n_papers, 1, postings, topics, years)[1]
