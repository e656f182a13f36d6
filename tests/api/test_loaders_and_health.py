"""No N+1: one store call per relation per request level; health reports the store."""

from __future__ import annotations

import time
from collections import Counter

from fastapi.testclient import TestClient

from kg.api.app import create_app
from kg.errors import StoreUnavailable
from kg.service import KGService
from kg.store.reads import read_level_by_level


class CountingStore:
    def __init__(self, inner) -> None:
        self.inner = inner
        self.calls: Counter[str] = Counter()

    def __getattr__(self, name):
        attr = getattr(self.inner, name)
        if not callable(attr):
            return attr

        def wrapper(*args, **kwargs):
            self.calls[name] += 1
            return attr(*args, **kwargs)

        return wrapper

    def read_tree(self, roots):
        """The store's level-by-level answer to a read tree, its reads made through this wrapper (and counted)."""
        self.calls["read_tree"] += 1
        return read_level_by_level(self, roots)


def test_n_parents_cost_one_loader_call(seeded_embedded):
    store = CountingStore(seeded_embedded.store)
    svc = KGService(store, seeded_embedded.settings, extractor=seeded_embedded.extractor)
    with TestClient(create_app(svc)) as client:
        query = "{ papers(first: 39) { edges { node { authors { name paperCount coauthors { jointPapers } } areas { path paperCount } concepts { name paperCount } related { paper { label } } } } } }"
        response = client.post("/graphql", json={"query": query})
    assert response.status_code == 200 and "errors" not in response.json()
    assert len(response.json()["data"]["papers"]["edges"]) == 39
    for method in (
        "related_answers",
        "coauthor_answers",
        "paper_counts_of_authors",
        "paper_counts_of_areas",
        "paper_counts_of_concepts",
    ):
        assert store.calls[method] == 1, (method, store.calls)
    # lists asked side by side come from one store call per level: the papers' authors, areas and concepts in one
    assert store.calls["lists_of"] == 1, store.calls
    assert store.calls["find_papers"] == 1


def test_health_is_503_when_the_store_is_down(seeded_embedded):
    class Down:
        kind = "neo4j"

        def check(self):
            raise StoreUnavailable("cannot reach bolt://127.0.0.1:1")

        degree_histograms = check  # what the server measures when it starts fails the same way

        def async_tree_reads(self, settings):
            return None

    svc = KGService(Down(), seeded_embedded.settings)
    with TestClient(create_app(svc)) as client:
        response = client.get("/healthz")
    assert response.status_code == 503 and response.json()["status"] == "unavailable"


def test_the_app_closes_the_store_it_owns_when_it_shuts_down(seeded_embedded):
    owned = CountingStore(seeded_embedded.store)
    with TestClient(create_app(KGService(owned, seeded_embedded.settings), owns_service=True)) as client:
        assert client.get("/healthz").status_code == 200
        assert owned.calls["close"] == 0
    assert owned.calls["close"] == 1
    shared = CountingStore(seeded_embedded.store)
    with TestClient(create_app(KGService(shared, seeded_embedded.settings))) as client:
        assert client.get("/healthz").status_code == 200
    assert shared.calls["close"] == 0  # not its own: the caller closes it


class SlowStore(CountingStore):
    """The lists' lengths (a start-up read) take half a second; what happens is listed in ``events``."""

    def __init__(self, inner, events: list[str]) -> None:
        super().__init__(inner)
        self.events = events

    def degree_histograms(self, *args, **kwargs):
        self.events.append("measuring")
        time.sleep(0.5)
        self.events.append("measured")
        return self.inner.degree_histograms(*args, **kwargs)

    def close(self):
        self.events.append("closed")


def test_the_store_is_closed_only_after_the_start_up_reads_end(seeded_embedded):
    # A Neo4j driver closed under a read in flight fails in that read's connection (BufferError in the
    # driver's send): shutdown waits for the read.
    events: list[str] = []
    with TestClient(
        create_app(KGService(SlowStore(seeded_embedded.store, events), seeded_embedded.settings), owns_service=True)
    ) as client:
        assert client.get("/healthz").status_code == 200  # starts the start-up reads
    assert events == ["measuring", "measured", "closed"]


def test_the_start_up_reads_begin_after_the_first_answer(seeded_embedded, monkeypatch):
    # They hold the GIL for long stretches: the first request (a health probe, say) is answered before them.
    import kg.api.app

    events: list[str] = []
    app = create_app(KGService(SlowStore(seeded_embedded.store, events), seeded_embedded.settings))
    with TestClient(app) as client:
        time.sleep(0.3)
        assert events == []
        assert client.get("/healthz").status_code == 200
        app.state.start_up.join(5)
    assert events == ["measuring", "measured"]
    monkeypatch.setattr(kg.api.app, "START_UP_AFTER", 0.1)  # no request at all: they begin anyway
    events.clear()
    app = create_app(KGService(SlowStore(seeded_embedded.store, events), seeded_embedded.settings))
    with TestClient(app):
        time.sleep(0.3)
        app.state.start_up.join(5)
    assert events == ["measuring", "measured"]


def test_total_count_is_counted_only_when_asked(seeded_embedded):
    store = CountingStore(seeded_embedded.store)
    svc = KGService(store, seeded_embedded.settings, extractor=seeded_embedded.extractor)
    total = seeded_embedded.stats().papers
    with TestClient(create_app(svc)) as client:

        def page(fields: str, first: int, after: str | None = None) -> dict:
            body = client.post(
                "/graphql",
                json={
                    "query": f"query($a: String) {{ papers(first: {first}, after: $a) {{ {fields} }} }}",
                    "variables": {"a": after},
                },
            ).json()
            assert "errors" not in body, body
            return body["data"]["papers"]

        first = page("edges { node { id } } pageInfo { hasNextPage endCursor }", total - 1)
        assert store.calls["count_papers"] == 0 and first["pageInfo"]["hasNextPage"] is True
        last = page("edges { node { id } } pageInfo { hasNextPage }", 5, first["pageInfo"]["endCursor"])
        assert len(last["edges"]) == 1 and last["pageInfo"]["hasNextPage"] is False and store.calls["count_papers"] == 0
        exact = page("pageInfo { hasNextPage }", total)
        assert exact["pageInfo"]["hasNextPage"] is False
        assert page("totalCount", 1)["totalCount"] == total and store.calls["count_papers"] == 1
