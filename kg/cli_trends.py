"""``kg trends``: the concepts on the rise, as ``trendingConcepts`` gives them (``kg.overview``)."""

from __future__ import annotations

import click

from kg.cli_answers import _emit, _first_option, _json_option, _table, _with_service
from kg.overview import why_no_trends

__all__ = ["trends"]


@click.command()
@click.option(
    "--since", type=int, help="First year of the recent window (default: the year before --until, earlier for a small library)."
)
@click.option("--until", type=int, help="Last year of the recent window (default: the latest year known).")
@click.option("--area", help="Only papers of this research area (top level or full path).")
@click.option("--venue", help="Only papers of this venue, as the facets list it.")
@click.option(
    "--min-papers",
    type=click.IntRange(1),
    help="Least papers in the recent window (default: 3 in a field, fewer in a small library).",
)
@_first_option
@_json_option
def trends(since, until, area, venue, min_papers: int | None, first: int, as_json: bool) -> None:
    """Concepts whose share of papers grew most from the window before to SINCE..UNTIL.

    Scored by the log-odds ratio with an informative Dirichlet prior (Monroe et al. 2008), counting only
    venues with papers in both windows, so that a venue's first year is not a burst of its topics."""

    def read(service):
        report = service.overview.trending(since=since, until=until, area=area, venue=venue, first=first, min_papers=min_papers)
        names = {c.key: c.name for c in service.store.concepts_by_keys([t.concept_key for t in report.trends]) if c}
        return report, names

    report, names = _with_service(read)
    if report.since is None:
        lines = ["  no years known: the papers carry none"]
    elif not report.trends:
        lines = [
            f"  nothing rose from {report.earlier_from}-{report.earlier_to} to {report.since}-{report.until}: "
            + why_no_trends(report)
        ]
    else:
        venues = "every paper" if report.venues is None else f"{len(report.venues)} venue(s) with papers in both"
        lines = [
            f"{report.since}-{report.until} ({report.papers} papers) against {report.earlier_from}-{report.earlier_to} "
            f"({report.earlier_papers} papers), {venues}:"
        ]
        lines += _table(
            [
                (
                    names.get(t.concept_key, t.concept_key),
                    f"{t.score:.1f}",
                    t.papers,
                    f"{t.share:.2%}",
                    t.earlier_papers,
                    f"{t.earlier_share:.2%}",
                )
                for t in report.trends
            ],
            ("concept", "score", "papers", "share", "before", "share before"),
        )
    _emit(as_json, {"trends": report, "names": names}, lines)
