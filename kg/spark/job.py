"""The ingest on Spark: read -> extract -> build -> shares-concept edges, as RDD stages.

It follows the single-machine ingest (``kg.ingest``) rule for rule, so that both give one graph:

- **read**: JSON Lines (``.jsonl``, also ``.gz``) through ``SparkContext.textFile``;
  every other format (listings, JSON documents, BibTeX, exports) through kg's readers on the driver. Records are numbered in file and
  line order; record ``i`` belongs to chunk ``i // KG_INGEST_CHUNK``, as the streaming ingest
  commits them. The first bad line fails the run before anything is written.
- **extract**: spaCy's part (candidates per document) in ``mapPartitions``, one pipeline per
  Python worker; the corpus-aware ranking per chunk, one task a chunk.
- **works**: which records are one paper (``kg.works``), on the driver over every record in order
  (their keys, titles, bylines and first abstract words): the assignment is online, so the papers are
  those the chunk-by-chunk ingest finds; each paper's items are then built chunk by chunk as a
  store would hold them (``kg.works.stage.chunk_items``).
- **build**: ``build_batch`` per chunk; every source author id takes the key of its first
  sighting (a ``reduceByKey`` over all first listings, then a broadcast).
- **shares**: each chunk's papers are scored in blocks, in parallel, against the concept
  postings of their chunk and the earlier ones (broadcast), with the idf and norms the
  single-machine ingest sees when it commits that chunk.

``kg.spark.tables`` merges the chunks into node and relationship tables and writes them.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from functools import partial
from typing import Any

from kg.config import Settings
from kg.errors import ReaderError
from kg.extract.topics import with_stats
from kg.graph.rerank import related_ranker
from kg.graph.shares import mention_weights
from kg.readers import expand_paths, file_format, read_path
from kg.spark import stages
from kg.spark.stages import ChunkSettings

__all__ = ["SparkRun", "run_stages"]

BLOCK = 1000  # papers scored per shares task


@dataclass(slots=True)
class SparkRun:
    """What the stages produced: RDDs (cached) and the counts the summary reports."""

    records: int = 0
    chunks: int = 0
    listed: Any = None  # RDD of (record number, SourceRecord)
    papers: dict[int, str] = field(default_factory=dict)  # record number -> its paper's id
    batches: Any = None  # RDD of (chunk, GraphBatch) with concept norms
    shared: Any = None  # RDD of ((p, q), (order, (score, concepts)))
    author_ids: dict[str, str] = field(default_factory=dict)


def read_records(sc, paths) -> Any:
    """RDD of (record number, SourceRecord) in file and line order; raises the first bad line's error."""
    parts = []
    for file_no, path in enumerate(expand_paths(paths)):
        if file_format(path) == ".jsonl":
            lines = sc.textFile(str(path)).zipWithIndex()
            parts.append(lines.mapPartitions(partial(stages.parse_lines, file_no, str(path))))
        else:  # listings, JSON documents, exports: small or multi-line, kg's own readers on the driver
            parts.append(sc.parallelize([((file_no, r.line), r) for r in read_path(path)], 1))
    parsed = sc.union(parts) if parts else sc.parallelize([])
    bad = parsed.filter(lambda x: isinstance(x[1], ReaderError)).takeOrdered(1, key=lambda x: x[0])
    if bad:
        raise bad[0][1]
    ordered = parsed.sortByKey().zipWithIndex()
    return ordered.map(lambda x: (x[1], x[0][1]))


def resolve_works(records, settings: Settings) -> dict[int, tuple]:
    """Record number -> (paper id, why, keys): ``kg.works`` over every record, in order,
    on the driver (each record as matching reads it: ``stages.matching_view``)."""
    from kg.works.model import load_model
    from kg.works.resolve import Works

    works = Works(model=load_model(str(settings.works_model) if settings.works_model else None))
    out = {}
    for index, record, own in sorted(records.map(stages.matching_view).collect(), key=lambda x: x[0]):
        d = works.assign(record, own)
        out[index] = (d.paper, d.why, d.keys)
    return out


def _chunk_batches(sc, records, decided: dict, n_chunks: int, cs: ChunkSettings, partitions: int, candidates):
    """RDD of (chunk, GraphBatch without norms or shares) and the source-id map."""
    size = cs.chunk
    decisions = sc.broadcast(decided)
    by_paper = records.map(lambda x: (decisions.value[x[0]][0], x)).groupByKey()
    items = by_paper.flatMap(lambda kv: stages.paper_items(kv[0], kv[1], size, decisions.value)).cache()
    # (paper id, (first record number, its byline record)) of each paper the chunks make: what extraction and ids read
    firsts = items.filter(lambda x: not x[1][1].stored).map(lambda x: (x[1][1].id, (x[1][0], x[1][1].record)))
    author_ids = dict(
        firsts.flatMap(lambda x: stages.first_listing_ids(x[1][0], x[1][1])).reduceByKey(min).mapValues(lambda v: v[2]).collect()
    )
    known = sc.broadcast(author_ids)
    found = candidates(firsts.map(lambda x: (x[0], x[1][1])).repartition(partitions))
    chunk_of = firsts.map(lambda x: (x[0], x[1][0] // size))
    cands_by_chunk = found.join(chunk_of).map(lambda x: (x[1][1], (x[0], x[1][0])))
    grouped = items.cogroup(cands_by_chunk, numPartitions=max(1, min(n_chunks, partitions)))

    def build(item):
        chunk, (merged, cands) = item
        return chunk, stages.build_chunk(cs, list(merged), dict(cands), known.value)

    return grouped.map(build), author_ids


def people(batches, cs: ChunkSettings, partitions: int):
    """The people stage, grouped by name block (blocks are independent, but for a block and its umlaut twins, which
    share a family): each chunk's batch keyed by people."""
    from kg.authors.names import family
    from kg.authors.stage import batch_mentions

    limit = cs.max_coauthor_byline
    mentions = batches.flatMap(lambda cb: [(family(m.block), (o, m)) for o, m in batch_mentions(cb[1], cb[0], limit)])
    assigned = mentions.groupByKey(numPartitions=partitions).flatMap(lambda kv: stages.assign_block(kv[1])).groupByKey()
    return batches.leftOuterJoin(assigned).map(lambda x: (x[0], stages.people_batch(x[1][0], x[1][1] or (), limit)))


def extract_candidates(cs: ChunkSettings, first_listings):
    """RDD of (paper id, (plain candidates, title tokens)): the stage that costs most (spaCy)."""
    return first_listings.mapPartitions(partial(stages.candidates_of, cs))


def _norms_and_postings(touched_by_chunk: dict[int, dict[str, dict[str, float]]], new_by_chunk: dict[int, int]):
    """Each paper's concept norm as its chunk sees it, each chunk's paper count so far, and the postings."""
    norms: dict[str, float] = {}
    n_so_far: dict[int, int] = {}
    df: Counter[str] = Counter()
    postings: dict[str, list] = {}
    total = 0
    for chunk in sorted(touched_by_chunk):
        touched = touched_by_chunk[chunk]
        total += new_by_chunk.get(chunk, 0)
        n_so_far[chunk] = total
        for weights in touched.values():
            df.update(weights.keys())
        fresh = stages.chunk_norms(touched, {k: df[k] for w in touched.values() for k in w}, total)
        norms.update(fresh)
        for pid, weights in touched.items():
            for key, w in weights.items():
                postings.setdefault(key, []).append((chunk, pid, w, fresh[pid]))
    for rows in postings.values():
        rows.sort(key=lambda r: r[1])
    return norms, n_so_far, postings


def shares(sc, batches, cs: ChunkSettings, partitions: int):
    """RDD of ((p, q), (order, (score, shared concepts))), the papers' norms, and what linking keeps about
    each paper: ``block_stats`` per block first (the ranker reads every candidate's), then ``score_block``."""
    summary = batches.map(
        lambda cb: (
            cb[0],
            len(cb[1].papers),
            mention_weights(cb[1].every_mention()),
            {p.id: p.topic for p in cb[1].papers if p.topic},
            {p.id: p.year for p in cb[1].papers},
        )
    ).collect()
    touched_by_chunk = {c: t for c, _, t, _, _ in summary}
    norms, n_so_far, postings = _norms_and_postings(touched_by_chunk, {c: n for c, n, *_ in summary})
    shared_postings = sc.broadcast(postings)
    topics = {pid: topic for _, _, _, chunk_topics, _ in summary for pid, topic in chunk_topics.items()}
    years = sc.broadcast({pid: year for *_, chunk_years in summary for pid, year in chunk_years.items()})
    blocks = []
    for chunk in sorted(touched_by_chunk):
        ids = sorted(touched_by_chunk[chunk])
        for b, start in enumerate(range(0, len(ids), BLOCK)):
            block = {pid: touched_by_chunk[chunk][pid] for pid in ids[start : start + BLOCK]}
            blocks.append(((chunk, b), block, n_so_far[chunk]))
    slices = max(1, min(len(blocks), partitions * 4))
    plain = sc.broadcast(topics)
    stats = dict(
        sc.parallelize(blocks, slices)
        .flatMap(
            lambda item: stages.block_stats(item[1], item[0][0], item[2], shared_postings.value, plain.value, years.value).items()
        )
        .collect()
    )
    kept = sc.broadcast(
        {pid: with_stats(topics.get(pid, ""), s) for pid, s in stats.items()}
        | {pid: t for pid, t in topics.items() if pid not in stats}
    )
    per_paper = cs.related_per_paper

    def score(item):
        order, block, n_papers = item
        edges, _ = stages.score_block(
            block, order[0], n_papers, per_paper, shared_postings.value, kept.value, years.value, related_ranker(cs)
        )
        return [(pair, (order, edge)) for pair, edge in edges.items()]

    scored = sc.parallelize(blocks, slices).flatMap(score)
    return scored.reduceByKey(lambda a, b: min(a, b, key=lambda x: x[0])), norms, stats


def run_stages(sc, paths, settings: Settings, *, partitions: int | None = None, candidates=None) -> SparkRun:
    """Every stage up to the merged chunks; ``candidates`` may replace ``extract_candidates`` (a resumed run)."""
    cs = ChunkSettings.of(settings)
    partitions = partitions or max(2, sc.defaultParallelism * 2)
    records = read_records(sc, paths).cache()
    run = SparkRun(records=records.count(), listed=records)
    run.chunks = -(-run.records // cs.chunk)
    extract = candidates or partial(extract_candidates, cs)
    decided = resolve_works(records, settings)
    run.papers = {i: d[0] for i, d in decided.items()}
    batches, _ = _chunk_batches(sc, records, decided, run.chunks, cs, partitions, extract)
    batches = people(batches, cs, partitions).cache()
    run.author_ids = dict(batches.flatMap(lambda cb: cb[1].author_ids.items()).collect())
    run.shared, norms, stats = shares(sc, batches, cs, partitions)
    norms_bc, stats_bc = sc.broadcast(norms), sc.broadcast(stats)

    def with_norms(item):
        item[1].set_concept_norms(norms_bc.value)
        item[1].set_link_stats(stats_bc.value)
        return item

    run.batches = batches.map(with_norms).cache()
    return run
