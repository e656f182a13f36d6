"""Compiled operations: a validated query turned, once, into a tree of the fields it selects.

graphql-core resolves a response one field at a time, each through its
resolver, awaitables, type checks and completion. For the operations clients
send all the time (a paper with its authors, a page of papers, an author's
co-authors) that glue costs more than reading the store. ``compile_operation``
turns an operation into a :class:`Selection` tree once per document (strawberry
caches parsed and validated documents, and the tree is cached with them), and
:mod:`kg.api.graphql.run_plan` answers it: the tree becomes the store's read tree
(``tree.py``), the store answers it whole (the same batched reads the resolvers'
DataLoaders make, or on Neo4j one query), and the response is built directly.

Only the fields in :data:`kg.api.graphql.tree.SUPPORTED` compile, in queries
without directives; anything else (and any request a plan fails on, such as a
bad argument) runs through graphql-core as before, so errors keep their paths.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from graphql import (
    FieldNode,
    FragmentSpreadNode,
    GraphQLField,
    GraphQLList,
    GraphQLNonNull,
    GraphQLObjectType,
    GraphQLSchema,
    InlineFragmentNode,
    OperationDefinitionNode,
    OperationType,
    SelectionSetNode,
)

__all__ = ["Selection", "compile_operation", "Unsupported", "TYPENAME"]

TYPENAME = "__typename"


class Unsupported(Exception):
    """The operation uses something plans do not cover; graphql-core runs it."""


@dataclass(frozen=True, slots=True)
class Selection:
    """One response key: the field it reads, the node holding its arguments, and what is selected below it."""

    key: str
    name: str
    parent: str  # the type the field is on
    node: FieldNode
    definition: GraphQLField | None  # None for __typename
    type_name: str  # the named type it returns
    is_list: bool
    children: tuple["Selection", ...]


def _named(type_) -> tuple[str, bool]:
    """(named type, whether it is a list) of a field's type."""
    while isinstance(type_, GraphQLNonNull):
        type_ = type_.of_type
    is_list = isinstance(type_, GraphQLList)
    while isinstance(type_, (GraphQLNonNull, GraphQLList)):
        type_ = type_.of_type
    return type_.name, is_list


def _collect(
    selection_set: SelectionSetNode,
    type_name: str,
    fragments: dict,
    into: dict[str, list[FieldNode]],
    seen: frozenset[str] = frozenset(),
) -> None:
    """Field nodes by response key, fragments inlined, as the spec's CollectFields does without directives."""
    for node in selection_set.selections:
        if node.directives:
            raise Unsupported("directives")
        if isinstance(node, FieldNode):
            into.setdefault(node.alias.value if node.alias else node.name.value, []).append(node)
            continue
        if isinstance(node, InlineFragmentNode):
            condition, inner = node.type_condition, node.selection_set
        elif isinstance(node, FragmentSpreadNode):
            name = node.name.value
            details = fragments.get(name)
            fragment = getattr(details, "definition", details)  # graphql-core's FragmentDetails, or a definition
            if fragment is None or name in seen or getattr(fragment, "variable_definitions", None):
                raise Unsupported(f"fragment {name}")
            condition, inner, seen = fragment.type_condition, fragment.selection_set, seen | {name}
        else:  # pragma: no cover - no other selection kinds exist
            raise Unsupported(type(node).__name__)
        if condition is not None and condition.name.value != type_name:
            raise Unsupported("fragment on another type")
        _collect(inner, type_name, fragments, into, seen)


def _selections(
    schema: GraphQLSchema, parent: GraphQLObjectType, selection_set: SelectionSetNode, fragments: dict, supported: Any
) -> tuple[Selection, ...]:
    grouped: dict[str, list[FieldNode]] = {}
    _collect(selection_set, parent.name, fragments, grouped)
    out = []
    for key, nodes in grouped.items():
        name = nodes[0].name.value
        if name == TYPENAME:
            out.append(Selection(key, name, parent.name, nodes[0], None, "String", False, ()))
            continue
        if (parent.name, name) not in supported:
            raise Unsupported(f"{parent.name}.{name}")
        definition = parent.fields[name]
        type_name, is_list = _named(definition.type)
        children: tuple[Selection, ...] = ()
        if nodes[0].selection_set is not None:
            child_type = schema.get_type(type_name)
            if not isinstance(child_type, GraphQLObjectType):
                raise Unsupported(f"abstract type {type_name}")
            merged = SelectionSetNode(selections=tuple(s for n in nodes if n.selection_set for s in n.selection_set.selections))
            children = _selections(schema, child_type, merged, fragments, supported)
        out.append(Selection(key, name, parent.name, nodes[0], definition, type_name, is_list, children))
    return tuple(out)


def compile_operation(
    schema: GraphQLSchema, operation: OperationDefinitionNode, fragments: dict, supported: Any
) -> tuple[Selection, ...] | None:
    """The operation's root selections, or None when a plan cannot answer it (``supported``: (type, field) pairs)."""
    if operation.operation != OperationType.QUERY or operation.directives:
        return None
    root = schema.query_type
    if root is None:
        return None
    try:
        return _selections(schema, root, operation.selection_set, fragments, supported)
    except Unsupported:
        return None
