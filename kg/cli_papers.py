"""``kg papers merge | split``: correct which records are one paper, kept in the store.

kg decides which records are one paper as it ingests (``kg.works``); a user who knows better joins two
papers, or takes a record out of a paper to make it one of its own. Later ingests follow the correction:
a record's ids lead to the paper the correction left them on.
"""

from __future__ import annotations

import click

from kg.cli_answers import _emit, _json_option, _with_service

__all__ = ["papers"]


@click.group()
def papers() -> None:
    """Correct which records are one paper: join two papers, or split a record off a paper."""


@papers.command()
@click.argument("keep")
@click.argument("other")
@_json_option
def merge(keep: str, other: str, as_json: bool) -> None:
    """OTHER is KEEP: OTHER's records join KEEP, whose id and byline stay; OTHER's ids then find KEEP."""
    record = _with_service(lambda s: s.merge_papers(keep, other))
    _emit(
        as_json,
        record,
        [
            f"merged {record['other']} into {record['keep']}: {record['sources']} record(s) joined it; "
            f"{record['other']} now finds {record['keep']}"
        ],
    )


@papers.command()
@click.argument("paper_id")
@click.option("--source", "-s", required=True, help="The record to take out: its id, or FILE:LINE as `kg paper` lists it.")
@_json_option
def split(paper_id: str, source: str, as_json: bool) -> None:
    """The record SOURCE of PAPER_ID is another paper: it becomes a paper of its own."""
    record = _with_service(lambda s: s.split_paper(paper_id, source))
    _emit(as_json, record, [f"took record {record['source']} out of {record['paper']}: it is now paper {record['to']}"])
