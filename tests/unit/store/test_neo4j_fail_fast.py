"""While Neo4j is down, reads fail at once instead of each waiting out a connection timeout."""

from __future__ import annotations

import pytest
from neo4j.exceptions import ServiceUnavailable

from kg.errors import StoreUnavailable
from kg.store.neo4j import store as neo4j_store
from kg.store.neo4j.store import Neo4jStore


class DownDriver:
    def __init__(self) -> None:
        self.calls = 0

    def session(self, *args, **kwargs):
        self.calls += 1
        raise ServiceUnavailable("connection refused")

    def verify_connectivity(self):
        self.calls += 1
        raise ServiceUnavailable("connection refused")


def test_reads_fail_fast_after_a_failed_connection(monkeypatch):
    driver = DownDriver()
    store = Neo4jStore(driver)
    with pytest.raises(StoreUnavailable):
        store.stats()
    for _ in range(20):
        with pytest.raises(StoreUnavailable, match="moments ago"):
            store.stats()
    assert driver.calls == 1  # one probe, not one connection attempt per request
    clock = [neo4j_store.time.monotonic() + neo4j_store.FAIL_FAST_SECONDS + 0.1]
    monkeypatch.setattr(neo4j_store.time, "monotonic", lambda: clock[0])
    with pytest.raises(StoreUnavailable):
        store.stats()
    assert driver.calls == 2  # after the window, one new probe
