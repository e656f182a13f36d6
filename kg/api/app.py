"""The FastAPI application: the explorer at /, GraphQL (with GraphiQL) at /graphql, health at /healthz."""

from __future__ import annotations

import asyncio
import gc
import re
import logging
import sys
import threading
import time
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager

from fastapi import FastAPI, Request
from fastapi.responses import JSONResponse
from starlette.concurrency import run_in_threadpool

from kg.api.explorer import add_explorer
from kg.api.fairness import FairShare
from kg.api.graphql.context import Context
from kg.api.graphql.http import KGGraphQL
from kg.api.graphql.limits import LIST_SIZE
from kg.api.graphql.schema import build_schema
from kg.api.guards import PagePolicy, RequestGuard, page_policy, public_message
from kg.errors import KGError

SWITCH_INTERVAL = 0.001  # seconds a thread may hold the GIL while others wait (Python's default: 0.005)
from kg.service import KGService

__all__ = ["create_app", "app_from_settings", "prepare_to_serve"]

log = logging.getLogger(__name__)
SHUTDOWN_WAIT = 5.0  # seconds a shutdown waits, in all, for the start-up threads still reading the store
START_UP_AFTER = 2.0  # seconds after start-up when the start-up reads begin, if no request came first


def create_app(service: KGService, *, owns_service: bool = False, plans: bool = True) -> FastAPI:
    """An app serving ``service``. With ``owns_service``, the app closes it (the store's driver) when it
    shuts down, as `kg serve` wants; otherwise the caller owns the store's lifetime (tests share one).
    ``plans=False`` answers every operation through graphql-core's resolvers (the API tests compare the two)."""
    settings = service.settings
    schema = build_schema(settings=settings)
    reads = StartUpReads()

    @asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        app.state.tree = service.async_tree_reads() if plans else None  # opened in the loop that serves
        # How long the store's lists run, for the cost limit: measured beside serving (LIST_SIZE until then).
        reads.add(threading.Thread(target=_measure_lists, args=(service, schema.list_lengths), daemon=True, name="kg-lists"))
        timer = asyncio.get_running_loop().call_later(START_UP_AFTER, reads.start)
        try:
            yield
        finally:
            # A thread still reading would share a connection with the close below: none starts from now on,
            # and those started end first (a shutdown waits for them at most SHUTDOWN_WAIT seconds in all).
            timer.cancel()
            await run_in_threadpool(reads.join, SHUTDOWN_WAIT)
            if app.state.tree is not None:
                await app.state.tree.close()
                app.state.tree = None
            if owns_service:
                service.close()

    docs = {} if settings.openapi else {"docs_url": None, "redoc_url": None, "openapi_url": None}
    app = FastAPI(title="kg", summary="A knowledge graph of research literature, over GraphQL.", lifespan=lifespan, **docs)

    async def get_context(request: Request) -> Context:
        return Context(service, plans=plans, tree=getattr(request.app.state, "tree", None))

    graphql = KGGraphQL(schema, context_getter=get_context, graphql_ide="graphiql", max_answer_bytes=settings.max_answer_bytes)
    app.add_middleware(PagePolicy, policy=page_policy(re.findall(r"<script>(.*?)</script>", graphql.graphql_ide_html, re.S)))
    app.add_middleware(
        FairShare,
        concurrency=settings.client_concurrency,
        heavy_seconds=settings.client_heavy_seconds,
        light_seconds=settings.light_request_seconds,
        api_keys=frozenset(settings.api_keys),
        client_reads=settings.client_reads,
    )
    app.add_middleware(RequestGuard, max_body_bytes=settings.max_body_bytes, allowed_hosts=settings.allowed_hosts)
    app.add_middleware(StartsReads, reads=reads)
    app.state.start_up = reads
    app.add_route("/graphql", graphql, methods=["GET", "POST"])
    add_explorer(app)

    @app.get("/healthz")
    async def healthz() -> JSONResponse:
        try:
            await run_in_threadpool(service.check)
        except KGError as exc:
            log.warning("health check failed: %s", exc)
            body = {"status": "unavailable", "store": service.kind, "error": public_message(exc)}
            return JSONResponse(body, status_code=503)
        return JSONResponse({"status": "ok", "store": service.kind})

    return app


def app_from_settings() -> FastAPI:
    """The app over the store the settings name: the factory each `kg serve --workers N` process calls."""
    from kg.config import get_settings
    from kg.store import open_store

    settings = get_settings()
    service = KGService(open_store(settings), settings)
    app = create_app(service, owns_service=True)
    prepare_to_serve(app, service)
    return app


def prepare_to_serve(app: FastAPI, service: KGService) -> None:
    """What every serving process does before it answers: what start-up built (schema, modules, the
    graph) goes out of the GC's full passes for good, and the store's indexes are built in a thread
    beside serving (a big embedded store's autocomplete takes seconds), one of the app's start-up reads."""
    gc.collect()
    gc.freeze()
    # A thread working for a heavy request hands the GIL back every millisecond (not five): the event loop, which
    # answers /healthz and every other request, waits for it that much less.
    sys.setswitchinterval(SWITCH_INTERVAL)
    app.state.start_up.add(threading.Thread(target=_warm, args=(service,), daemon=True, name="kg-warm"))


class StartUpReads:
    """The reads a server makes beside serving: the lists' lengths and, under `kg serve`, the indexes' warm-up.
    They hold the GIL for long stretches, so they begin once the first request is answered (a health probe,
    say), or ``START_UP_AFTER`` seconds after start-up if none came: the server answers its first request
    as soon as it is up. Started and added to on the event loop's thread."""

    def __init__(self) -> None:
        self.threads: list[threading.Thread] = []
        self.started = False

    def add(self, thread: threading.Thread) -> None:
        self.threads.append(thread)
        if self.started:
            thread.start()

    def start(self) -> None:
        if not self.started:
            self.started = True
            for thread in self.threads:
                thread.start()

    def join(self, seconds: float) -> None:
        """Wait for the started reads to end, ``seconds`` at most in all."""
        deadline = time.monotonic() + seconds
        for thread in self.threads:
            if thread.ident is not None:
                thread.join(max(0.0, deadline - time.monotonic()))


class StartsReads:
    """ASGI middleware: the first request answered starts the app's ``StartUpReads``."""

    def __init__(self, app, reads: StartUpReads) -> None:
        self.app, self.reads = app, reads

    async def __call__(self, scope, receive, send) -> None:
        try:
            await self.app(scope, receive, send)
        finally:
            if scope["type"] == "http":
                self.reads.start()


def _warm(service: KGService) -> None:
    try:
        service.warm()
        service.overview.warm()
    except KGError as exc:
        log.warning("could not prepare the store's indexes: %s", exc)


def _measure_lists(service: KGService, lengths) -> None:
    try:
        lengths.set(service.overview.list_lengths())
        log.info("list lengths for the cost limit: %s", dict(lengths.items))
    except KGError as exc:
        log.warning("could not measure the store's lists (the cost limit assumes %d each): %s", LIST_SIZE, exc)
