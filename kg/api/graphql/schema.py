"""The schema, assembled: Query, depth limit, error masking."""

from __future__ import annotations

import asyncio
import logging
from collections import Counter

from graphql import ExecutionResult, GraphQLError
from strawberry import Schema
from strawberry.extensions import MaskErrors, ParserCache, ValidationCache
from strawberry.schema.schema import StrawberryGraphQLCoreExecutionContext

from kg import deadline
from kg.api.fairness import BudgetSpent
from kg.api.graphql.context import Context
from kg.api.graphql.limits import ListLengths, limit_extensions
from kg.api.graphql.plan import compile_operation
from kg.api.graphql.queries import Query
from kg.api.graphql.run_plan import SUPPORTED, PlanRun
from kg.api.guards import public_message
from kg.config import Settings
from kg.errors import AnswerTooLarge, DeadlineExceeded, InvalidArgument, KGError

__all__ = ["build_schema", "schema_sdl", "KGSchema", "PlannedExecution", "PLAN_COUNTS"]

log = logging.getLogger("kg.api")


def _should_mask(error: GraphQLError) -> bool:
    """Show our own errors and GraphQL's validation errors; hide anything unexpected or naming a server path."""
    original = error.original_error
    if original is None:
        return False
    if isinstance(original, KGError):
        return public_message(original) != str(original)
    return not isinstance(original, GraphQLError)


class _Plans:
    """Compiled operations by document node: strawberry's ParserCache hands back the same node for the same text."""

    def __init__(self, size: int = 512) -> None:
        self.size = size
        self._found: dict[int, tuple] = {}

    def get(self, schema, operation, fragments):
        hit = self._found.get(id(operation))
        if hit is not None and hit[0] is operation:
            return hit[1]
        plan = compile_operation(schema, operation, fragments, SUPPORTED)
        if len(self._found) >= self.size:
            self._found.pop(next(iter(self._found)))
        self._found[id(operation)] = (operation, plan)  # the node is kept, so its id is not reused
        return plan


_PLANS = _Plans()
ANSWER_ITEM_BYTES = 64  # what a list item is taken to add to an answer at least, against KG_MAX_ANSWER_BYTES
PLAN_COUNTS: Counter[str] = Counter()  # "answered" by a plan, "stopped" (too large, too late), "handed back" to graphql-core


class PlannedExecution(StrawberryGraphQLCoreExecutionContext):
    """graphql-core's executor, answering the operations a plan covers with the plan (see ``plan.py``).

    A plan that raises (a bad argument, an unreachable store) hands the request to graphql-core, which
    reports the error at its path, exactly as without plans.
    """

    items = 0  # the list items completed so far (``complete_list_value``)

    def complete_list_value(self, return_type, field_details_list, info, path, result, position_context):
        """Each list graphql-core completes counts its items against what the answer may hold (``KG_MAX_ANSWER_BYTES``,
        at ``ANSWER_ITEM_BYTES`` an item): an answer built by resolvers stops growing there, with an error at its
        path, as a planned one does (``shape.Budget``); the deadline is checked as it grows."""
        if isinstance(result, (list, tuple)):
            self.items += len(result)
            context = self.context_value
            limit = context.service.settings.max_answer_bytes if isinstance(context, Context) else None
            if limit is not None and self.items * ANSWER_ITEM_BYTES > limit:
                raise AnswerTooLarge(limit)
            deadline.check()
        return super().complete_list_value(return_type, field_details_list, info, path, result, position_context)

    def execute_operation(self, serially=None):
        context = self.context_value
        plan = _PLANS.get(self.schema, self.operation, self.fragments) if isinstance(context, Context) and context.plans else None
        if plan is None:
            return super().execute_operation(serially)
        return self._planned(plan, context, serially)

    async def _planned(self, plan, context: Context, serially):
        try:
            run = PlanRun(context.service, self.variable_values)
            data = await run.answer_in_loop(plan, context.tree, context.call) if context.tree is not None else None
            if data is None:
                data = await context.call(run.answer, plan)
        except (AnswerTooLarge, DeadlineExceeded, BudgetSpent) as exc:  # running it again another way would do it twice
            PLAN_COUNTS["stopped"] += 1
            return ExecutionResult(data=None, errors=[GraphQLError(str(exc), original_error=exc)])
        except Exception:  # noqa: BLE001 - graphql-core runs it again and reports what went wrong where
            log.debug("a plan handed its operation back to graphql-core", exc_info=True)
            PLAN_COUNTS["handed back"] += 1
            result = super().execute_operation(serially)
            return await result if self.is_awaitable(result) else result
        PLAN_COUNTS["answered"] += 1
        return self.finish(self.build_response(data))


class KGSchema(Schema):
    """A deadline per operation; request errors (validation, bad arguments) logged as one line, unexpected ones with a traceback."""

    deadline: float = 10.0

    async def execute(self, *args, **kwargs) -> ExecutionResult:
        try:
            async with asyncio.timeout(self.deadline):  # in this task: wait_for would start one per request
                return await super().execute(*args, **kwargs)
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
    settings = settings or Settings()  # the defaults, unless the app passes its own
    depth = max_depth if max_depth is not None else settings.max_depth
    lengths = ListLengths()
    schema = KGSchema(
        query=Query,
        execution_context_class=PlannedExecution,
        extensions=[
            *limit_extensions(
                max_depth=depth,
                max_cost=settings.max_cost,
                max_aliases=settings.max_aliases,
                max_tokens=settings.max_tokens,
                lengths=lengths,
            ),
            lambda: MaskErrors(
                should_mask_error=_should_mask, error_message="Internal error: the request could not be completed."
            ),
            lambda: ParserCache(maxsize=256),
            lambda: ValidationCache(maxsize=256),
        ],
    )
    schema.deadline = settings.request_deadline
    schema.list_lengths = lengths  # set from the store when the server starts (``kg.api.app``)
    return schema


def schema_sdl() -> str:
    return build_schema().as_str() + "\n"
