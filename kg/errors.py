"""Errors raised by kg. The API layer translates them; nothing below it does."""

from __future__ import annotations

__all__ = [
    "KGError",
    "ReaderError",
    "ExtractionError",
    "StoreError",
    "StoreUnavailable",
    "MigrationError",
    "InvalidArgument",
    "AmbiguousAuthor",
    "ServerError",
    "DeadlineExceeded",
    "AnswerTooLarge",
]


class KGError(Exception):
    """Base class of every error kg raises on purpose."""


class ReaderError(KGError):
    """Malformed input; names the file and the line."""

    def __init__(self, path: str, line: int | None, message: str) -> None:
        self.path = str(path)
        self.line = line
        self.message = message
        where = f"{self.path}:{line}" if line is not None else self.path
        super().__init__(f"{where}: {message}")

    def __reduce__(self):  # picklable, so that a Spark worker can hand a bad line back to the driver
        return type(self), (self.path, self.line, self.message)


class ExtractionError(KGError):
    """The extraction pipeline could not be set up (e.g. no spaCy model)."""


class StoreError(KGError):
    """The store refused or failed an operation."""


class StoreUnavailable(StoreError):
    """The store cannot be reached right now."""


class MigrationError(StoreError):
    """Database schema migrations are missing, behind, or were changed."""


class InvalidArgument(KGError):
    """A caller passed an argument outside its allowed range."""


class AmbiguousAuthor(InvalidArgument):
    """Several people bear the name asked for: each with their id and what tells them apart."""

    def __init__(self, name: str, people: list[tuple[str, str]]) -> None:
        self.name = name
        self.people = people  # (id, description)
        listed = "; ".join(f"{key!r} ({hint})" for key, hint in people[:10])
        more = f" and {len(people) - 10} more" if len(people) > 10 else ""
        super().__init__(
            f"{len(people)} people are named {name!r}: {listed}{more}. Ask for one by its id "
            "(GraphQL author(id:), kg author ID), or list them all (people(name:), kg author NAME)"
        )


class ServerError(KGError):
    """The local Neo4j server (`kg neo4j …`) could not be fetched, started or stopped."""


class AnswerTooLarge(KGError):
    """An answer grew past the bytes a request may be answered with (``KG_MAX_ANSWER_BYTES``)."""

    def __init__(self, limit: int) -> None:
        self.limit = limit
        super().__init__(
            f"the answer would be larger than {limit:,} bytes (KG_MAX_ANSWER_BYTES): ask for fewer fields, "
            "smaller pages (`first`) or fewer nested lists"
        )

    def __reduce__(self):
        return type(self), (self.limit,)


class DeadlineExceeded(KGError):
    """A request's work ran past its deadline and was stopped (``kg.deadline``)."""

    def __init__(self, seconds: float) -> None:
        self.seconds = seconds
        super().__init__(f"the operation ran past its {seconds:g} s deadline (KG_REQUEST_DEADLINE); ask for less")

    def __reduce__(self):
        return type(self), (self.seconds,)
