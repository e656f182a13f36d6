"""Reads beside catch-up: many threads read the graph at once; applying what another process committed
waits until none is reading, and new reads wait while it runs.

The API reads the embedded store in worker threads (so the event loop, and ``/healthz``, stay free),
while the graph is brought up to date in place. A thread that already reads may read again (a read
calls other reads), and never catches up itself: the graph stays as it was when its read began.
"""

from __future__ import annotations

import threading
from collections.abc import Iterator
from contextlib import contextmanager

__all__ = ["Readers"]


class Readers:
    """A readers-writer lock that prefers the writer, re-entrant for readers.

    >>> readers = Readers()
    >>> with readers.read():
    ...     with readers.read():
    ...         readers.reading()
    True
    >>> with readers.exclusive():
    ...     readers.reading()
    False
    """

    def __init__(self) -> None:
        self._changed = threading.Condition()
        self._active = 0  # threads inside a read
        self._writing = False
        self._waiting_writers = 0
        self._mine = threading.local()

    def reading(self) -> bool:
        """Whether the calling thread is inside a read."""
        return getattr(self._mine, "depth", 0) > 0

    def busy(self) -> bool:
        """Whether some thread reads now (a writer would have to wait)."""
        return self._active > 0

    @contextmanager
    def read(self) -> Iterator[None]:
        depth = getattr(self._mine, "depth", 0)
        if depth == 0:
            with self._changed:
                self._changed.wait_for(lambda: not self._writing and not self._waiting_writers)
                self._active += 1
        self._mine.depth = depth + 1
        try:
            yield
        finally:
            self._mine.depth = depth
            if depth == 0:
                with self._changed:
                    self._active -= 1
                    self._changed.notify_all()

    @contextmanager
    def exclusive(self) -> Iterator[None]:
        """Alone: once the reads in flight end; reads that start meanwhile wait. Never from inside a read."""
        if self.reading():
            raise RuntimeError("a reading thread cannot take the graph for writing")
        with self._changed:
            self._waiting_writers += 1
            try:
                self._changed.wait_for(lambda: not self._active and not self._writing)
            finally:
                self._waiting_writers -= 1
            self._writing = True
        try:
            yield
        finally:
            with self._changed:
                self._writing = False
                self._changed.notify_all()
