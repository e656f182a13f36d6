"""Time and the whole field over GraphQL, and a cost limit that reads how long the store's lists run."""

from __future__ import annotations

import logging

import pytest
from fastapi.testclient import TestClient

from kg.api.app import create_app
from kg.config import Settings
from kg.service import KGService
from kg.store.embedded import EmbeddedStore

from helpers import GraphQLClient
from overview_data import rising_batch


@pytest.fixture(scope="module")
def rising_dir(tmp_path_factory):
    folder = tmp_path_factory.mktemp("rising") / "kg-data"
    store = EmbeddedStore(folder)
    store.apply(rising_batch())
    store.close()
    return folder


def _serve(folder, **env):
    settings = Settings(KG_DATA_DIR=folder, **env)
    svc = KGService(EmbeddedStore(settings.data_dir), settings)
    app = create_app(svc, owns_service=True)
    with TestClient(app) as client:
        app.state.start_up.start()  # the store's list lengths are measured beside serving: now, and waited for
        app.state.start_up.join(60)
        yield GraphQLClient(client)


@pytest.fixture(scope="module")
def gql(rising_dir):
    yield from _serve(rising_dir)


def test_trending_concepts_with_their_windows_and_years(gql):
    [top] = gql("""{ trendingConcepts(first: 5) { concept { id } score papers earlierPapers share earlierShare
                     since until earlierFrom earlierTo venues timeline { year papers } } }""")["trendingConcepts"]
    assert top["concept"] == {"id": "rising"} and top["score"] > 2
    assert (top["since"], top["until"], top["earlierFrom"], top["earlierTo"], top["venues"]) == (2021, 2022, 2019, 2020, ["A"])
    assert (top["papers"], top["earlierPapers"], top["share"], top["earlierShare"]) == (12, 2, 0.6, 0.1)
    assert [y["year"] for y in top["timeline"]] == [2019, 2020, 2021, 2022]
    assert "`first` must be between 0 and 100" in gql.errors("{ trendingConcepts(first: 101) { score } }")[0]


def test_timelines_of_a_concept_and_an_author(gql):
    data = gql(
        '{ concept(name: "robot") { timeline { year papers share } } author(id: "ann") { timeline { year papers share } } }'
    )
    assert data["concept"]["timeline"] == [{"year": y, "papers": 20, "share": 20 / 30} for y in (2021, 2022)]
    assert data["author"]["timeline"] == [{"year": y, "papers": 10, "share": None} for y in range(2019, 2023)]


def test_field_map(gql):
    found = gql("{ fieldMap(first: 3) { concepts { concept { id } papers community } links { source target sharedPapers } } }")[
        "fieldMap"
    ]
    assert [(c["concept"]["id"], c["papers"]) for c in found["concepts"]] == [("robot", 40), ("steady", 20), ("rising", 14)]
    assert found["links"] == [{"source": "rising", "target": "steady", "sharedPapers": 12}]
    assert "between 0 and 300" in gql.errors("{ fieldMap(first: 301) { links { source } } }")[0]


def test_the_cost_counts_an_authors_papers_as_the_store_holds_them(rising_dir, caplog):
    gql = next(_serve(rising_dir, KG_GRAPHQL_MAX_COST=50))
    # Ann and Bo have 40 papers each: `papers` counts 40, not LIST_SIZE (10): 1 + 40 * (1 + 1) = 81 > 50
    [error] = gql.errors('{ author(id: "ann") { papers { id } } }')
    assert "may resolve up to 81 fields, the limit is 50" in error
    with caplog.at_level(logging.DEBUG, logger="kg.api.cost"):
        gql('{ author(id: "ann") { name paperCount } }')
    assert any("cost 3," in r.getMessage() for r in caplog.records), [r.getMessage() for r in caplog.records]
