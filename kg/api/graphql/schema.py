"""The schema, assembled: Query, depth limit, error masking."""

from __future__ import annotations

import asyncio
import logging

from graphql import ExecutionResult, GraphQLError
from strawberry import Schema
from strawberry.extensions import MaskErrors, ParserCache, ValidationCache

from kg.api.graphql.limits import limit_extensions
from kg.api.graphql.queries import Query
from kg.api.guards import public_message
from kg.config import Settings, get_settings
from kg.errors import InvalidArgument, KGError

__all__ = ["build_schema", "schema_sdl", "KGSchema"]

log = logging.getLogger("kg.api")


def _should_mask(error: GraphQLError) -> bool:
    """Show our own errors and GraphQL's validation errors; hide anything unexpected or naming a server path."""
    original = error.original_error
    if original is None:
        return False
    if isinstance(original, KGError):
        return public_message(original) != str(original)
    return not isinstance(original, GraphQLError)


class KGSchema(Schema):
    """A deadline per operation; request errors (validation, bad arguments) logged as one line, unexpected ones with a traceback."""

    deadline: float = 10.0

    async def execute(self, *args, **kwargs) -> ExecutionResult:
        try:
            return await asyncio.wait_for(super().execute(*args, **kwargs), self.deadline)
        except TimeoutError:
            log.warning("operation cut off at its %.1f s deadline", self.deadline)
            message = f"the operation ran past its {self.deadline:g} s deadline (KG_REQUEST_DEADLINE); ask for less"
            return ExecutionResult(data=None, errors=[GraphQLError(message)])

    def process_errors(self, errors: list[GraphQLError], execution_context=None) -> None:
        unexpected = []
        for error in errors:
            original = error.original_error
            if original is None or isinstance(original, (InvalidArgument, GraphQLError)):
                log.info("request error: %s", error.message)
            else:
                unexpected.append(error)
        if unexpected:
            super().process_errors(unexpected, execution_context)


def build_schema(max_depth: int | None = None, *, settings: Settings | None = None) -> Schema:
    settings = settings or get_settings()
    depth = max_depth if max_depth is not None else settings.max_depth
    schema = KGSchema(
        query=Query,
        extensions=[
            *limit_extensions(max_depth=depth, max_cost=settings.max_cost, max_aliases=settings.max_aliases, max_tokens=settings.max_tokens),
            lambda: MaskErrors(should_mask_error=_should_mask, error_message="Internal error: the request could not be completed."),
            lambda: ParserCache(maxsize=256),
            lambda: ValidationCache(maxsize=256),
        ],
    )
    schema.deadline = settings.request_deadline
    return schema


def schema_sdl() -> str:
    return build_schema().as_str() + "\n"
