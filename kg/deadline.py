"""A request's deadline, carried in a context variable into every thread that works for it.

The API starts one per GraphQL operation (``KG_REQUEST_DEADLINE``). Work that can run long checks
it between steps (each store read the API makes, each level of a compiled plan, each step of a
co-author network) and stops with ``DeadlineExceeded``; a Neo4j read also gets the time left as its
transaction timeout, so the server stops the query itself. Outside a request (an ingest, the CLI)
there is no deadline and the checks cost one context-variable lookup.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from contextvars import ContextVar, Token

from kg.errors import DeadlineExceeded

__all__ = ["DeadlineExceeded", "check", "remaining", "start", "stop", "metered"]

# (monotonic time it ends, the seconds it was set to) of the request this context works for.
_DEADLINE: ContextVar[tuple[float, float] | None] = ContextVar("kg_deadline", default=None)
# Called at each check with no argument, in the thread doing the work: the API charges that work to its client as it
# goes (``kg.api.fairness``), and may stop it there by raising (a client whose budget is spent).
_METER: ContextVar[Callable[[], None] | None] = ContextVar("kg_work_meter", default=None)


def metered(meter: Callable[[], None] | None) -> Token:
    """Have ``check`` call ``meter`` in this context (the thread a read runs in); ``stop`` the token after."""
    return _METER.set(meter)


def start(seconds: float) -> Token:
    """Give the calling context (and the threads it hands work to) ``seconds`` from now."""
    return _DEADLINE.set((time.monotonic() + seconds, seconds))


def stop(token: Token) -> None:
    token.var.reset(token)


def remaining() -> float | None:
    """Seconds left (at least a millisecond, so a store timeout is never zero), or None without a deadline."""
    found = _DEADLINE.get()
    return None if found is None else max(found[0] - time.monotonic(), 0.001)


def check() -> None:
    """Raise ``DeadlineExceeded`` once the deadline has passed.

    >>> token = start(-1.0)
    >>> check()
    Traceback (most recent call last):
    ...
    kg.errors.DeadlineExceeded: the operation ran past its -1 s deadline (KG_REQUEST_DEADLINE); ask for less
    >>> stop(token); check()
    """
    found = _DEADLINE.get()
    if found is not None and time.monotonic() > found[0]:
        raise DeadlineExceeded(found[1])
    meter = _METER.get()
    if meter is not None:
        meter()
