"""GraphQL over HTTP: strawberry's ASGI app, with the spec's `application/graphql-response+json`.

A client that accepts ``application/graphql-response+json`` (and prefers it to
``application/json``) gets that media type back. A request that fails before
execution (a document that does not parse or validate, variables that do not
coerce) then gets HTTP 400 and no ``data`` entry, as the GraphQL-over-HTTP
specification asks. Clients that ask for ``application/json`` keep the legacy
behaviour: HTTP 200 with ``"data": null``.
"""

from __future__ import annotations

import json
from contextvars import ContextVar

from graphql import ExecutionResult
from cross_web import HTTPException  # the exception strawberry's views turn into a plain HTTP error
from starlette.requests import Request
from starlette.responses import Response
from strawberry.asgi import GraphQL
from strawberry.http import GraphQLHTTPResponse

from kg.errors import AnswerTooLarge

__all__ = ["GRAPHQL_RESPONSE_JSON", "KGGraphQL", "prefers_graphql_response_json", "offline_ide_html"]

CDN = "https://unpkg.com/"
VENDOR_URL = "/static/vendor/"  # kg serves the same files at the same paths (explorer/build.mjs copies them from npm)


def offline_ide_html(html: str) -> str:
    """Strawberry's GraphiQL page with its scripts and styles served by kg instead of unpkg.

    The files are byte-identical to unpkg's, so the page's integrity hashes still hold.

    >>> offline_ide_html('<script src="https://unpkg.com/react@18.2.0/umd/react.production.min.js">')
    '<script src="/static/vendor/react@18.2.0/umd/react.production.min.js">'
    """
    return html.replace(CDN, VENDOR_URL)


GRAPHQL_RESPONSE_JSON = "application/graphql-response+json"

# Set by process_result and read by create_response, which strawberry calls in the same task.
_reply: ContextVar[tuple[str, int | None]] = ContextVar("kg_graphql_reply", default=("application/json", None))


def prefers_graphql_response_json(accept: str) -> bool:
    """Whether an Accept header ranks the GraphQL response media type above application/json.

    >>> prefers_graphql_response_json("application/graphql-response+json, application/json;q=0.9")
    True
    >>> prefers_graphql_response_json("application/json")
    False
    >>> prefers_graphql_response_json("*/*")
    False
    """
    ranks: dict[str, float] = {}
    for position, part in enumerate(accept.split(",")):
        media, *params = [p.strip() for p in part.split(";")]
        q = 1.0
        for param in params:
            name, _, value = param.partition("=")
            if name.strip() == "q":
                try:
                    q = float(value)
                except ValueError:
                    q = 0.0
        ranks.setdefault(media.lower(), q - position * 1e-6)  # earlier wins a tie
    ours = ranks.get(GRAPHQL_RESPONSE_JSON, -1.0)
    return ours > 0 and ours > ranks.get("application/json", -1.0)


def _failed_before_execution(result: ExecutionResult) -> bool:
    """No data, and every error is a request error (parse, validation, coercion): none has a path."""
    return result.data is None and bool(result.errors) and all(e.path is None for e in result.errors)


class KGGraphQL(GraphQL):
    """strawberry's ASGI app, answering ``application/graphql-response+json`` clients as the spec asks.

    A plain ASGI app on a route of its own, not strawberry's FastAPI router: a request then goes
    through no FastAPI dependency resolution, which cost about a tenth of a small query's CPU.
    ``context_getter`` makes each request's context from the Starlette request.
    """

    def __init__(self, schema, *, context_getter, max_answer_bytes: int = 16 * 1024 * 1024, **kwargs) -> None:
        super().__init__(schema, **kwargs)
        self.context_getter = context_getter
        self.max_answer_bytes = max_answer_bytes

    def encode_json(self, data: object) -> str:
        """The answer as JSON, and never more than ``KG_MAX_ANSWER_BYTES`` of it: a larger one (its building was
        bounded already: ``shape.Budget``, ``PlannedExecution.complete_list_value``) is an error that says so."""
        text = json.dumps(data, separators=(",", ":"))
        if len(text) > self.max_answer_bytes:
            message = str(AnswerTooLarge(self.max_answer_bytes))
            return json.dumps({"data": None, "errors": [{"message": message}]}, separators=(",", ":"))
        return text

    async def get_context(self, request, response):
        return await self.context_getter(request)

    @property
    def graphql_ide_html(self) -> str:
        """GraphiQL that works offline: every script and style sheet from kg itself."""
        return offline_ide_html(super().graphql_ide_html)

    def decode_json(self, data: str | bytes) -> object:
        """A request body (and GET ``variables``/``extensions``) must be a JSON object, in UTF-8, nested no deeper
        than Python's parser goes: anything else is a 400."""
        try:
            value = super().decode_json(data)
        except UnicodeDecodeError as exc:
            raise HTTPException(400, f"the body is not UTF-8 (byte {exc.start})") from exc
        except RecursionError as exc:
            raise HTTPException(400, "the JSON is nested too deeply") from exc
        if not isinstance(value, dict):
            raise HTTPException(400, f"expected a JSON object, got {type(value).__name__ if value is not None else 'null'}")
        name = value.get("operationName")
        if name is not None and not isinstance(name, str):
            raise HTTPException(400, f"operationName must be a string or null, got {type(name).__name__}")
        return value

    async def process_result(self, request: Request, result: ExecutionResult) -> GraphQLHTTPResponse:
        response = await super().process_result(request, result)
        if not prefers_graphql_response_json(request.headers.get("accept", "")):
            _reply.set(("application/json", None))
            return response
        if _failed_before_execution(result):
            response.pop("data", None)
            _reply.set((GRAPHQL_RESPONSE_JSON, 400))
        else:
            _reply.set((GRAPHQL_RESPONSE_JSON, None))
        return response

    def create_response(self, response_data, sub_response: Response) -> Response:
        response = super().create_response(response_data, sub_response)
        media_type, status = _reply.get()
        response.headers["content-type"] = f"{media_type}; charset=utf-8" if media_type != "application/json" else media_type
        if status is not None:
            response.status_code = status
        _reply.set(("application/json", None))
        return response
