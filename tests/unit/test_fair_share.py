"""Fair sharing (kg.api.fairness): light requests are free, heavy work spends a per-client budget."""

from __future__ import annotations

import asyncio
import json

from kg.api.fairness import FairShare, count_work


class Clock:
    def __init__(self) -> None:
        self.now = 0.0

    def __call__(self) -> float:
        return self.now


def app_doing(work: float, gate: asyncio.Event | None = None):
    async def app(scope, receive, send):
        if gate is not None:
            await gate.wait()
        count_work(work)
        await send({"type": "http.response.start", "status": 200, "headers": []})
        await send({"type": "http.response.body", "body": b"{}"})

    return app


async def call(middleware, client="10.0.0.1", key: str | None = None, path="/graphql") -> tuple[int, dict, dict]:
    headers = [(b"x-api-key", key.encode())] if key else []
    sent = []

    async def send(message):
        sent.append(message)

    async def receive():
        return {"type": "http.request", "body": b""}

    await middleware({"type": "http", "path": path, "headers": headers, "client": (client, 5000)}, receive, send)
    start = sent[0]
    body = json.loads(sent[1]["body"] or b"{}")
    return start["status"], {k.decode(): v.decode() for k, v in start["headers"]}, body


def share(app, clock, **kw) -> FairShare:
    options = {"concurrency": 4, "heavy_seconds": 6.0, "light_seconds": 0.1} | kw
    return FairShare(app, clock=clock, **options)


def test_light_requests_are_never_charged():
    clock = Clock()
    middleware = share(app_doing(0.05), clock)
    assert all(asyncio.run(call(middleware))[0] == 200 for _ in range(500))  # 25 s of light work, at one instant


def test_heavy_work_spends_the_clients_budget_then_it_gets_429_until_it_refills():
    clock = Clock()
    middleware = share(app_doing(4.1), clock)  # 4 s charged a request; 6 s a minute
    assert asyncio.run(call(middleware))[0] == 200
    assert asyncio.run(call(middleware))[0] == 200  # the budget went below zero: 6 - 8 = -2
    status, headers, body = asyncio.run(call(middleware))
    assert status == 429 and "budget" in body["errors"][0]["message"]
    assert int(headers["retry-after"]) == 21  # 2 s of debt at 0.1 s a second, and one more
    assert asyncio.run(call(middleware, client="10.0.0.2"))[0] == 200  # another client keeps its share
    clock.now = 21.0
    assert asyncio.run(call(middleware))[0] == 200
    clock.now = 10_000.0
    assert asyncio.run(call(middleware))[0] == 200  # refilled, never above the capacity
    assert asyncio.run(call(middleware))[0] == 200
    assert asyncio.run(call(middleware))[0] == 429


def test_too_many_requests_in_flight_get_429():
    async def run():
        gate = asyncio.Event()
        middleware = share(app_doing(0.0, gate), Clock(), concurrency=2)
        held = [asyncio.create_task(call(middleware)) for _ in range(2)]
        await asyncio.sleep(0)
        status, headers, _ = await call(middleware)
        gate.set()
        done = [t[0] for t in await asyncio.gather(*held)]
        return status, headers, done

    status, headers, done = asyncio.run(run())
    assert status == 429 and headers["retry-after"] == "1" and done == [200, 200]


def test_api_keys_name_clients_and_an_unknown_key_is_401():
    clock = Clock()
    middleware = share(app_doing(7.0), clock, api_keys=frozenset({"alice", "bob"}))
    assert asyncio.run(call(middleware, key="alice"))[0] == 200
    assert asyncio.run(call(middleware, key="alice"))[0] == 429
    assert asyncio.run(call(middleware, key="bob"))[0] == 200  # same address, another client
    assert asyncio.run(call(middleware, key="mallory"))[0] == 401


def test_other_paths_pass_untouched():
    clock = Clock()
    middleware = share(app_doing(100.0), clock)
    assert [asyncio.run(call(middleware, path="/healthz"))[0] for _ in range(3)] == [200, 200, 200]


def test_work_is_charged_as_it_happens_so_a_running_request_already_spends_the_budget():
    async def run():
        gate, charged = asyncio.Event(), asyncio.Event()

        async def app(scope, receive, send):
            count_work(7.0)  # a first, long read: charged now, while the request still runs
            charged.set()
            await gate.wait()
            await send({"type": "http.response.start", "status": 200, "headers": []})
            await send({"type": "http.response.body", "body": b"{}"})

        middleware = share(app, Clock())
        first = asyncio.create_task(call(middleware))
        await charged.wait()
        status, headers, body = await call(middleware)  # the same client, while its first request runs
        gate.set()
        assert (await first)[0] == 200
        return status, headers, body

    status, headers, body = asyncio.run(run())
    assert status == 429 and "budget" in body["errors"][0]["message"] and int(headers["retry-after"]) >= 10


def test_a_forwarded_address_is_not_another_client():
    clock = Clock()
    middleware = share(app_doing(7.0), clock)

    async def spoofed(address: str):
        sent = []

        async def send(message):
            sent.append(message)

        async def receive():
            return {"type": "http.request", "body": b""}

        headers = [(b"x-forwarded-for", address.encode()), (b"x-real-ip", address.encode())]
        await middleware({"type": "http", "path": "/graphql", "headers": headers, "client": ("127.0.0.2", 5000)}, receive, send)
        return sent[0]["status"]

    assert asyncio.run(spoofed("10.1.1.1")) == 200
    assert [asyncio.run(spoofed(f"10.1.1.{i}")) for i in range(2, 6)] == [429] * 4  # one connection address: one client


def test_a_clients_reads_hold_at_most_their_share_of_the_read_threads():
    from kg.api.fairness import client_gate

    seen = []

    async def app(scope, receive, send):
        seen.append(client_gate())
        await send({"type": "http.response.start", "status": 200, "headers": []})
        await send({"type": "http.response.body", "body": b"{}"})

    async def run():
        middleware = share(app, Clock(), client_reads=3)
        await call(middleware)
        await call(middleware)
        await call(middleware, client="10.0.0.9")

    asyncio.run(run())
    assert seen[0] is seen[1] and seen[0] is not seen[2] and seen[0]._value == 3
    assert client_gate() is None  # outside a request
