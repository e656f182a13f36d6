"""A request's deadline reaches Neo4j: the server stops a read past it (the transaction's timeout)."""

from __future__ import annotations

import pytest

from kg import deadline
from kg.errors import DeadlineExceeded

pytestmark = pytest.mark.neo4j

HEAVY = "UNWIND range(1, 200000000) AS x RETURN sum(x) AS s"  # seconds of work on the server


def test_a_read_past_the_request_deadline_is_stopped_by_the_server(neo4j_store):
    token = deadline.start(0.2)
    try:
        with pytest.raises(DeadlineExceeded):
            neo4j_store._read(HEAVY)
    finally:
        deadline.stop(token)
    assert neo4j_store._read("RETURN 1 AS one")[0]["one"] == 1  # without a deadline (an ingest's reads) none applies


def test_no_read_starts_once_the_deadline_has_passed(neo4j_store):
    token = deadline.start(-1.0)
    try:
        with pytest.raises(DeadlineExceeded):
            neo4j_store._read("RETURN 1 AS one")
    finally:
        deadline.stop(token)
