"""A request's deadline reaches Neo4j: the server stops a read past it (the transaction's timeout)."""

from __future__ import annotations

import pytest

from kg.errors import StoreError
from kg.store.base import READ_DEADLINE

pytestmark = pytest.mark.neo4j

HEAVY = "UNWIND range(1, 200000000) AS x RETURN sum(x) AS s"  # seconds of work on the server


def test_a_read_past_the_request_deadline_is_stopped_by_the_server(neo4j_store):
    token = READ_DEADLINE.set(0.2)
    try:
        with pytest.raises(StoreError, match="TransactionTimedOut|timed out|terminated"):
            neo4j_store._read(HEAVY)
    finally:
        READ_DEADLINE.reset(token)
    assert neo4j_store._read("RETURN 1 AS one")[0]["one"] == 1  # without a deadline (an ingest's reads) none applies
