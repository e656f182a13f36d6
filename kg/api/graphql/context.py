"""The typed request context: the service and this request's loaders."""

from __future__ import annotations

from functools import cached_property

from strawberry.fastapi import BaseContext
from strawberry.types import Info as _Info

from kg import deadline
from kg.api.graphql.loaders import Loaders, call_store, start_request_reads
from kg.errors import KGError
from kg.service import KGService

__all__ = ["Context", "Info"]


class Context(BaseContext):
    def __init__(self, service: KGService, *, plans: bool = True, tree=None) -> None:
        super().__init__()
        self.service = service
        self.plans = plans  # answer the operations compiled plans cover with them (schema.PlannedExecution)
        self.tree = tree  # the store's async reader of whole compiled operations, if it has one
        deadline.start(service.settings.request_deadline)  # every read of this request stops at it (``kg.deadline``)
        start_request_reads()  # and it holds at most READS_PER_REQUEST read threads at once
        try:
            service.refresh()  # one look at the store per request (never waits: it runs on the event loop)
        except KGError:
            pass  # the fields that need the store report it, as GraphQL errors

    @cached_property
    def loaders(self) -> Loaders:
        """The request's DataLoaders, made when a resolver first asks (planned operations need none)."""
        return Loaders.create(self.service)

    async def call(self, fn, *args):
        """A service call that reads the store (see ``call_store``)."""
        return await call_store(self.service, fn, *args)


Info = _Info[Context, None]
