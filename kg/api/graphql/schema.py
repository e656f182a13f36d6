"""The schema, assembled: Query, depth limit, error masking."""

from __future__ import annotations

from graphql import GraphQLError
from strawberry import Schema
from strawberry.extensions import MaskErrors, QueryDepthLimiter

from kg.api.graphql.queries import Query
from kg.config import get_settings
from kg.errors import KGError

__all__ = ["build_schema", "schema_sdl"]


def _should_mask(error: GraphQLError) -> bool:
    """Show our own errors and GraphQL's validation errors; hide anything unexpected."""
    original = error.original_error
    return original is not None and not isinstance(original, (KGError, GraphQLError))


def build_schema(max_depth: int | None = None) -> Schema:
    depth = max_depth if max_depth is not None else get_settings().max_depth
    return Schema(
        query=Query,
        extensions=[
            lambda: QueryDepthLimiter(max_depth=depth),
            lambda: MaskErrors(should_mask_error=_should_mask, error_message="Internal error: the request could not be completed."),
        ],
    )


def schema_sdl() -> str:
    return build_schema().as_str() + "\n"
