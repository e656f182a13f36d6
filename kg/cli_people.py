"""``kg authors merge | split | corrections``: correct who is who, kept in the store.

kg decides who is who as it ingests (``kg.authors``); a user who knows better
joins two people or moves papers to a new one. Later ingests build on the
corrected people and never undo them.
"""

from __future__ import annotations

import click

from kg.cli_answers import _emit, _json_option, _table, _with_service

__all__ = ["authors"]


@click.group()
def authors() -> None:
    """Correct who is who: join two people, or move papers to a new person."""


@authors.command()
@click.argument("keep")
@click.argument("other")
@_json_option
def merge(keep: str, other: str, as_json: bool) -> None:
    """OTHER is KEEP: OTHER's papers join KEEP, whose id survives; OTHER's id then means KEEP."""
    record = _with_service(lambda s: s.merge_authors(keep, other))
    _emit(
        as_json,
        record,
        [
            f"merged {record['other']} into {record['keep']}: {record['papers']} paper(s) moved; "
            f"{record['other']} now resolves to {record['keep']}"
        ],
    )


@authors.command()
@click.argument("author_id")
@click.option(
    "--papers",
    "-p",
    "papers",
    multiple=True,
    required=True,
    help="A paper id to move to the new person (repeat, or separate ids with spaces or commas).",
)
@_json_option
def split(author_id: str, papers: tuple[str, ...], as_json: bool) -> None:
    """AUTHOR_ID's papers given by --papers are someone else's: they move to a new person."""
    ids = [p for given in papers for p in given.replace(",", " ").split()]
    record = _with_service(lambda s: s.split_author(author_id, ids))
    _emit(as_json, record, [f"moved {len(record['papers'])} paper(s) from {record['from']} to a new person: {record['to']}"])


@authors.command()
@_json_option
def corrections(as_json: bool) -> None:
    """Every correction made in this store, oldest first."""
    found = _with_service(lambda s: s.corrections())
    rows = [
        (
            r["at"][:19],
            r["kind"],
            r.get("keep") or r.get("from"),
            r.get("other") or r.get("to"),
            r["papers"] if isinstance(r["papers"], int) else len(r["papers"]),
        )
        for r in found
    ]
    _emit(as_json, {"corrections": found}, _table(rows, ("when (UTC)", "kind", "id", "other id", "papers")))
