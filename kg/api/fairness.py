"""Fair sharing between clients: light requests are free, heavy work draws on a per-client budget.

A client is its API key (``X-API-Key``, when ``KG_API_KEYS`` names some) or else the address its
connection comes from. ``X-Forwarded-For`` and its kind are believed only from proxies the operator
names (``KG_TRUSTED_PROXIES``; ``kg serve`` passes them to uvicorn and turns forwarded headers off
otherwise), so a client cannot become many by writing a new address into each request.

Each GraphQL request's *work* is the CPU time its store reads take in the worker threads
(``time.thread_time``, so time spent waiting for the GIL or for other requests is not counted),
charged as each read ends, while the request is still running: the first
``KG_LIGHT_REQUEST_SECONDS`` of a request's work are free (the requests a page or a script makes
cost a few milliseconds and are never charged), and what it works beyond that is taken from its
client's budget at once, a token bucket of ``KG_CLIENT_HEAVY_SECONDS`` refilled in a minute. A
client whose budget is spent gets HTTP 429 with ``Retry-After`` (the seconds until it is positive
again) until then; so does a client with ``KG_CLIENT_CONCURRENCY`` requests in flight already. And
a client's reads hold at most ``KG_CLIENT_READS`` of the read threads at once, however many requests
it has in flight: one client looping heavy queries gets a small, bounded share of the server, and
everyone else keeps theirs.
"""

from __future__ import annotations

import asyncio
import json
import logging
import math
import threading
import time
from contextvars import ContextVar
from dataclasses import dataclass, field

from starlette.types import ASGIApp, Receive, Scope, Send

from kg.errors import KGError

__all__ = ["FairShare", "BudgetSpent", "count_work", "check_budget", "record_cost", "wants_cost", "client_gate"]


class BudgetSpent(KGError):
    """A request's client spent its budget of heavy work while the request ran; the rest of it is not done."""

    def __init__(self, tokens: float) -> None:
        super().__init__(
            "this client's heavy work has used its budget (KG_CLIENT_HEAVY_SECONDS a minute); the rest of this request "
            "was not done: retry when the budget has refilled"
        )


log = logging.getLogger("kg.api.cost")

# The current request's meter: its store reads' CPU seconds, charged to its client as they come.
_WORK: ContextVar["_Meter | None"] = ContextVar("kg_request_work", default=None)
# The cost (``kg.api.graphql.limits``) of the operation the current request ran, when the cost log is on.
_COST: ContextVar[list[int] | None] = ContextVar("kg_request_cost", default=None)
MAX_CLIENTS = 10_000  # clients remembered; those with a full budget and nothing in flight are forgotten first


def count_work(seconds: float) -> None:
    """Add a read's CPU seconds to the request it works for, and charge its client now (nothing outside a request)."""
    meter = _WORK.get()
    if meter is not None:
        meter.add(seconds)


def check_budget() -> None:
    """Raise ``BudgetSpent`` when the current request's client has spent its budget: a read about to start, or a long
    one going on (``kg.deadline.check`` calls the read's meter), stops there instead of spending more."""
    meter = _WORK.get()
    if meter is not None and meter.client.tokens <= 0:
        raise BudgetSpent(meter.client.tokens)


def client_gate() -> asyncio.Semaphore | None:
    """The read threads the current request's client may hold at once (``KG_CLIENT_READS``); None outside a request."""
    meter = _WORK.get()
    return meter.client.gate if meter is not None else None


def wants_cost() -> bool:
    """Whether the current request's cost will be logged (only then is it worth working out)."""
    return _COST.get() is not None


def record_cost(cost: int) -> None:
    meter = _COST.get()
    if meter is not None:
        meter.append(cost)


@dataclass
class _Client:
    tokens: float
    at: float
    in_flight: int = 0
    gate: asyncio.Semaphore | None = None  # the read threads it may hold at once
    lock: threading.Lock = field(default_factory=threading.Lock)  # reads in several threads charge it


@dataclass
class _Meter:
    """One request's work so far, and what of it its client has been charged."""

    client: _Client
    light: float
    work: float = 0.0
    charged: float = 0.0

    def add(self, seconds: float) -> None:
        with self.client.lock:
            self.work += seconds
            due = max(self.work - self.light, 0.0)
            self.client.tokens -= due - self.charged
            self.charged = due


class FairShare:
    """Pure ASGI middleware in front of ``/graphql`` (see the module docstring)."""

    def __init__(
        self,
        app: ASGIApp,
        *,
        concurrency: int,
        heavy_seconds: float,
        light_seconds: float,
        api_keys: frozenset[str] = frozenset(),
        client_reads: int = 2,
        clock=time.monotonic,
    ) -> None:
        self.app = app
        self.concurrency = concurrency
        self.client_reads = client_reads
        self.capacity = heavy_seconds
        self.rate = heavy_seconds / 60.0  # the budget refills in a minute
        self.light = light_seconds
        self.api_keys = api_keys
        self.clock = clock
        self.clients: dict[str, _Client] = {}

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http" or not scope["path"].startswith("/graphql"):
            await self.app(scope, receive, send)
            return
        key = dict(scope.get("headers", ())).get(b"x-api-key")
        if key is not None and self.api_keys and key.decode("latin-1") not in self.api_keys:
            await _refuse(send, 401, "unknown API key (X-API-Key): use one of KG_API_KEYS, or none")
            return
        who = (
            f"key:{key.decode('latin-1')}"
            if key is not None and self.api_keys
            else f"address:{(scope.get('client') or ('?',))[0]}"
        )
        client = self._client(who)
        if client.in_flight >= self.concurrency:
            await _refuse(send, 429, f"this client has {client.in_flight} requests in flight (KG_CLIENT_CONCURRENCY)", 1)
            return
        if client.tokens <= 0:
            wait = math.ceil(-client.tokens / self.rate) + 1
            await _refuse(
                send,
                429,
                f"this client's heavy work has used its budget (KG_CLIENT_HEAVY_SECONDS a minute); retry in {wait} s",
                wait,
            )
            return
        client.in_flight += 1
        if client.gate is None:
            client.gate = asyncio.Semaphore(self.client_reads)
        meter = _Meter(client, self.light)
        costs: list[int] | None = [] if log.isEnabledFor(logging.DEBUG) else None  # worked out only to be logged
        token, cost_token = _WORK.set(meter), _COST.set(costs)
        try:
            await self.app(scope, receive, send)
        finally:
            _WORK.reset(token)
            _COST.reset(cost_token)
            client.in_flight -= 1
            log.debug(
                "%s cost %s, work %.3f s, charged %.3f s, budget left %.1f s",
                who,
                sum(costs) if costs else "-",
                meter.work,
                meter.charged,
                client.tokens,
            )

    def _client(self, who: str) -> _Client:
        now = self.clock()
        client = self.clients.get(who)
        if client is None:
            if len(self.clients) >= MAX_CLIENTS:
                self._forget(now)
            client = self.clients[who] = _Client(self.capacity, now)
        client.tokens = min(self.capacity, client.tokens + (now - client.at) * self.rate)
        client.at = now
        return client

    def _forget(self, now: float) -> None:
        for who, c in list(self.clients.items()):
            if not c.in_flight and c.tokens + (now - c.at) * self.rate >= self.capacity:
                del self.clients[who]


async def _refuse(send: Send, status: int, message: str, retry_after: int | None = None) -> None:
    body = json.dumps({"errors": [{"message": message}]}).encode()
    headers = [(b"content-type", b"application/json"), (b"content-length", str(len(body)).encode())]
    if retry_after is not None:
        headers.append((b"retry-after", str(retry_after).encode()))
    await send({"type": "http.response.start", "status": status, "headers": headers})
    await send({"type": "http.response.body", "body": body})
