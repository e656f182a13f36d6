"""One heavy request never stalls the server (issue 34): reads run off the event loop, and a request's
deadline stops its work, on both stores. Cancellation and answers are asserted, never milliseconds."""

from __future__ import annotations

import threading
import time

import pytest
from fastapi.testclient import TestClient

from kg.api.app import create_app
from kg.service import KGService
from kg.store.embedded import EmbeddedStore

from helpers import SAMPLES
from neo4j_support import neo4j_settings

WAIT = 30.0  # seconds a held read waits to be released before it gives up (the test then fails)


@pytest.fixture(scope="module", params=["embedded", pytest.param("neo4j", marks=pytest.mark.neo4j)])
def seeded(request, tmp_path_factory, extractor):
    base = tmp_path_factory.mktemp(f"heavy-{request.param}")
    settings = neo4j_settings(base).model_copy(update={"request_deadline": 1.0})
    if request.param == "embedded":
        store = EmbeddedStore(base / "kg-data")
        settings = settings.model_copy(update={"neo4j_uri": None})
    else:
        from kg.store.neo4j.store import Neo4jStore
        from neo4j_support import wipe

        driver = request.getfixturevalue("neo4j_driver")
        wipe(driver)
        store = Neo4jStore.from_settings(settings)
    service = KGService(store, settings, extractor=extractor)
    service.ingest([SAMPLES])
    yield service
    store.close()


class HeldNetworks:
    """The store's co-author networks, each held until released (or for ``hold`` seconds), counted."""

    def __init__(self, store, hold: float | None = None) -> None:
        self.original = store.coauthor_network
        self.hold = hold
        self.entered = threading.Event()
        self.release = threading.Event()
        self.calls = 0
        self.gave_up = False

    def __call__(self, *args, **kwargs):
        self.calls += 1
        self.entered.set()
        if self.hold is not None:
            time.sleep(self.hold)
        elif not self.release.wait(WAIT):
            self.gave_up = True
        return self.original(*args, **kwargs)


@pytest.fixture
def held(seeded, monkeypatch):
    def install(hold: float | None = None) -> HeldNetworks:
        networks = HeldNetworks(seeded.store, hold)
        monkeypatch.setattr(seeded.store, "coauthor_network", networks)
        return networks

    return install


def test_health_and_light_requests_answer_while_a_read_runs(seeded, held):
    networks = held()
    with TestClient(create_app(seeded)) as client:
        heavy = threading.Thread(
            target=client.post,
            args=("/graphql",),
            kwargs={"json": {"query": '{ author(name: "Wei Lin") { network(depth: 2) { totalNodes } } }'}},
        )
        heavy.start()
        try:
            assert networks.entered.wait(WAIT)
            assert client.get("/healthz").json()["status"] == "ok"
            light = client.post("/graphql", json={"query": "{ stats { papers } }"}).json()
            assert light["data"]["stats"]["papers"] > 0
            assert not networks.release.is_set() and not networks.gave_up  # both answered while the read was held
        finally:
            networks.release.set()
            heavy.join(WAIT)


def test_a_request_past_its_deadline_stops_its_work(seeded, held):
    from kg.api.graphql.loaders import READS_PER_REQUEST

    networks = held(hold=0.6)  # each network takes 0.6 s; the deadline is 1 s
    query = "{ authors(first: 40) { edges { node { network(depth: 1) { totalNodes } } } } }"  # 40 walks: within the cost limit
    with TestClient(create_app(seeded)) as client:
        body = client.post("/graphql", json={"query": query}).json()
        assert any("deadline" in e["message"] for e in body["errors"]), body["errors"][:3]
        started = networks.calls
        time.sleep(1.5)  # long enough for every read already started to end, and for any new one to start
        assert networks.calls == started  # nothing was started once the request gave up
    assert started <= 2 * READS_PER_REQUEST < 40  # one read at a time, two rounds before the deadline; the rest never ran


def test_networks_inside_a_network_cost_their_product_and_are_refused_before_running(seeded, held):
    networks = held(hold=0.0)
    nested = '{ author(name: "Wei Lin") { network(depth: 3) { nodes { network(depth: 3) { totalNodes } } } } }'
    with TestClient(create_app(seeded)) as client:
        body = client.post("/graphql", json={"query": nested}).json()
        assert body["data"] is None and "too expensive" in body["errors"][0]["message"]
        assert networks.calls == 0
        one = client.post("/graphql", json={"query": '{ author(name: "Wei Lin") { network(depth: 3) { totalNodes } } }'}).json()
        assert one["data"]["author"]["network"]["totalNodes"] > 1 and networks.calls == 1


def test_a_client_whose_heavy_work_spent_its_budget_gets_429_and_others_do_not(seeded, held):
    networks = held(hold=0.0)
    settings = seeded.settings.model_copy(
        update={"client_heavy_seconds": 1e-6, "light_request_seconds": 0.0, "api_keys": ["heavy", "light"]}
    )
    service = KGService(seeded.store, settings)
    query = {"query": '{ author(name: "Wei Lin") { network(depth: 3) { totalNodes communities } } }'}
    with TestClient(create_app(service)) as client:
        # admitted with its budget whole, the request spends it on its first read (the name's person): charged as it
        # goes, it is stopped before its network, and says why
        first = client.post("/graphql", json=query, headers={"X-API-Key": "heavy"})
        assert first.status_code == 200 and networks.calls == 0
        assert "budget" in first.json()["errors"][0]["message"]
        refused = [client.post("/graphql", json=query, headers={"X-API-Key": "heavy"}) for _ in range(3)]
        assert {r.status_code for r in refused} == {429} and networks.calls == 0
        assert int(refused[0].headers["retry-after"]) >= 1
        assert client.post("/graphql", json=query, headers={"X-API-Key": "light"}).status_code == 200  # another client
        assert client.get("/healthz").status_code == 200


def test_co_authors_four_deep_cost_their_product_and_a_co_author_list_is_cut_at_first(seeded):
    deep = '{ author(name: "Wei Lin") { coauthors { author { coauthors { author { coauthors { author { coauthors { author { name } } } } } } } } } }'
    with TestClient(create_app(seeded)) as client:
        body = client.post("/graphql", json={"query": deep}).json()
        assert body["data"] is None and "too expensive" in body["errors"][0]["message"]
        lists = client.post(
            "/graphql",
            json={
                "query": '{ author(name: "Wei Lin") { all: coauthors { author { id } } '
                "two: coauthors(first: 2) { author { id } } } }"
            },
        ).json()["data"]["author"]
        assert len(lists["all"]) > 2 and lists["two"] == lists["all"][:2]


def test_an_author_id_is_read_as_it_is_without_resolving_a_name(seeded, monkeypatch):
    def no_block_reads(*_args, **_kwargs):
        raise AssertionError("an id lookup read a name block")

    monkeypatch.setattr(seeded.store, "people_in_blocks", no_block_reads)
    for plans in (True, False):  # the compiled plan and graphql-core's resolvers
        with TestClient(create_app(seeded, plans=plans)) as client:
            body = client.post(
                "/graphql", json={"query": '{ a: author(id: "wei lin") { id name } b: author(id: "Wei LIN") { id } }'}
            ).json()
            assert body["data"] == {"a": {"id": "wei lin", "name": "Wei Lin"}, "b": None}, (plans, body)
