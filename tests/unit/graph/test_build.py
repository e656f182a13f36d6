from itertools import combinations

import numpy as np

from kg.extract.pipeline import ExtractedConcept
from kg.extract.topics import encode
from kg.graph.build import build_batch, merge_records
from kg.graph.identity import area_chain, author_key, clean_author_name, paper_id
from kg.graph.shares import TERM_WEIGHT, TOPIC_WEIGHT, shared_concept_edges
from kg.models import SourceRecord
from kg.readers import read_path

from helpers import SAMPLES


def rec(abstract, authors, area=None, line=1, **kw):
    return SourceRecord("t.txt", line, abstract, tuple(authors), area=area, **kw)


def test_names_are_cleaned_and_folded():
    assert clean_author_name("JunhuaShu JunhuaShu") == "Junhua Shu"
    assert clean_author_name("ZhaolongXing ZhaolongXing") == "Zhaolong Xing"
    assert clean_author_name("Wei LIN") == "Wei Lin"
    assert author_key("Wei LIN") == author_key("wei lin") == "wei lin"
    assert clean_author_name("Bartłomiej Twardowski") == "Bartłomiej Twardowski"
    assert clean_author_name("Joost van de Weijer") == "Joost van de Weijer"
    assert clean_author_name("Yang Yang") == "Yang Yang" and clean_author_name("LEI LEI") == "Lei Lei"


def test_area_chain_keys_by_full_path():
    theory = area_chain(("Theory", "Everything Else"))
    apps = area_chain(("Applications", "Everything Else"))
    assert [a.path for a in theory] == ["Theory", "Theory · Everything Else"]
    assert theory[-1].path != apps[-1].path and theory[-1].parent == "Theory"


def test_repeated_listing_is_one_paper_with_the_area():
    a = rec("Same abstract.", ["Ann Lee", "Bo Chen"], None, line=1)
    b = rec("Same  abstract.", ["Ann Lee", "Bo Chen"], ("RL", "Inverse"), line=9)
    [merged] = merge_records([a, b])
    assert merged.id == paper_id(a) and merged.areas == [("RL", "Inverse")]
    batch = build_batch([merged], {}, new_ids={merged.id})
    assert len(batch.papers) == 1
    assert batch.coauthor_increments == {("ann lee", "bo chen"): 1}
    assert batch.in_area == [(merged.id, "RL · Inverse")]


def test_existing_papers_add_no_authorship_or_weight():
    a = rec("Old abstract.", ["Ann Lee", "Bo Chen"], ("RL", "Inverse"))
    [merged] = merge_records([a])
    batch = build_batch([merged], {}, new_ids=set())
    assert batch.papers == [] and batch.authored == [] and batch.coauthor_increments == {}
    assert batch.in_area == [(merged.id, "RL · Inverse")]  # an area may still be added


def test_byline_positions_and_concepts():
    a = rec("Text.", ["Ann Lee", "Bo Chen", "ANN LEE"])
    [m] = merge_records([a])
    c = ExtractedConcept("x y", "x y", ("XY",), 1.5, "abbreviation", (("x", "x"),))
    batch = build_batch([m], {m.id: [c]}, new_ids={m.id})
    assert batch.authored == [("ann lee", m.id, 0), ("bo chen", m.id, 1)]
    assert batch.mentions == [(m.id, "x y", 1.5)]
    assert batch.broader == [("x y", "x")]
    assert {c.key for c in batch.concepts} == {"x y", "x"}


def test_seed_coauthor_pairs_match_a_direct_count():
    records = [r for f in sorted(SAMPLES.glob("*.txt")) for r in read_path(f)]
    merged = merge_records(records)
    batch = build_batch(merged, {}, new_ids={m.id for m in merged})
    expected: dict = {}
    seen = set()
    for r in records:
        if r.abstract in seen:
            continue
        seen.add(r.abstract)
        keys = sorted({" ".join(clean_author_name(n).lower().split()) for n in r.authors})
        for pair in combinations(keys, 2):
            expected[pair] = expected.get(pair, 0) + 1
    assert batch.coauthor_increments == expected
    assert len(merged) == 39


def _weighted(postings, weight=1.0):
    return {pid: {k: weight for k in keys} for pid, keys in postings.items()}


def test_shared_edges_weigh_rare_concepts_and_are_bounded():
    postings = {f"p{i}": ["common"] for i in range(40)}
    postings["p0"] = ["common", "rare"]
    postings["p1"] = ["common", "rare"]
    edges, norms, _ = shared_concept_edges(_weighted(postings), {}, len(postings), per_paper=3, min_df_cap=100)
    assert edges[("p0", "p1")][1] == ("rare", "common")
    best = max(edges.items(), key=lambda kv: kv[1][0])
    assert best[0] == ("p0", "p1")
    assert len(edges) <= 3 * len(postings)
    degree = {}
    for p, q in edges:
        degree[p] = degree.get(p, 0) + 1
        degree[q] = degree.get(q, 0) + 1
    assert sum(degree.values()) / len(postings) <= 6
    assert norms["p0"] > norms["p2"] > 0


def test_concepts_a_paper_is_more_about_weigh_more():
    papers = {"a": {"x": 1.0, "y": 0.1}, "b": {"x": 1.0, "z": 1.0}, "c": {"y": 1.0, "z": 1.0}}
    papers |= {f"other{i}": {"w": 1.0} for i in range(5)}
    edges, _, _ = shared_concept_edges(papers, {}, len(papers), per_paper=1)
    assert ("a", "b") in edges and ("a", "c") not in edges  # a is about x, hardly about y


def test_common_concepts_link_with_less_weight_and_too_common_ones_not_at_all():
    postings = {f"p{i}": ["everywhere"] for i in range(100)}
    assert shared_concept_edges(_weighted(postings), {}, 100, max_df_share=0.05, min_df_cap=25)[0] == {}
    edges, _, _ = shared_concept_edges(_weighted(postings), {}, 100, max_df_share=1.0)
    assert len(edges) == 100 * 15 - (15 * 16) // 2  # every paper keeps its 15 best (ties by id)


def test_only_touched_papers_choose_edges():
    index = {"x": [("old1", 1.0, 0.5), ("old2", 1.0, 0.5)]}
    edges, norms, _ = shared_concept_edges({"new": {"x": 1.0}}, index, 3)
    assert sorted(edges) == [("new", "old1"), ("new", "old2")]
    assert set(norms) == {"new"}


def test_topic_vectors_rank_among_papers_sharing_a_concept_and_never_link_alone():
    papers = {"a": {"x": 1.0}, "b": {"x": 1.0}, "c": {"x": 1.0}, "d": {"q": 1.0}, "e": {"q": 1.0}}
    papers |= {f"other{i}": {"w": 1.0} for i in range(5)}
    near, far = encode(np.array([1.0, 0.0, 0.0])), encode(np.array([0.0, 1.0, 0.0]))
    topics = {"a": near, "b": far, "c": encode(np.array([1.0, 0.2, 0.0])), "d": near, "e": far}
    edges, _, _ = shared_concept_edges(papers, {}, len(papers), per_paper=1)
    assert edges[("a", "b")][0] == edges[("a", "c")][0]  # concepts alone: b and c tie
    edges, _, _ = shared_concept_edges(
        papers, {}, len(papers), per_paper=1, topics_of=lambda ids: {i: topics[i] for i in ids if i in topics}
    )
    assert ("a", "c") in edges and ("a", "b") not in edges  # c's words agree with a's
    total = 1 + TOPIC_WEIGHT + TERM_WEIGHT  # these signatures hold no term weights: their cosine is 0
    assert edges[("a", "c")] == (round((1.0 + TOPIC_WEIGHT * 0.9806) / total, 4), ("x",))
    assert ("a", "d") not in edges  # the same words, no shared concept: no edge


def test_term_weights_rank_among_papers_sharing_a_concept():
    papers = {"a": {"x": 1.0}, "b": {"x": 1.0}, "c": {"x": 1.0}} | {f"other{i}": {"w": 1.0} for i in range(5)}
    theme = np.array([1.0, 0.0])  # one topic vector for all: only the words tell b from c
    signatures = {
        "a": encode(theme, (np.array([3, 70]), np.array([0.6, 0.8]))),
        "b": encode(theme, (np.array([5, 9]), np.array([0.6, 0.8]))),
        "c": encode(theme, (np.array([3, 9]), np.array([0.6, 0.8]))),
    }
    edges, _, _ = shared_concept_edges(
        papers, {}, len(papers), per_paper=1, topics_of=lambda ids: {i: signatures[i] for i in ids if i in signatures}
    )
    assert ("a", "c") in edges and ("a", "b") not in edges  # c shares the word numbered 3 with a
    term_cosine = 76 * 76 / (76 * 76 + 102 * 102)  # the weights as signed bytes: 0.6 -> 76, 0.8 -> 102
    assert edges[("a", "c")][0] == round((1.0 + TOPIC_WEIGHT + TERM_WEIGHT * term_cosine) / (1 + TOPIC_WEIGHT + TERM_WEIGHT), 4)
