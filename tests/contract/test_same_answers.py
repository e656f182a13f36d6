"""The seeds in both stores give identical GraphQL answers (ids, counts, related papers, paths)."""

from __future__ import annotations

import pytest
from fastapi.testclient import TestClient

from kg.api.app import create_app
from kg.errors import StoreError
from kg.service import KGService
from kg.store.embedded import EmbeddedStore
from kg.store.neo4j import writes

from helpers import ROOT, SAMPLES, shared_edges, concept_postings
from neo4j_support import neo4j_settings

FIXTURES = ROOT / "tests" / "fixtures"
FACETS = "{ paperFacets { years { year papers } venues { venue papers } } f: paperFacets(filter: {yearFrom: 2021}) { years { year papers } } }"
FILTERS = '{ papers(filter: {yearFrom: 2011, yearTo: 2021}) { totalCount edges { node { id year venue citations } } } v: papers(filter: {venue: "ACL 2022"}) { totalCount edges { node { id } } } }'
ORDERS = "{ c: papers(orderBy: CITATIONS, first: 8) { edges { node { id citations } } } y: papers(orderBy: YEAR, first: 8) { edges { node { id year } } } }"
INSTITUTIONS = '{ a: author(name: "Ryan Cotterell") { institutions { name papers } } b: author(name: "Wei Lin") { institutions { name papers } } }'
SUGGEST = '{ a: suggest(prefix: "SAM") { kind id label papers } b: suggest(prefix: "first-ord", first: 3) { kind id label papers } c: suggest(prefix: "hyvä") { kind id } d: suggest(prefix: "wei l") { kind id } e: suggest(prefix: "Hyvarinen") { kind id } f: suggest(prefix: "aapo HYVÄ") { kind id } }'
NETWORK = '{ author(name: "Wei Lin") { network(depth: 2, first: 3) { totalNodes nodes { id } edges { source target weight } communities } } }'
QUERIES = [
    "{ stats { papers authors concepts researchAreas coauthorEdges sharedConceptEdges } }",
    "{ papers(first: 100) { totalCount pageInfo { hasNextPage endCursor } edges { cursor node { id title label abstract authorsTruncated authors { id name } areas { id path } concepts { id name aliases } } } } }",
    "{ papers(first: 100) { edges { node { id related(first: 100) { score paper { id } sharedConcepts { id } } } } } }",
    "{ authors(first: 100) { totalCount edges { node { id name paperCount papers { id } coauthors { jointPapers author { id } } } } } }",
    '{ authors(first: 100, after: "b2Zmc2V0Ojk5") { totalCount edges { node { id paperCount } } } }',
    '{ authors(search: "zhang", first: 50) { totalCount edges { node { id } } } }',
    "{ concepts(first: 100) { totalCount edges { node { id name aliases paperCount broader { id } } } } }",
    '{ concepts(search: "order", first: 100) { totalCount edges { node { id paperCount related(first: 5) { sharedPapers concept { id } } } } } }',
    "{ researchAreas { id name path paperCount parent { id } children { id name path paperCount parent { id } papers(first: 3) { totalCount edges { node { id } } } } papers(first: 50) { totalCount edges { node { id } } } } }",
    '{ a: concept(name: "SAM") { id papers { totalCount edges { node { id } } } } b: concept(name: "first-order methods") { id paperCount papers(first: 3) { totalCount edges { node { id } } } } c: concept(name: "nothing at all") { id } }',
    '{ author(name: "Wei LIN") { id network(depth: 2) { nodes { id } edges { source target weight } } } }',
    '{ author(name: "Yiding Jiang") { network(depth: 3) { nodes { id } edges { source target weight } } } }',
    '{ p: collaborationPath(from: "Wei Lin", to: "Hong Xu") { id } q: collaborationPath(from: "Wei Lin", to: "Sam Kwong") { id } r: collaborationPath(from: "Zijian Liu", to: "Zijian Liu") { id } }',
    '{ papers(filter: {area: "Optimization", concept: "zeroth-order optimization"}) { totalCount edges { node { id } } } }',
    '{ papers(filter: {author: "feiyang wu"}) { totalCount edges { node { id areas { path } } } } }',
    '{ papers(filter: {text: "sharpness minimization"}) { totalCount edges { node { id } } } }',
    '{ papers(filter: {area: "theory · everything else"}, first: 1) { totalCount pageInfo { hasNextPage } } }',
    FACETS,
    FILTERS,
    ORDERS,
    INSTITUTIONS,  # from tests/fixtures/facets.jsonl
    SUGGEST,
    NETWORK,  # the explorer's
]


def run(client: TestClient, query: str) -> dict:
    body = client.post("/graphql", json={"query": query}).json()
    assert "errors" not in body, body
    return body["data"]


@pytest.fixture(scope="module")
def both(tmp_path_factory, extractor, neo4j_driver):
    from kg.store.neo4j.store import Neo4jStore
    from neo4j_support import wipe

    wipe(neo4j_driver)
    base = tmp_path_factory.mktemp("both")
    neo = KGService(Neo4jStore.from_settings(neo4j_settings(base)), neo4j_settings(base), extractor=extractor)
    emb_settings = neo4j_settings(base).model_copy(update={"neo4j_uri": None})
    emb = KGService(EmbeddedStore(base / "kg-data"), emb_settings, extractor=extractor)
    for svc in (neo, emb):
        svc.ingest([SAMPLES / "000_5a0f2845ea482b21.txt"])
        svc.ingest([SAMPLES / "004_2af217a499316a6e.txt"])
        svc.ingest([FIXTURES / "facets.jsonl"])
    with TestClient(create_app(neo)) as n, TestClient(create_app(emb)) as e:
        yield n, e, neo, emb
    neo.store.close()


# Compiled plans (kg/api/graphql/plan.py) must answer exactly as graphql-core's resolvers do.
PLANNED = [
    "query($id: ID!) { paper(id: $id) { __typename id title label abstract venue citations year authorsTruncated "
    "authors { id name paperCount papers { id } coauthors { jointPapers author { id name } } } areas { id name path } "
    "concepts { id name aliases paperCount broader { id name } b: broader { id } papers(first: 2) { totalCount pageInfo { hasNextPage endCursor } "
    "edges { cursor node { id } } } } related(first: 4) { score year paper { id label venue citations year authorsTruncated } sharedConcepts { id name } } } }",
    "query($id: ID!) { paper(id: $id) { ...P x: related { paper { ...P } } } } fragment P on Paper { id ... on Paper { title } "
    "authors { name } authors { id } }",
    '{ papers(first: 7, after: "b2Zmc2V0OjI=", orderBy: YEAR, filter: {yearFrom: 2010}) { totalCount pageInfo { hasNextPage endCursor } '
    'edges { cursor node { id year venue citations title concepts { id } } } } b: papers(filter: {concept: "SAM"}) { edges { node { id } } } }',
    '{ a: author(name: "Wei  LIN") { id name paperCount coauthors { jointPapers author { id paperCount } } papers { id } } '
    'b: author(name: "no such person") { id } }',
    '{ a: concept(name: "SAM") { id name aliases papers(first: 3) { edges { node { id authors { name } } } } } '
    'b: concept(name: "nothing at all") { id } }',
    '{ paper(id: "no such paper") { id } }',
    "{ papers(first: 6, orderBy: CITATIONS) { edges { node { id venue citations authorsTruncated } } } }",  # no abstract read
    '{ author(name: "Wei Lin") { c: coauthors(first: 2) { jointPapers author { id } } d: coauthors { author { id } } '
    "e: coauthors(first: 0) { jointPapers } } }",  # a co-author list cut at `first`
    '{ a: author(id: "wei lin") { id name paperCount } b: author(id: "Wei LIN") { id } }',  # an id is exact: no name resolved
]
BY_KEY = '{ concept(name: "Sharpness-Aware  Minimization") { id name papers(first: 3) { edges { node { id } } } } }'
BAD = [  # a plan raises; graphql-core answers, with the error at its path
    "{ papers(first: 1000) { edges { node { id } } } }",
    '{ papers(after: "nonsense") { edges { node { id } } } }',
    "query($id: ID!) { paper(id: $id) { related(first: -1) { score } } }",
    '{ author(name: "Wei Lin") { coauthors(first: 101) { jointPapers } } }',
]


def test_plans_answer_as_graphql_core_does(both):
    from kg.api.graphql.schema import PLAN_COUNTS

    n, e, neo, emb = both
    with TestClient(create_app(neo, plans=False)) as n_plain, TestClient(create_app(emb, plans=False)) as e_plain:
        paper_id = run(e_plain, '{ papers(first: 1, filter: {author: "Wei Lin"}) { edges { node { id } } } }')["papers"]["edges"][
            0
        ]["node"]["id"]
        for planned, plain in ((n, n_plain), (e, e_plain)):
            before = PLAN_COUNTS["answered"]
            for query in PLANNED + QUERIES + [BY_KEY]:
                body = {"query": query, "variables": {"id": paper_id}}
                assert planned.post("/graphql", json=body).json() == plain.post("/graphql", json=body).json(), query
            assert PLAN_COUNTS["answered"] - before >= len(PLANNED) + 4  # the QUERIES a plan covers count too
            handed_back = PLAN_COUNTS["handed back"]
            for query in BAD:
                body = {"query": query, "variables": {"id": paper_id}}
                got = planned.post("/graphql", json=body).json()
                assert got == plain.post("/graphql", json=body).json() and got["errors"][0]["path"], query
            assert PLAN_COUNTS["handed back"] - handed_back == len(BAD)
    # On Neo4j a whole compiled operation is one query, a concept named by its key included. A name
    # that spells no stored key costs a lookup among names and aliases, and one more run if found. A person
    # asked for by name is read in that query too, by the key the name spells, beside the people of the name's
    # blocks it is then resolved by (kg.authors.lookup); a name written the way ids are (lower case) that is no
    # one's id costs one more, for ids merged away (kg authors merge).
    # A name that means someone whose key it does not spell (an initial: "W. Lin" is wei lin) is read again.
    initial = '{ author(name: "W. Lin") { id name papers { id } } }'
    assert run(n, initial) == run(e, initial) and run(n, initial)["author"]["id"] == "wei lin"
    for query, cost in ((initial, 2), (PLANNED[0], 1), (PLANNED[1], 1), (PLANNED[3], 1 + 1), (BY_KEY, 1), (PLANNED[4], 4)):
        before = neo.store.queries_run
        got = n.post("/graphql", json={"query": query, "variables": {"id": paper_id}}).json()
        assert "errors" not in got and neo.store.queries_run - before == cost, query
    assert got["data"]["a"]["name"] == "sharpness-aware minimization" and got["data"]["b"] is None


@pytest.mark.parametrize("query", QUERIES)
def test_identical_answers(both, query):
    n, e, _, _ = both
    assert run(n, query) == run(e, query)


def test_facets_order_and_institutions_answer_what_the_file_says(both):
    n, e, _, _ = both
    for client in (n, e):
        data = run(client, FACETS)
        assert [(y["year"], y["papers"]) for y in data["paperFacets"]["years"]] == [
            (2010, 1),
            (2011, 1),
            (2012, 1),
            (2021, 1),
            (2022, 2),
        ]
        assert data["paperFacets"]["venues"][0] == {"venue": "AAAI 2022", "papers": 1}
        assert [(y["year"], y["papers"]) for y in data["f"]["years"]] == [(2021, 1), (2022, 2)]
        top = run(client, ORDERS)["c"]["edges"]
        assert [x["node"]["citations"] for x in top[:3]] == [25, 24, 22]
        people = run(client, INSTITUTIONS)
        assert people["a"]["institutions"] == [{"name": "University of Cambridge", "papers": 1}]
        assert people["b"]["institutions"] == []


def test_suggest_and_network_answer_what_the_data_says(both):
    n, e, _, _ = both
    for client in (n, e):
        data = run(client, SUGGEST)
        assert (
            data["a"][0]
            == {
                "kind": "CONCEPT",
                "id": "sharpness aware minimization",
                "label": "sharpness-aware minimization",
                "papers": data["a"][0]["papers"],
            }
            and data["a"][0]["papers"] >= 1
        )
        assert [s["kind"] for s in data["b"]].count("CONCEPT") <= 3
        assert {"kind": "AUTHOR", "id": "aapo hyvärinen"} in data["c"]
        # as people type names: accents and case folded both ways
        assert {"kind": "AUTHOR", "id": "aapo hyvärinen"} in data["e"] and {"kind": "AUTHOR", "id": "aapo hyvärinen"} in data["f"]
        assert {"kind": "AUTHOR", "id": "wei lin"} in data["d"]
        plain, inline, named = (
            run(client, '{ suggest(prefix: "wei l") { id ' + hint + " } }" + fragment)["suggest"]
            for hint, fragment in (
                ("hint", ""),
                ("... on Suggestion { hint }", ""),
                ("...H", " fragment H on Suggestion { hint }"),
            )
        )
        assert plain == inline == named and any(s["hint"] for s in plain)  # a hint asked inside a fragment is answered
        net = run(client, NETWORK)["author"]["network"]
        ids = {x["id"] for x in net["nodes"]}
        assert len(ids) == 3 < net["totalNodes"] == 5 and "wei lin" in ids
        assert sorted(k for c in net["communities"] for k in c) == sorted(ids)  # every author in one community
        assert all(x["source"] in ids and x["target"] in ids for x in net["edges"])


def test_search_agrees_on_the_best_hit(both):
    n, e, _, _ = both
    query = '{ search(query: "sharpness-aware minimization", first: 5) { score paper { id } } }'
    on_neo, on_emb = run(n, query)["search"], run(e, query)["search"]
    assert on_neo[0]["paper"]["id"] == on_emb[0]["paper"]["id"]
    assert all(hit["score"] > 0 for hit in on_neo)


def test_search_survives_lucene_syntax(both):
    n, _, _, _ = both
    data = run(n, '{ search(query: "AND (OR] \\"x~ first-order: *", first: 3) { paper { id } } }')
    assert isinstance(data["search"], list)


def test_ingesting_twice_changes_nothing_on_neo4j(both):
    _, _, neo, _ = both
    before = neo.store.stats(), shared_edges(neo.store), sorted(concept_postings(neo.store).items())
    summary = neo.ingest([SAMPLES])
    assert summary.papers_added == 0
    assert (neo.store.stats(), shared_edges(neo.store), sorted(concept_postings(neo.store).items())) == before


def test_failed_write_leaves_no_half_written_paper(neo4j_store, monkeypatch):
    from contract_data import contract_batch

    failing = writes.WRITES[:3] + (("papers", "UNWIND $rows AS row RETURN 1 / 0 AS boom"),) + writes.WRITES[3:]
    monkeypatch.setattr(writes, "WRITES", failing)
    with pytest.raises(StoreError):
        neo4j_store.apply(contract_batch())
    assert neo4j_store.stats().papers == 0 and neo4j_store.stats().authors == 0
