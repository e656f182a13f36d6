"""Limits on what one GraphQL operation may ask for: cost, aliases, tokens, one operation at a time.

The cost of an operation is an upper bound on the objects it can return, in
the manner of graphql-armor's cost limit: every field costs 1, times the
largest number of times it can be resolved. A list field multiplies what is
below it by its size: ``first`` where the field takes one (the default page
otherwise), and ``LIST_SIZE`` for plain lists (an author's papers, a paper's
authors). The 93-byte ``papers(first:100){…authors{papers{authors{…}}}}``
chain costs hundreds of millions and is refused before it runs; every example
operation in ``graphql/operations/`` costs a few thousand.

How long a plain list runs is read from the store when the server starts (``ListLengths``, from
``kg.overview.Overview.list_lengths``): an author's papers count as the papers of the author at the end of
99% of authorships, a paper's authors, concepts and references likewise, and never under ``LIST_SIZE``, which
also stands in for a list the store does not measure, and for every list before it has been read. Each request's cost is
recorded beside its work (``kg.api.fairness``; the ``kg.api.cost`` log at DEBUG).

A co-author network is a graph walk, not a field: it costs ``NETWORK_COST`` on its own, and its
``nodes`` and ``edges`` count as the big lists they can be (depth 3 reaches thousands of
authors). So one network costs about 20,000, and a network asked for inside a network's
nodes (or their co-authors) costs the product, hundreds of millions, and is refused before
it runs, where it used to run until its deadline.
"""

from __future__ import annotations

from functools import lru_cache

from graphql import (
    FieldNode,
    FragmentSpreadNode,
    GraphQLError,
    GraphQLList,
    GraphQLNonNull,
    GraphQLObjectType,
    InlineFragmentNode,
    IntValueNode,
    OperationDefinitionNode,
    SelectionSetNode,
    ValidationRule,
    VariableNode,
)
from strawberry.extensions import MaxTokensLimiter, SchemaExtension
from strawberry.extensions.max_aliases import create_validator as aliases_validator
from strawberry.extensions.query_depth_limiter import create_validator as depth_validator

from kg.api.fairness import record_cost, wants_cost
from kg.api.graphql.pagination import DEFAULT_FIRST, MAX_FIRST

__all__ = [
    "cost_limit_rule",
    "OperationLimits",
    "operation_cost",
    "limit_extensions",
    "LIST_SIZE",
    "NETWORK_COST",
    "ListLengths",
    "MEASURED_LISTS",
]

LIST_SIZE = 10  # assumed length of a list field without `first` (a paper's authors, an author's papers)
NETWORK_COST = 10_000  # one co-author network: a walk over up to thousands of authors, and its communities
# Lists longer than LIST_SIZE, whatever `first` their parent took: (type, field) -> assumed length.
LONG_LISTS = {
    ("CoauthorNetwork", "nodes"): 1_000,
    ("CoauthorNetwork", "edges"): 5_000,
    ("FieldMap", "concepts"): 300,
    ("FieldMap", "links"): 1_800,  # up to 300 concepts, 6 links each
    ("Author", "timeline"): 60,
    ("Concept", "timeline"): 60,
    ("TrendingConcept", "timeline"): 60,
}  # years
WEIGHTS = {("Author", "network"): NETWORK_COST}  # what resolving the field once costs, beyond 1
# Plain lists whose length the store measures (``Overview.list_lengths``): (type, field) -> the store's name for it.
MEASURED_LISTS = {
    ("Author", "papers"): "papers_per_author",
    ("Author", "evidence"): "papers_per_author",
    ("Author", "institutions"): "papers_per_author",
    ("Paper", "authors"): "authors_per_paper",
    ("Paper", "authorships"): "authors_per_paper",
    ("Paper", "concepts"): "concepts_per_paper",
    ("Paper", "references"): "references_per_paper",
}


class ListLengths:
    """The measured lengths of plain lists, set when the server starts; read by every request's cost rule."""

    def __init__(self) -> None:
        self.items: tuple[tuple[tuple[str, str], int], ...] = ()

    def set(self, lengths: dict[str, int]) -> None:
        """Take the store's measured lengths (``Overview.list_lengths``), never under ``LIST_SIZE``: a small store
        grows while it serves, and its short lists must not make deep chains look cheap."""
        self.items = tuple(
            sorted((field, max(lengths[name], LIST_SIZE)) for field, name in MEASURED_LISTS.items() if name in lengths)
        )


def _unwrap(type_):
    while isinstance(type_, GraphQLNonNull):
        type_ = type_.of_type
    return type_


def _multiplier(field: FieldNode, definition, variables: dict, parent_name: str = "", lengths: dict | None = None) -> int:
    """How many times the field's selection can be resolved per parent."""
    inner = _unwrap(definition.type)
    long = LONG_LISTS.get((parent_name, field.name.value))
    if long is not None:
        return long
    first = None
    for arg in field.arguments or ():
        if arg.name.value == "first":
            if isinstance(arg.value, IntValueNode):
                first = int(arg.value.value)
            elif isinstance(arg.value, VariableNode):
                value = variables.get(arg.value.name.value)
                first = value if isinstance(value, int) else MAX_FIRST  # unknown: the largest page
    declared = definition.args.get("first")
    if first is None and declared is not None and isinstance(declared.default_value, int):
        first = declared.default_value  # `coauthors` without `first` is its default page, not a short list
    if isinstance(inner, GraphQLList):
        if first is None:
            first = (lengths or {}).get((parent_name, field.name.value), LIST_SIZE)
        return max(first, 1)
    if isinstance(inner, GraphQLObjectType) and "pageInfo" in inner.fields:  # a connection
        return max(first if first is not None else DEFAULT_FIRST, 1)
    return 1


def _named(type_):
    type_ = _unwrap(type_)
    while isinstance(type_, GraphQLList):
        type_ = _unwrap(type_.of_type)
    return type_


def operation_cost(
    schema, operation: OperationDefinitionNode, fragments: dict, variables: dict | None = None, lengths: dict | None = None
) -> int:
    """Upper bound on the fields an operation resolves (see the module docstring)."""
    variables = dict(variables or {})
    for definition in operation.variable_definitions or ():  # `$n: Int = 10` counts as 10 when not given
        name = definition.variable.name.value
        if name not in variables and isinstance(definition.default_value, IntValueNode):
            variables[name] = int(definition.default_value.value)
    root = schema.query_type

    def selection_cost(selection_set: SelectionSetNode | None, parent, seen: frozenset) -> int:
        if selection_set is None or not isinstance(parent, GraphQLObjectType):
            return 0
        total = 0
        for selection in selection_set.selections:
            if isinstance(selection, FieldNode):
                field = parent.fields.get(selection.name.value)
                if field is None:
                    continue  # validation reports unknown fields
                below = selection_cost(selection.selection_set, _named(field.type), seen)
                own = WEIGHTS.get((parent.name, selection.name.value), 1)
                total += _multiplier(selection, field, variables, parent.name, lengths) * (own + below)
            elif isinstance(selection, InlineFragmentNode):
                total += selection_cost(selection.selection_set, parent, seen)
            elif isinstance(selection, FragmentSpreadNode):
                name = selection.name.value
                fragment = fragments.get(name)
                if fragment is not None and name not in seen:  # cycles are a validation error of their own
                    total += selection_cost(fragment.selection_set, parent, seen | {name})
        return total

    return selection_cost(operation.selection_set, root, frozenset())


def cost_limit_rule(max_cost: int, variables: dict | None = None, lengths: dict | None = None) -> type[ValidationRule]:
    class CostLimit(ValidationRule):
        def enter_document(self, node, *_args):
            fragments = {d.name.value: d for d in node.definitions if d.kind == "fragment_definition"}
            schema = self.context.schema
            for definition in node.definitions:
                if isinstance(definition, OperationDefinitionNode):
                    cost = operation_cost(schema, definition, fragments, variables, lengths)
                    if cost > max_cost:
                        self.report_error(
                            GraphQLError(
                                f"operation too expensive: it may resolve up to {cost:,} fields, the limit is {max_cost:,}; "
                                "ask for smaller pages (`first`) or fewer nested lists",
                                definition,
                            )
                        )

    return CostLimit


class OperationLimits(SchemaExtension):
    """Depth, aliases, cost and one operation at a time, as validation rules.

    The rule classes are made once per schema (depth, aliases) or once per request shape
    (operation name, integer variables), never per request, so that strawberry's
    ValidationCache, which keys on the rules, answers repeated operations without validating
    them again.
    """

    def __init__(self, *, fixed_rules: tuple[type[ValidationRule], ...], max_cost: int, lengths: ListLengths) -> None:
        self.fixed_rules = fixed_rules
        self.max_cost = max_cost
        self.lengths = lengths

    def on_operation(self):
        ctx = self.execution_context
        numbers = tuple(sorted((k, v) for k, v in (ctx.variables or {}).items() if isinstance(v, int)))
        rules = _request_rules(ctx.operation_name, self.max_cost, numbers, self.lengths.items)
        ctx.validation_rules = (*ctx.validation_rules, *self.fixed_rules, *rules)
        yield

    def on_execute(self):
        """Record the cost of the operation that runs (validated: it is under the limit)."""
        ctx = self.execution_context
        if wants_cost() and ctx.graphql_document is not None:
            document = ctx.graphql_document
            fragments = {d.name.value: d for d in document.definitions if d.kind == "fragment_definition"}
            operation = next(
                (
                    d
                    for d in document.definitions
                    if isinstance(d, OperationDefinitionNode)
                    and (ctx.operation_name is None or (d.name and d.name.value == ctx.operation_name))
                ),
                None,
            )
            if operation is not None:
                record_cost(operation_cost(ctx.schema._schema, operation, fragments, ctx.variables, dict(self.lengths.items)))
        yield


@lru_cache(maxsize=512)
def _request_rules(name: str | None, max_cost: int, numbers: tuple, lengths: tuple) -> tuple[type[ValidationRule], ...]:
    """The same rule classes for the same request shape, so strawberry's ValidationCache can hit."""

    class OneOperation(ValidationRule):
        def enter_document(self, node, *_args):
            operations = [d for d in node.definitions if isinstance(d, OperationDefinitionNode)]
            if len(operations) > 1 and not name:
                self.report_error(GraphQLError("the document has several operations: say which one to run with `operationName`"))

    return OneOperation, cost_limit_rule(max_cost, dict(numbers), dict(lengths))


def limit_extensions(*, max_depth: int, max_cost: int, max_aliases: int, max_tokens: int, lengths: ListLengths) -> list:
    """The schema extensions that refuse oversized operations, each with a message naming its limit."""
    fixed = (depth_validator(max_depth, None), aliases_validator(max_aliases))
    return [
        lambda: OperationLimits(fixed_rules=fixed, max_cost=max_cost, lengths=lengths),
        lambda: MaxTokensLimiter(max_token_count=max_tokens),  # a parser option: ParserCache keys on it
    ]
