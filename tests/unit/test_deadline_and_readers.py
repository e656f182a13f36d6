"""A request's deadline stops long work between steps; catch-up waits for the embedded store's reads."""

from __future__ import annotations

import threading

import networkx as nx
import pytest

from kg import deadline
from kg.errors import DeadlineExceeded
from kg.graph.algorithms import within_depth
from kg.models import Author
from kg.service import network_view
from kg.store.base import Network
from kg.store.embedded.readers import Readers


@pytest.fixture
def expired():
    token = deadline.start(-1.0)
    yield
    deadline.stop(token)


def test_graph_walks_stop_past_the_deadline(expired):
    with pytest.raises(DeadlineExceeded):
        within_depth(nx.path_graph(10), 0, 3)
    with pytest.raises(DeadlineExceeded):
        network_view(Network([Author("a", "a"), Author("b", "b")], [("a", "b", 1)]))


def test_without_a_deadline_nothing_stops():
    assert deadline.remaining() is None
    assert within_depth(nx.path_graph(10), 0, 3) == {0: 0, 1: 1, 2: 2, 3: 3}


def test_the_deadline_reaches_a_worker_thread(expired):
    seen = []
    worker = threading.Thread(target=lambda: seen.append(deadline.remaining()))
    worker.start()
    worker.join()
    assert seen == [None]  # a plain thread starts with a fresh context: the API's workers copy theirs
    from contextvars import copy_context

    worker = threading.Thread(target=copy_context().run, args=(lambda: seen.append(deadline.remaining()),))
    worker.start()
    worker.join()
    assert seen[1] is not None


def test_a_writer_waits_for_the_reads_in_flight_and_new_reads_wait_for_it():
    readers = Readers()
    order: list[str] = []
    reading, writer_waiting = threading.Event(), threading.Event()
    finish_read = threading.Event()

    def read():
        with readers.read():
            order.append("read starts")
            reading.set()
            finish_read.wait(10)
            order.append("read ends")

    def write():
        reading.wait(10)
        writer_waiting.set()
        with readers.exclusive():
            order.append("write")

    threads = [threading.Thread(target=read), threading.Thread(target=write)]
    for t in threads:
        t.start()
    writer_waiting.wait(10)
    assert readers.busy() and order == ["read starts"]
    finish_read.set()
    for t in threads:
        t.join(10)
    with readers.read():
        order.append("later read")
    assert order == ["read starts", "read ends", "write", "later read"]


def test_a_reading_thread_cannot_write():
    readers = Readers()
    with readers.read(), pytest.raises(RuntimeError):
        with readers.exclusive():
            pass
