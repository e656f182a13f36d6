"""Shares-concept edges: which papers an ingest links, by how much, and through which concepts.

Each paper is a vector over its concepts; a concept's entry is ``sqrt(weight * idf)``,
where the weight is the extractor's confidence that the concept is key to the paper
(1 for author keywords) and ``idf = log((N+1)/df)``. The concept cosine of two papers
sums ``sqrt(w_p * w_q) * idf`` over the concepts they share: concepts both papers are
about, and rare ones, count most. Common concepts stay on papers; they only weigh less.
For a bounded cost, a concept in more than ``max(min_df_cap, max_df_share * N)`` papers
links nothing.

Only papers that share a linking concept are linked, and the edge keeps those concepts
(its explanation). Their *similarity* also hears the rest of the two texts: it is
``(concept cosine + TOPIC_WEIGHT * topic cosine + TERM_WEIGHT * term cosine) / (1 + TOPIC_WEIGHT + TERM_WEIGHT)``,
the topic and term cosines being those of the papers' stored signatures (``kg.extract.topics``:
the themes of all their words, and the words themselves; 0 where either paper has none, or a
topic cosine is negative). With a ranker (``kg.graph.rerank``, what ingests use by default),
each paper's ``rerank.POOL`` most similar papers are scored again by how likely a citation
between the two is, and that is the edge's score; without one, similarity is. Each touched
paper keeps its ``per_paper`` best links (``2 * per_paper`` per paper on average, counting
both ends); edges already stored are left alone.

Pure functions over plain data (numpy and scipy for the products): no store, no spaCy.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping, Sequence

from kg.graph import rerank

__all__ = ["Posting", "SharedEdge", "concept_norm", "linking_idf", "mention_weights", "shared_concept_edges", "stored_norm"]

SharedEdge = tuple[float, tuple[str, ...]]  # score, shared concept keys (best first)
Posting = tuple[str, float, float]  # paper id, the paper's mention weight, the paper's concept norm
TopicsOf = Callable[[Sequence[str]], Mapping[str, str]]  # paper ids -> their stored signatures

# Themes and words each weigh twice the concepts: chosen on the same-area share of related papers at
# AAAI 2022 and IJCAI 2021, 2022, 2024 (venues without author keywords), not on ICLR 2024, which
# bench/related.py reports.
TOPIC_WEIGHT = 2.0
TERM_WEIGHT = 2.0
POOL_SLICE = 1024  # pools scored at a time: the features of a whole chunk's pools would be large
DENSE_CELLS = 4_000_000  # at most this many (paper, paper) dot products held at once per signal (32 MB)


def mention_weights(mentions) -> dict[str, dict[str, float]]:
    """(paper id, concept key, weight) triples -> paper id -> {concept key: weight}, in mention order
    (the order a paper's sums are taken in)."""
    weights: dict[str, dict[str, float]] = {}
    for pid, key, weight in mentions:
        weights.setdefault(pid, {})[key] = weight
    return weights


def stored_norm(norm: float) -> float:
    """A concept norm as the stores keep it (6 places): what later ingests score against."""
    return round(norm, 6)


def linking_idf(df: Mapping[str, int], n_papers: int, *, max_df_share: float = 0.2, min_df_cap: int = 25) -> dict[str, float]:
    """The idf of every concept that links papers: in more than one paper, and in at most
    ``max(min_df_cap, max_df_share * n_papers)`` of them.

    >>> linking_idf({"a": 1, "b": 2, "c": 30}, 99)
    {'b': 3.912023005428146}
    """
    cap = max(min_df_cap, int(max_df_share * n_papers))
    return {k: math.log((n_papers + 1) / d) for k, d in df.items() if 1 < d <= cap}


def concept_norm(weights: Mapping[str, float], idf: Mapping[str, float]) -> float:
    """Length of a paper's concept vector: sqrt(sum of weight * idf over its linking concepts)."""
    return math.sqrt(sum(w * idf[k] for k, w in weights.items() if k in idf))


def shared_concept_edges(
    touched: Mapping[str, Mapping[str, float]],
    index: Mapping[str, Sequence[Posting]],
    n_papers: int,
    *,
    per_paper: int = 15,
    max_df_share: float = 0.2,
    min_df_cap: int = 25,
    topics_of: TopicsOf | None = None,
    years: Mapping[str, int | None] | None = None,
    ranker: rerank.Ranker | None = None,
) -> tuple[dict[tuple[str, str], SharedEdge], dict[str, float], dict[str, tuple[float, ...]]]:
    """Shares-concept edges chosen by the papers an ingest touches, those papers' concept norms, and
    what linking keeps about each of them (the scoring is in the module's docstring).

    Parameters
    ----------
    touched : paper id -> {concept key: weight}, for the papers to link
    index : concept key -> (paper id, weight, concept norm) of every paper that mentions it;
        touched papers may be left out (they are added here)
    n_papers : papers in the whole graph
    topics_of : paper ids (touched or not) -> their stored signatures; else topic and term cosines are 0
    years : touched paper id -> its year; ranker : ``kg.graph.rerank.Ranker``, or None for similarity alone

    Returns
    -------
    (edges, norms, stats): (lower id, higher id) -> (score, shared concept keys, strongest first);
    each touched paper's concept norm; and what ``rerank.link_stats`` keeps about each one that links.

    Examples
    --------
    >>> papers = {"a": {"x": 1.0, "y": 1.0}, "b": {"x": 1.0, "y": 1.0}, "c": {"y": 1.0}}
    >>> edges, norms, stats = shared_concept_edges(papers, {}, 3)
    >>> sorted(edges)
    [('a', 'b'), ('a', 'c'), ('b', 'c')]
    >>> edges[("a", "b")]  # no signatures: the concept cosine alone, scaled
    (0.2, ('x', 'y'))
    """
    postings, idf = _postings_and_idf(touched, index, n_papers, max_df_share, min_df_cap)
    norms = {pid: concept_norm(weights, idf) for pid, weights in touched.items()}
    for pid, weights in touched.items():
        for key, w in weights.items():
            postings[key][pid] = (w, norms[pid])
    linking = sorted(idf)
    if not linking:
        return {}, norms, {}
    ranked, stats = _scores(touched, postings, idf, norms, linking, per_paper, topics_of, years or {}, ranker)
    return _edges(ranked, touched, postings, idf), norms, stats


def _edges(ranked, touched, postings, idf) -> dict[tuple[str, str], SharedEdge]:
    """Each paper's picks as edges: (lower id, higher id) -> (score, shared concepts); the first pick of a pair wins."""
    kept: dict[tuple[str, str], SharedEdge] = {}
    for pid, best in ranked:
        for score, other in best:
            pair = (pid, other) if pid < other else (other, pid)
            if pair not in kept:
                kept[pair] = (round(min(score, 1.0), 4), _shared_keys(touched[pid], other, postings, idf))
    return kept


def _postings_and_idf(touched, index, n_papers: int, max_df_share: float, min_df_cap: int):
    """Concept -> {paper: (weight, norm)} without the touched papers (they are re-added with fresh norms),
    and the idf of every concept in 2..cap papers (the linking ones)."""
    postings: dict[str, dict[str, tuple[float, float]]] = {
        key: {pid: (w, norm) for pid, w, norm in rows} for key, rows in index.items()
    }
    for pid, weights in touched.items():
        for key in weights:
            postings.setdefault(key, {}).pop(pid, None)
    df = {key: len(rows) for key, rows in postings.items()}
    for weights in touched.values():
        for key in weights:
            df[key] = df.get(key, 0) + 1
    return postings, linking_idf(df, n_papers, max_df_share=max_df_share, min_df_cap=min_df_cap)


def _shared_keys(weights: Mapping[str, float], other: str, postings, idf) -> tuple[str, ...]:
    """The concepts a paper shares with ``other``, the ones adding most to their score first."""
    parts = sorted(
        (-math.sqrt(w * postings[key][other][0]) * idf[key], key)
        for key, w in weights.items()
        if key in idf and other in postings[key]
    )
    return tuple(k for _, k in parts)


def _scores(touched, postings, idf, norms, linking, per_paper, topics_of, years, ranker, block=256):
    """For each touched paper (in id order) with a concept vector, its ``per_paper`` best (score, other id),
    and what linking keeps about it.

    One sparse product per block of touched papers: (papers × concepts) · (concepts × all papers).
    Ties in the score rounded to 4 places go to the lower id. With a ranker, each paper's
    ``rerank.POOL`` most similar papers are scored again once every touched paper's stats are known.
    """
    from scipy import sparse

    column = {key: j for j, key in enumerate(linking)}
    ids, row_of, papers, other_norm = _paper_side(postings, linking)
    topics, stored = _topic_rows(ids, topics_of)
    block = max(16, min(block, DENSE_CELLS // max(1, len(ids))))  # a block's dense dot products stay bounded
    order = [pid for pid in sorted(touched) if norms[pid]]
    keep = rerank.POOL if ranker is not None else per_paper
    chosen, stats = [], {}
    for start in range(0, len(order), block):
        chunk = order[start : start + block]
        r, c, v = [], [], []
        for n, pid in enumerate(chunk):
            for key, w in touched[pid].items():
                if key in column:
                    r.append(n)
                    c.append(column[key])
                    v.append(math.sqrt(w) * idf[key])
        mine = sparse.csr_matrix((v, (r, c)), shape=(len(chunk), len(linking)))
        product = (mine @ papers).tocsr()
        dots = _block_dots(topics, [row_of[pid] for pid in chunk])
        for n, pid in enumerate(chunk):
            lo, hi = product.indptr[n], product.indptr[n + 1]
            cand, signals = _signals(
                product.indices[lo:hi],
                product.data[lo:hi],
                row_of[pid],
                norms[pid],
                other_norm,
                topics,
                None if dots is None else dots[n],
            )
            stats[pid] = rerank.link_stats(signals, years.get(pid))
            pick = _pick(similarity(signals), cand, keep)
            chosen.append((pid, [ids[cand[k]] for k in pick], signals[pick]))
    if ranker is None:
        return [(pid, [(float(similarity(s)[k]), o) for k, o in enumerate(others)]) for pid, others, s in chosen], stats

    def theirs(other):  # fresh for a touched paper, else as stored; only pool members are decoded
        return stats[other] if other in stats else rerank.stats_of(stored.get(other))

    pools = [
        (pid, others, stats[pid], signals, [theirs(o) for o in others], similarity(signals)) for pid, others, signals in chosen
    ]
    out = []
    for start in range(0, len(pools), POOL_SLICE):
        part = pools[start : start + POOL_SLICE]
        for (pid, others, *_), score in zip(part, ranker.score_pools(part), strict=True):
            out.append((pid, [(float(score[k]), others[k]) for k in _pick(score, others, per_paper)]))
    return out, stats


def _topic_rows(ids, topics_of: TopicsOf | None):
    """The papers' stored topic vectors as rows of integers (zero for none), their term weights as
    a sparse matrix of integers, and the lengths of both (None when no paper has a signature);
    and the stored signatures themselves."""
    import numpy as np
    from scipy import sparse

    from kg.extract.topics import decode, decode_terms

    stored = topics_of(ids) if topics_of is not None else {}
    vectors = [decode(stored.get(pid)) for pid in ids]
    dims = next((len(v) for v in vectors if v is not None), 0)
    if not dims:
        return None, stored
    rows = np.zeros((len(ids), dims))
    numbers, weights, counts = [], [], np.zeros(len(ids), dtype=np.int64)
    for i, pid in enumerate(ids):
        if vectors[i] is not None:
            rows[i] = vectors[i]
        terms = decode_terms(stored.get(pid))
        if terms is not None:
            numbers.append(terms[0])
            weights.append(terms[1])
            counts[i] = len(terms[0])
    columns = np.concatenate(numbers) if numbers else np.zeros(0, dtype=np.int64)
    indptr = np.concatenate(([0], np.cumsum(counts)))
    words = sparse.csr_matrix(
        (np.concatenate(weights) if weights else np.zeros(0), columns, indptr), shape=(len(ids), int(columns.max(initial=0)) + 1)
    )
    lengths = np.sqrt(np.einsum("ij,ij->i", rows, rows))
    return (rows, lengths, words, np.sqrt(np.asarray(words.multiply(words).sum(1)).ravel())), stored


def _paper_side(postings, linking):
    """Every linking paper's side of the product: (ids, id -> row, concepts × papers matrix of sqrt(weight), norms by row)."""
    import numpy as np
    from scipy import sparse

    ids = sorted({pid for key in linking for pid in postings[key]})
    row_of = {pid: i for i, pid in enumerate(ids)}
    rows, cols, vals = [], [], []
    other_norm = np.zeros(len(ids))
    for j, key in enumerate(linking):
        for pid, (w, norm) in postings[key].items():
            i = row_of[pid]
            rows.append(i)
            cols.append(j)
            vals.append(math.sqrt(w))
            other_norm[i] = norm
    papers = sparse.csr_matrix((vals, (rows, cols)), shape=(len(ids), len(linking))).T.tocsr()
    return ids, row_of, papers, other_norm


def _cosines(dots, lengths, cand, me: int):
    """Dot products of one paper with its candidates, divided by the lengths (0 where either is 0)."""
    import numpy as np

    scale = lengths[cand] * lengths[me]
    return np.divide(dots, scale, out=np.zeros(len(cand)), where=scale > 0)


def _block_dots(topics, me):
    """The topic dot products of a block's papers (rows ``me``) with every paper, as a dense
    (block × papers) array: one matrix product a block, not a gather of candidates per paper.
    None without signatures. The vectors hold integers, so the products are exact in any order."""
    if topics is None:
        return None
    rows = topics[0]
    return rows[me] @ rows.T


def _signals(cand, raw, me: int, norm: float, other_norm, topics, dots):
    """One paper's candidates (rows other than its own) and, for each, its concept, topic and term
    cosines (the last two 0 without signatures); ``dots``: the paper's topic dot products with every
    paper (``_block_dots``). Its term dot products are taken with its candidates only: term vectors
    are sparse but share common words, so a block's products with every paper would be nearly dense."""
    import numpy as np

    keep = cand != me
    cand, raw = cand[keep], raw[keep]
    theirs = other_norm[cand]
    signals = np.zeros((len(cand), 3))
    signals[:, 0] = raw / (norm * np.where(theirs > 0, theirs, norm))
    if topics is not None and len(cand):  # integer dot products: exact, so every engine ranks alike
        _, lengths, words, word_lengths = topics
        signals[:, 1] = np.clip(_cosines(dots[cand], lengths, cand, me), 0.0, None)
        mine = words[me].toarray().ravel()
        signals[:, 2] = _cosines(words[cand] @ mine, word_lengths, cand, me)
    return cand, signals


def similarity(signals):
    """The similarity score of each candidate: the module docstring's weighted mean of the three cosines."""
    return (signals[:, 0] + TOPIC_WEIGHT * signals[:, 1] + TERM_WEIGHT * signals[:, 2]) / (1.0 + TOPIC_WEIGHT + TERM_WEIGHT)


def _pick(score, names, n: int):
    """Positions of the ``n`` best scores, best first; scores equal when rounded to 4 places go to the lower name."""
    import numpy as np

    rounded = np.round(score, 4)
    if len(score) > n:  # everything at or above the n-th best rounded score (ties included)
        bar = np.partition(rounded, len(rounded) - n)[len(rounded) - n]
        pick = np.nonzero(rounded >= bar)[0]
    else:
        pick = np.arange(len(score))
    return [k for _, _, k in sorted((-float(rounded[k]), names[k], k) for k in pick)[:n]]
