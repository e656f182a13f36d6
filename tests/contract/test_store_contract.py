"""One contract, every store: the same assertions on the embedded store and on Neo4j."""

from __future__ import annotations

import pytest

from helpers import concept_postings, shared_edges

from kg.graph.build import GraphBatch
from kg.models import Facets, Institution, Stats
from kg.store.base import PaperFilter

from contract_data import contract_batch


def ids(page):
    return [p.id for p in page.items]


def test_stats(store):
    assert store.stats() == Stats(papers=4, authors=4, concepts=5, research_areas=5, coauthor_edges=2, shared_concept_edges=2)


def test_empty_store_answers_empty(empty_store):
    assert empty_store.stats() == Stats(0, 0, 0, 0, 0, 0)
    assert empty_store.find_papers(PaperFilter(), 0, 10).total == 0
    assert empty_store.papers_by_ids(["p1"]) == [None]
    assert empty_store.collaboration_path("a", "b") is None
    assert empty_store.search("xray", 5) == []


def test_apply_twice_changes_nothing(store):
    batch = contract_batch()
    batch.coauthor_increments = {}
    store.apply(batch)
    assert store.stats() == Stats(4, 4, 5, 5, 2, 2)
    assert store.coauthors_of(["bo chen"])[0][0].joint_papers == 1


def test_coauthor_weights_add_up(store):
    store.apply(GraphBatch(coauthor_increments={("ann lee", "bo chen"): 2}))
    assert [(c.author_key, c.joint_papers) for c in store.coauthors_of(["bo chen"])[0]] == [("ann lee", 3), ("cy dee", 1)]


def test_papers_by_ids_in_order(store):
    found = store.papers_by_ids(["p3", "missing", "p1"])
    assert [p and p.id for p in found] == ["p3", None, "p1"]
    assert found[2].title == "Fast Xray Methods" and found[2].year == 2024
    assert store.papers_by_ids(["p4"])[0].authors_truncated is True
    assert store.papers_by_ids(["p2"])[0].title is None


@pytest.mark.parametrize(
    ("flt", "expected"),
    [
        (PaperFilter(), ["p1", "p2", "p3", "p4"]),
        (PaperFilter(area="Theory"), ["p1", "p2"]),
        (PaperFilter(area="theory · game theory"), ["p1", "p2"]),
        (PaperFilter(area="Theory · Optimization"), ["p1"]),
        (PaperFilter(area="Optimization"), []),
        (PaperFilter(concept="zebra"), ["p3", "p2"]),  # heaviest mention first
        (PaperFilter(concept="xray method"), ["p1", "p2"]),
        (PaperFilter(author="bo chen"), ["p1", "p2"]),
        (PaperFilter(author="bo chen", concept="zebra"), ["p2"]),
        (PaperFilter(text="XRAY methods"), ["p1", "p2"]),
        (PaperFilter(text="zebra", area="Applications"), ["p3"]),
        (PaperFilter(author="nobody"), []),
        (PaperFilter(year_from=2024), ["p1"]),
        (PaperFilter(year_to=2023), ["p3", "p4"]),
        (PaperFilter(year_from=2023, year_to=2023, venue="V"), ["p3"]),
        (PaperFilter(venue="v"), []),  # venues match exactly, as the facets list them
        (PaperFilter(order="citations"), ["p3", "p1", "p4", "p2"]),  # no count last
        (PaperFilter(order="year"), ["p1", "p3", "p4", "p2"]),  # newest first, then by id
        (PaperFilter(concept="zebra", order="citations"), ["p3", "p2"]),
        (PaperFilter(area="Theory", order="citations"), ["p1", "p2"]),
    ],
)
def test_find_papers_filters(store, flt, expected):
    page = store.find_papers(flt, 0, 10)
    assert ids(page) == expected and page.total == len(expected)


def test_paper_facets(store):
    facets = store.paper_facets(PaperFilter())
    assert facets.years == [(2023, 2), (2024, 1)] and facets.venues == [("V", 2), ("W", 1)]
    assert store.paper_facets(PaperFilter(author="bo chen")) == Facets([(2024, 1)], [("V", 1)])
    assert store.paper_facets(PaperFilter(year_from=2030)) == Facets([], [])


def test_citations_and_institutions(store):
    assert [p.citations for p in store.papers_by_ids(["p1", "p2", "p3", "p4"])] == [10, None, 50, 0]
    rows = store.institutions_of_authors(["bo chen", "ann lee", "di eve"])
    assert [[(i.name, n) for i, n in row] for row in rows] == [[("MIT", 2), ("ETH Zurich", 1)], [("MIT", 1)], []]
    store.apply(GraphBatch(institutions=[Institution("mit", "MIT")], affiliated={("ann lee", "mit"): 1}))
    assert [(i.key, n) for i, n in store.institutions_of_authors(["ann lee"])[0]] == [("mit", 2)]


def test_find_papers_pages(store):
    page = store.find_papers(PaperFilter(), 1, 2)
    assert ids(page) == ["p2", "p3"] and page.total == 4
    assert ids(store.find_papers(PaperFilter(), 4, 2)) == []


def test_find_authors_by_paper_count(store):
    page = store.find_authors(None, 0, 10)
    assert [a.key for a in page.items] == ["bo chen", "cy dee", "ann lee", "di eve"]
    assert [a.key for a in store.find_authors("CHEN", 0, 10).items] == ["bo chen"]


def test_find_concepts_by_paper_count(store):
    page = store.find_concepts(None, 0, 3)
    assert [c.key for c in page.items] == ["xray method", "zebra", "whale song"] and page.total == 5
    assert [c.key for c in store.find_concepts("x-ray", 0, 10).items] == ["xray method"]


def test_resolve_concept(store):
    from kg.service import concept_lookup_terms

    def resolve(name):
        return store.resolve_concept(*concept_lookup_terms(name))

    assert resolve("Xray Methods") == "xray method"
    assert resolve("ws") == "whale song"
    assert resolve("XM") == "xray method"  # shared alias: most papers wins
    assert resolve("nothing like it") is None


def test_batched_relations(store):
    assert [[a.key for a in row] for row in store.authors_of_papers(["p1", "p2", "zz"])] == [
        ["ann lee", "bo chen"],
        ["cy dee", "bo chen"],
        [],
    ]
    assert [[a.path for a in row] for row in store.areas_of_papers(["p1", "p4"])] == [
        ["Theory · Game Theory", "Theory · Optimization"],
        [],
    ]
    assert [[c.key for c in row] for row in store.concepts_of_papers(["p1", "p2"])] == [
        ["xray method", "yak"],
        ["zebra", "xray method"],
    ]
    assert [[p.id for p in row] for row in store.papers_of_authors(["bo chen", "di eve", "zz"])] == [["p1", "p2"], ["p4"], []]
    assert store.paper_counts_of_authors(["bo chen", "ann lee", "zz"]) == [2, 1, 0]
    assert store.paper_counts_of_concepts(["zebra", "method family", "zz"]) == [2, 0, 0]


def test_concepts_keep_aliases_and_broader(store):
    [c] = store.concepts_by_keys(["xray method"])
    assert c.name == "xray method" and set(c.aliases) == {"XM", "x-ray method"} and c.broader == "method family"


def test_related_papers_best_first_never_self(store):
    rows = store.related_papers(["p2", "p1", "p4"], 10)
    assert [(r.paper_id, r.score, r.shared) for r in rows[0]] == [("p1", 1.5, ("xray method",)), ("p3", 1.2, ("zebra",))]
    assert [r.paper_id for r in rows[1]] == ["p2"]
    assert rows[2] == []
    assert len(store.related_papers(["p2"], 1)[0]) == 1


def test_shared_edges_are_added_and_updated(store):
    store.apply(GraphBatch(shared={("p1", "p3"): (0.7, ("zebra",)), ("p1", "p2"): (1.6, ("xray method",))}))
    assert shared_edges(store) == {
        ("p1", "p2"): (1.6, ("xray method",)),
        ("p1", "p3"): (0.7, ("zebra",)),
        ("p2", "p3"): (1.2, ("zebra",)),
    }
    assert store.stats().shared_concept_edges == 3


def test_related_concepts(store):
    rows = store.related_concepts(["xray method", "whale song"], 10)
    assert [(r.concept_key, r.shared_papers) for r in rows[0]] == [("yak", 1), ("zebra", 1)]
    assert rows[1] == []


def test_areas(store):
    assert [a.path for a in store.top_areas()] == ["Applications", "Theory"]
    assert [[a.path for a in row] for row in store.children_of_areas(["Theory", "Theory · Optimization"])] == [
        ["Theory · Game Theory", "Theory · Optimization"],
        [],
    ]
    assert store.paper_counts_of_areas(["Theory", "Theory · Game Theory", "Applications", "nope"]) == [2, 2, 1, 0]
    [area] = store.areas_by_paths(["Theory · Game Theory"])
    assert area.name == "Game Theory" and area.parent == "Theory"


def test_coauthors_and_network(store):
    assert [(c.author_key, c.joint_papers) for c in store.coauthors_of(["bo chen"])[0]] == [("ann lee", 1), ("cy dee", 1)]
    net = store.coauthor_network("ann lee", 1)
    assert [a.key for a in net.nodes] == ["ann lee", "bo chen"] and net.edges == [("ann lee", "bo chen", 1)]
    net = store.coauthor_network("ann lee", 2)
    assert [a.key for a in net.nodes] == ["ann lee", "bo chen", "cy dee"]
    assert net.edges == [("ann lee", "bo chen", 1), ("bo chen", "cy dee", 1)]
    assert store.coauthor_network("nobody", 2).nodes == []
    # With a limit the store keeps the nearest authors (then most co-authors) and says how many there were.
    capped = store.coauthor_network("cy dee", 2, limit=2)
    assert [a.key for a in capped.nodes] == ["bo chen", "cy dee"] and capped.edges == [("bo chen", "cy dee", 1)]
    assert capped.within == 3 and store.coauthor_network("cy dee", 2, limit=5).within == 3


def test_collaboration_path(store):
    assert [a.key for a in store.collaboration_path("ann lee", "cy dee")] == ["ann lee", "bo chen", "cy dee"]
    assert [a.key for a in store.collaboration_path("cy dee", "cy dee")] == ["cy dee"]
    assert store.collaboration_path("ann lee", "di eve") is None
    assert store.collaboration_path("ann lee", "nobody") is None


def test_search_finds_words_best_first(store):
    hits = store.search("xray methods", 10)
    assert [pid for pid, _ in hits][:2] == ["p1", "p2"] or [pid for pid, _ in hits][:2] == ["p2", "p1"]
    assert {pid for pid, _ in hits} == {"p1", "p2"} and all(score > 0 for _, score in hits)
    assert hits[0][1] >= hits[1][1]
    assert store.search("whales", 10)[0][0] == "p4"


def test_papers_with_concepts(store):
    found = store.papers_with_concepts(["zebra", "whale song", "nothing"])
    assert found == {"zebra": [("p2", 1.2, 0.0), ("p3", 1.5, 0.5)], "whale song": [("p4", 1.0, 0.0)]}


def test_topics_of_papers(store):
    assert store.topics_of_papers(["p1", "p2", "zz"]) == {"p1": "f38C"}  # p2 has none, zz is absent
    assert store.papers_by_ids(["p1"])[0].topic == ""  # reads leave it out: only ingest asks for it


def test_existing_papers_and_postings(store):
    assert store.existing_papers(["p1", "zz"]) == {"p1"}
    postings = concept_postings(store)
    assert sorted(postings["p1"]) == ["xray method", "yak"] and postings["p4"] == ["whale song"]


def test_source_author_ids_keep_their_first_author(store):
    store.apply(GraphBatch(author_ids={"s2:1": "ann lee"}))
    store.apply(GraphBatch(author_ids={"s2:1": "bo chen", "orcid:0000-0002-1825-0097": "bo chen"}))
    found = store.author_keys_of_ids(["s2:1", "orcid:0000-0002-1825-0097", "s2:404"])
    assert found == {"s2:1": "ann lee", "orcid:0000-0002-1825-0097": "bo chen"}


def test_lists_side_by_side_equal_each_list_alone(store):
    ids = ["p1", "p2", "zz", "p1"]
    assert store.lists_of("paper", ids, ["concepts", "authors", "areas"]) == {
        "authors": store.authors_of_papers(ids),
        "areas": store.areas_of_papers(ids),
        "concepts": store.concepts_of_papers(ids),
    }
    assert store.lists_of("paper", ids, ["areas"]) == {"areas": store.areas_of_papers(ids)}
    keys = ["ann lee", "bo chen", "nobody", "bo chen"]
    assert store.lists_of("author", keys, ["papers", "coauthors"]) == {
        "papers": store.papers_of_authors(keys),
        "coauthors": store.coauthors_of(keys),
    }
    with pytest.raises(ValueError):
        store.lists_of("paper", ids, ["coauthors"])


def test_papers_per_year_of_authors_and_concepts(store):
    # p1 (2024) and p2 (no year) are Bo Chen's; zebra is on p2 and p3 (2023); unknown keys give []
    assert store.paper_years("author", ["bo chen", "cy dee", "nobody"]) == [[(2024, 1)], [(2023, 1)], []]
    assert store.paper_years("concept", ["zebra", "xray method", "whale song"]) == [[(2023, 1)], [(2024, 1)], [(2023, 1)]]


def test_concept_counts_of_a_selection(store):
    assert store.concept_counts(PaperFilter()) == (4, {"xray method": 2, "yak": 1, "zebra": 2, "whale song": 1})
    assert store.concept_counts(PaperFilter(year_from=2023, year_to=2023)) == (2, {"zebra": 1, "whale song": 1})
    assert store.concept_counts(PaperFilter(year_from=2023), venues={"V"}) == (2, {"xray method": 1, "yak": 1, "zebra": 1})
    assert store.concept_counts(PaperFilter(area="Theory")) == (2, {"xray method": 2, "yak": 1, "zebra": 1})
    assert store.concept_counts(PaperFilter(year_from=1990, year_to=1991)) == (0, {})


def test_degree_histograms(store):
    assert store.degree_histograms() == {
        "papers_per_author": {1: 2, 2: 2},  # ann lee, di eve: 1; bo chen, cy dee: 2
        "authors_per_paper": {2: 2, 1: 2},
        "concepts_per_paper": {2: 2, 1: 2},
        "references_per_paper": {},
    }


def test_minor_mentions_come_after_the_key_concepts_and_count_everywhere(store):
    """A concept a paper names below its key ones (``GraphBatch.minor_mentions``) is no key concept of it, is
    listed after them when every concept is asked for, and counts wherever papers of a concept are counted;
    the embedded store keeps the mark when read again from its files."""
    store.apply(GraphBatch(minor_mentions=[("p1", "zebra", 0.3), ("p1", "whale song", 0.01), ("p3", "yak", 0.2)]))

    def check(s):
        assert [[c.key for c in row] for row in s.concepts_of_papers(["p1", "p3"])] == [["xray method", "yak"], ["zebra"]]
        every = s.concepts_of_papers(["p1", "p3", "zz"], 10)
        assert [[c.key for c in row] for row in every] == [["xray method", "yak", "zebra", "whale song"], ["zebra", "yak"], []]
        assert [[c.key for c in row] for row in s.concepts_of_papers(["p1"], 3)] == [["xray method", "yak", "zebra"]]
        assert s.paper_counts_of_concepts(["zebra", "yak", "whale song"]) == [3, 2, 2]
        assert ids(s.find_papers(PaperFilter(concept="whale song"), 0, 10)) == ["p4", "p1"]  # heaviest mention first

    check(store)
    if hasattr(store, "data_dir"):  # the embedded store, read again from its log
        from kg.store.embedded import EmbeddedStore

        again = EmbeddedStore(store.data_dir)
        check(again)
        again.close()


def test_related_papers_and_coauthors_answered_whole(store):
    """One answer each, with papers, concepts and people read: what the API, its plans and the CLI all show."""
    [p2, none] = store.related_answers(["p2", "zz"], 10)
    assert [(r.paper.id, r.paper.title, r.score, [c.name for c in r.shared]) for r in p2] == [
        ("p1", "Fast Xray Methods", 1.5, ["xray method"]),
        ("p3", store.papers_by_ids(["p3"])[0].title, 1.2, ["zebra"]),
    ]
    assert none == [] and [r.paper.id for r in store.related_answers(["p2"], 1)[0]] == ["p1"]
    assert [r.year for r in p2] == [r.paper.year for r in p2] and p2[0].year == 2024
    [bo] = store.coauthor_answers(["bo chen"], 1)
    assert [(c.author.key, c.author.name, c.joint_papers) for c in bo] == [("ann lee", "Ann Lee", 1)]


def test_a_read_tree_answers_as_its_reads_do(store):
    """``read_tree`` (Neo4j: one query) equals the level-by-level answer through the batched reads, kind by kind."""
    from kg.store.reads import Read, read_level_by_level

    paper = Read("paper.related", "r", (Read("related.paper", "rp", abstract=True), Read("related.shared", "rs")), first=5)
    tree = [
        Read(
            "paper",
            "a",
            (
                Read(
                    "paper.authors",
                    "au",
                    (Read("author.paper_count", "n"), Read("author.coauthors", "co", (Read("coauthor.author", "ca"),), first=2)),
                ),
                Read("paper.areas", "ar"),
                Read("paper.concepts", "c", (Read("concept.broader", "b"), Read("concept.paper_count", "cn"))),
                Read("paper.mentions", "m", first=3),
                paper,
            ),
            keys=("p2",),
        ),
        Read("author", "b", (Read("author.papers", "ap", (paper,)),), keys=("bo chen",)),
        Read("concept", "c", (Read("concept.papers", "cp", window=(0, 1), total=True),), keys=("nothing", "zebra")),
        Read("concept", "d", keys=(), names=("x-ray method",)),
        Read("papers", "e", window=(1, 2), total=True, filter=PaperFilter()),
        Read("paper", "g", keys=("zz",)),
    ]
    level = read_level_by_level(store, tree)
    before = getattr(store, "queries_run", 0)
    assert view(store.read_tree(tree)) == view(level)
    # Neo4j: the whole tree in one query, and a concept known only by its names looked up and the tree read again
    assert store.kind != "neo4j" or store.queries_run - before == 3
    filtered = [Read("papers", "f", (Read("paper.authors", "au"),), window=(0, 5), total=True, filter=PaperFilter(area="Theory"))]
    assert view(store.read_tree(filtered)) == view(read_level_by_level(store, filtered))  # Neo4j: level by level
    assert [x["_"].id for x in store.read_tree(filtered)["f"]["items"]] == ["p1", "p2"]
    assert [x["_"].key for x in level["a"]["au"]] == ["cy dee", "bo chen"] and level["d"]["_"].key == "xray method"
    assert [x["_"].id for x in level["c"]["cp"]["items"]] == ["p3", "p2"] and level["c"]["cp"]["total"] == 2
    assert level["g"] is None and level["e"]["total"] == 4


def view(found):
    """A read tree's answer with each model as what a response shows of it (its key and name, a link's number)."""
    if isinstance(found, list):
        return [view(x) for x in found]
    if not isinstance(found, dict):
        return found
    return {k: _shown(x) if k == "_" else view(x) for k, x in found.items()}


def _shown(model):
    if isinstance(model, dict):  # a page's window
        return model
    for link in ("score", "joint_papers"):
        if hasattr(model, link):
            return getattr(model, link)
    key = next(getattr(model, a) for a in ("id", "key", "path") if hasattr(model, a))
    return (type(model).__name__, key, getattr(model, "label", None) or getattr(model, "name", None))
