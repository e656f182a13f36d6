"""The Spark engine's worker functions, without a JVM: blocks of a chunk pick the edges the whole
chunk picks, and chunk norms are the ones the single-machine ingest stores."""

from __future__ import annotations

import random

import numpy as np

from kg.extract.topics import encode
from kg.graph.shares import shared_concept_edges
from kg.spark import stages
from kg.spark.tables import merge_concept


def _papers(rng: random.Random, ids, n_concepts: int = 40) -> dict[str, dict[str, float]]:
    return {
        pid: {f"c{rng.randrange(n_concepts):02d}": round(rng.uniform(0.2, 1.0), 4) for _ in range(rng.randint(1, 8))}
        for pid in ids
    }


def _postings(chunks: dict[int, dict[str, dict[str, float]]]):
    """What the engine broadcasts: key -> (chunk, paper, weight, fresh norm), and each chunk's papers so far."""
    postings, df, total, n_so_far = {}, {}, 0, {}
    for chunk in sorted(chunks):
        touched = chunks[chunk]
        total += len(touched)
        n_so_far[chunk] = total
        for weights in touched.values():
            for k in weights:
                df[k] = df.get(k, 0) + 1
        norms = stages.chunk_norms(touched, {k: df[k] for w in touched.values() for k in w}, total, min_df_cap=5)
        for pid, weights in touched.items():
            for k, w in weights.items():
                postings.setdefault(k, []).append((chunk, pid, w, norms[pid]))
    return postings, n_so_far


def test_blocks_of_a_chunk_pick_the_edges_of_the_whole_chunk():
    rng = random.Random(7)
    chunks = {0: _papers(rng, [f"p{i:03d}" for i in range(60)]), 1: _papers(rng, [f"q{i:03d}" for i in range(45)])}
    postings, n_so_far = _postings(chunks)
    topics = {
        pid: encode(
            np.array([rng.gauss(0, 1) for _ in range(8)]),  # a topic vector and three of 12 words
            (np.array(rng.sample(range(12), 3)), np.array([rng.random() for _ in range(3)])),
        )
        for c in chunks.values()
        for pid in c
    }
    topics_of = lambda ids: {i: topics[i] for i in ids}  # noqa: E731
    for chunk, touched in chunks.items():
        # The single-machine ingest: the whole chunk at once, earlier chunks as stored (rounded norms).
        index = stages.block_index(
            sorted({k for w in touched.values() for k in w}),
            chunk,
            {k: [r for r in rows if r[0] < chunk] for k, rows in postings.items()},
        )
        whole, _, _ = shared_concept_edges(touched, index, n_so_far[chunk], per_paper=4, min_df_cap=5, topics_of=topics_of)
        ids = sorted(touched)
        merged: dict = {}
        for start in range(0, len(ids), 7):  # blocks in id order; an earlier block's pick wins
            block = {pid: touched[pid] for pid in ids[start : start + 7]}
            keys = sorted({k for w in block.values() for k in w})
            edges, _, _ = shared_concept_edges(
                block, stages.block_index(keys, chunk, postings), n_so_far[chunk], per_paper=4, min_df_cap=5, topics_of=topics_of
            )
            for pair, edge in edges.items():
                merged.setdefault(pair, edge)
        assert whole and merged == whole


def test_blocks_rank_with_the_learned_ranker_as_the_whole_chunk_does():
    """With the ranker, each paper's stats are found first (``block_stats``), then every block scores
    its pools against them: the edges and stats the single-machine ingest finds chunk by chunk."""
    from kg.extract.topics import with_stats
    from kg.graph.rerank import load_ranker

    rng = random.Random(11)
    chunks = {0: _papers(rng, [f"p{i:03d}" for i in range(50)]), 1: _papers(rng, [f"q{i:03d}" for i in range(40)])}
    postings, n_so_far = _postings(chunks)
    plain = {
        pid: encode(
            np.array([rng.gauss(0, 1) for _ in range(8)]),
            (np.array(rng.sample(range(12), 3)), np.array([rng.random() for _ in range(3)])),
        )
        for c in chunks.values()
        for pid in c
    }
    years = {pid: rng.choice([2019, 2021, 2023, None]) for c in chunks.values() for pid in c}
    ranker = load_ranker()
    stored = {}  # the single-machine store's signatures, stats added as each chunk is linked
    spark_stats, first = {}, {}
    for chunk, touched in chunks.items():
        ids = sorted(touched)
        for start in range(0, len(ids), 7):
            block = {pid: touched[pid] for pid in ids[start : start + 7]}
            spark_stats |= stages.block_stats(block, chunk, n_so_far[chunk], postings, plain, years)
    kept = {pid: with_stats(plain[pid], spark_stats[pid]) if pid in spark_stats else plain[pid] for pid in plain}
    for chunk, touched in chunks.items():
        index = stages.block_index(
            sorted({k for w in touched.values() for k in w}),
            chunk,
            {k: [r for r in rows if r[0] < chunk] for k, rows in postings.items()},
        )
        topics_of = lambda ids, t=touched, s=stored: {i: plain[i] if i in t else s[i] for i in ids if i in t or i in s}  # noqa: E731
        whole, _, stats = shared_concept_edges(
            touched, index, n_so_far[chunk], per_paper=4, min_df_cap=5, topics_of=topics_of, years=years, ranker=ranker
        )
        stored |= {pid: with_stats(plain[pid], stats[pid]) if pid in stats else plain[pid] for pid in touched}
        ids = sorted(touched)
        merged: dict = {}
        for start in range(0, len(ids), 7):
            block = {pid: touched[pid] for pid in ids[start : start + 7]}
            edges, _ = stages.score_block(block, chunk, n_so_far[chunk], 4, postings, kept, years, ranker)
            for pair, edge in edges.items():
                merged.setdefault(pair, edge)
        assert whole and merged == whole
        assert stats == {pid: spark_stats[pid] for pid in stats}
        first = first if chunk else whole
    similarity, _, _ = shared_concept_edges(
        chunks[0], {}, n_so_far[0], per_paper=4, min_df_cap=5, topics_of=lambda ids: {i: plain[i] for i in ids}
    )
    assert set(similarity) != set(first)  # the ranker chose other edges than similarity would


def test_a_concept_keeps_its_first_name_and_gains_aliases_in_chunk_order():
    rows = [
        ((1, 0), {"key": "sam", "name": "SAM (later)", "aliases": ["b", "c"], "broader": "opt"}),
        ((0, 3), {"key": "sam", "name": "sharpness-aware minimization", "aliases": ["a", "b"], "broader": None}),
    ]
    merged = merge_concept(rows)
    assert merged["name"] == "sharpness-aware minimization"
    assert merged["aliases"] == ["a", "b", "c"] and merged["broader"] == "opt"
    assert merged["alias_text"] == " | a | b | c"
