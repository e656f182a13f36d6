"""The FastAPI application: GraphQL (with GraphiQL) at /graphql, health at /healthz."""

from __future__ import annotations

import logging

from fastapi import FastAPI
from fastapi.responses import JSONResponse
from starlette.concurrency import run_in_threadpool

from kg.api.graphql.context import Context
from kg.api.graphql.http import KGGraphQLRouter
from kg.api.graphql.schema import build_schema
from kg.errors import KGError
from kg.service import KGService

__all__ = ["create_app"]

log = logging.getLogger(__name__)


def create_app(service: KGService) -> FastAPI:
    """An app serving ``service``; the caller owns the store's lifetime."""
    app = FastAPI(title="kg", summary="A knowledge graph of research literature, over GraphQL.")

    async def get_context() -> Context:
        return Context(service)

    router = KGGraphQLRouter(build_schema(), context_getter=get_context, graphql_ide="graphiql")
    app.include_router(router, prefix="/graphql")

    @app.get("/healthz")
    async def healthz() -> JSONResponse:
        try:
            await run_in_threadpool(service.store.check)
        except KGError as exc:
            log.warning("health check failed: %s", exc)
            return JSONResponse({"status": "unavailable", "store": service.store.kind, "error": str(exc)}, status_code=503)
        return JSONResponse({"status": "ok", "store": service.store.kind})

    return app
