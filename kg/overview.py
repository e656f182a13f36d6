"""The graph as a whole: its field map, papers over time, the concepts on the rise, and how long its lists run.

Each answer is computed from a few store reads and kept (a bounded LRU) until the store changes: the first
page of the explorer asks for the same map and trends every time.

Rising concepts use the log-odds ratio with an informative Dirichlet prior of Monroe, Colaresi and Quinn
("Fightin' Words", Political Analysis 16(4), 2008): for each concept, the log-odds of a paper of the recent
window mentioning it minus those of the window before, each smoothed by the concept's pooled share of both
windows (a prior worth ``PRIOR_SHARE`` of a window's papers), divided by its standard error. The score is that z-score: it rises
with both growth and evidence, so a concept on three papers does not outrank one on three hundred that
doubled. Venues that enter or leave the corpus are accounted for: when the papers have venues, both windows
count only the venue series (``ICLR`` of ``ICLR 2024``) with papers in both, so a conference's first year is not a burst of its topics.
"""

from __future__ import annotations

import math
import threading
from collections import OrderedDict
from dataclasses import dataclass

import networkx as nx

from kg.authors.profile import venue_series, without_year
from kg.errors import InvalidArgument
from kg.store.base import RELATED_LIMIT, PaperFilter, Store

__all__ = [
    "Overview",
    "YearCount",
    "Trend",
    "Trends",
    "FieldMap",
    "PRIOR_SHARE",
    "LIST_PERCENTILE",
    "default_window",
    "default_min_papers",
    "why_no_trends",
]

PRIOR_SHARE = 0.1  # the Dirichlet prior's weight, as a share of a window's papers, spread by each concept's pooled share
LIST_PERCENTILE = 0.99  # a list's length for the cost limit: what 99% of the relations end in
MAP_LINKS = 6  # each concept of the field map keeps its strongest links to this many others
CACHED = 64  # answers kept
WINDOW_PAPERS = 200  # each window of the default trends holds this many papers, or a quarter of the library, if it can
WIDEST_WINDOW = 10  # years: the default recent window is two years, widened up to this for a library that needs it


@dataclass(frozen=True, slots=True)
class YearCount:
    year: int
    papers: int
    share: float | None = None  # of that year's papers (concepts)


@dataclass(frozen=True, slots=True)
class Trend:
    concept_key: str
    score: float  # the z-score of the log-odds ratio (see the module docstring)
    papers: int  # in the recent window
    earlier_papers: int  # in the window before
    share: float  # of the recent window's papers
    earlier_share: float


@dataclass(frozen=True, slots=True)
class Trends:
    since: int | None  # the recent window, inclusive (None: no years known)
    until: int | None
    earlier_from: int | None  # the window it is compared with: as long, just before
    earlier_to: int | None
    venues: list[str] | None  # the venue series counted, without years (None: every paper)
    papers: int  # in the recent window
    earlier_papers: int
    trends: list[Trend]
    min_papers: int = 3  # the least papers a concept had in the recent window to be listed
    years: int = 0  # the years the papers span (0: none known)
    dated: int = 0  # the papers with a year


@dataclass(frozen=True, slots=True)
class FieldMap:
    concepts: list[tuple[str, int, int]]  # (key, papers, community), most papers first
    links: list[tuple[str, str, int]]  # (key, key, papers the two share among those most about either)


def default_window(years: list[tuple[int, int]], until: int) -> int:
    """The recent window's length, in years, when none is asked for: two years, or as many more (up to
    ``WIDEST_WINDOW``) as it takes for it and the window before to hold ``WINDOW_PAPERS`` papers each, or a quarter
    of the library's: a field's last two years say what rose; a library of thirty papers over a decade needs wider
    windows to say anything.

    >>> default_window([(2022, 4000), (2023, 5000), (2024, 6000)], 2024)
    2
    >>> default_window([(y, 3) for y in range(2013, 2025)], 2024)
    3
    >>> default_window([(2019, 10), (2020, 10), (2021, 30), (2022, 60)], 2022)  # no window fills: the fullest pair
    2
    """
    per_year = dict(years)
    need = min(WINDOW_PAPERS, max(1, sum(per_year.values()) // 4))
    best = (-1, -2)  # (papers in the emptier window, minus the span): when no span gives both enough, the fullest pair
    for span in range(2, WIDEST_WINDOW + 1):
        recent = sum(per_year.get(y, 0) for y in range(until - span + 1, until + 1))
        earlier = sum(per_year.get(y, 0) for y in range(until - 2 * span + 1, until - span + 1))
        if recent >= need and earlier >= need:
            return span
        best = max(best, (min(recent, earlier), -span))
    return -best[1]


def default_min_papers(recent: int) -> int:
    """The least papers a concept needs in the recent window, when none is asked for: three in a field (100 papers
    or more in the window), two in a mid-sized library, one in a small one.

    >>> default_min_papers(5000), default_min_papers(40), default_min_papers(8)
    (3, 2, 1)
    """
    return 3 if recent >= 100 else 2 if recent >= 20 else 1


def why_no_trends(t: Trends) -> str:
    """Why a trends report lists nothing, in terms of what the library holds (for the explorer and the CLI)."""
    if t.since is None:
        return "no paper carries a year"
    if t.venues is not None and not t.venues:
        return (
            f"no venue has papers both in {t.earlier_from}-{t.earlier_to} and in {t.since}-{t.until} (a venue's papers are "
            "compared with its own, so that its first year is no burst of its topics)"
        )
    if not t.earlier_papers:
        return (
            f"the {t.dated} papers with a year span {t.years} year{'s' if t.years != 1 else ''}, and none is from "
            f"{t.earlier_from}-{t.earlier_to}, the years to compare {t.since}-{t.until} with"
        )
    if not t.papers:
        return f"no paper is from {t.since}-{t.until}"
    return (
        f"no concept is on {t.min_papers} or more of the {t.papers} papers of {t.since}-{t.until} and on a larger share "
        f"of them than of the {t.earlier_papers} papers before"
    )


class Overview:
    """Whole-graph reads over one store (``KGService.overview``)."""

    def __init__(self, store: Store) -> None:
        self.store = store
        self._answers: OrderedDict = OrderedDict()
        self._lock = threading.Lock()
        self._building = threading.Lock()

    def _memo(self, key: tuple, build):
        key = (self.store.stats(), *key)  # the counts change whenever the store does
        found = self._kept(key)
        if found is not None:
            return found
        with self._building:  # one build at a time: a request asking for what the warm-up is building waits for it
            found = self._kept(key)
            if found is not None:
                return found
            value = build()
            with self._lock:
                self._answers[key] = value
                while len(self._answers) > CACHED:
                    self._answers.popitem(last=False)
        return value

    def _kept(self, key: tuple):
        with self._lock:
            if key in self._answers:
                self._answers.move_to_end(key)
                return self._answers[key]
        return None

    def year_totals(self) -> dict[int, int]:
        """Papers per year in the whole store."""
        return self._memo(("years",), lambda: dict(self.store.paper_facets(PaperFilter()).years))

    def timelines(self, kind: str, keys: list[str]) -> list[list[YearCount]]:
        """Papers per year of each author or concept; a concept's also as a share of that year's papers."""
        totals = self.year_totals() if kind == "concept" else {}
        return [
            [YearCount(y, n, n / totals[y] if totals.get(y) else None) for y, n in years]
            for years in self.store.paper_years(kind, keys)
        ]

    def trending(
        self,
        *,
        since: int | None = None,
        until: int | None = None,
        area: str | None = None,
        venue: str | None = None,
        first: int = 20,
        min_papers: int | None = None,
    ) -> Trends:
        """The concepts whose share of papers grew most from the window before to ``since``–``until``.

        Unset, the window and the least papers a concept needs scale with the library (``default_window``): the last
        two years and three papers for a field, wider windows and fewer papers for a personal library of a few dozen.
        """
        if since is not None and until is not None and since > until:
            raise InvalidArgument(f"since ({since}) is after until ({until})")
        return self._memo(
            ("trends", since, until, area, venue, first, min_papers),
            lambda: self._trending(since, until, area, venue, first, min_papers),
        )

    def _trending(self, since, until, area, venue, first, min_papers) -> Trends:
        years = sorted(self.store.paper_facets(PaperFilter(area=area, venue=venue)).years)
        if not years:
            return Trends(None, None, None, None, None, 0, 0, [], min_papers or 3, 0, 0)
        until = until if until is not None else years[-1][0]
        if since is None:
            since = until - default_window(years, until) + 1
        span = until - since + 1
        recent = PaperFilter(area=area, venue=venue, year_from=since, year_to=until)
        earlier = PaperFilter(area=area, venue=venue, year_from=since - span, year_to=since - 1)
        venues, series = self._stable_venues(recent, earlier)
        n_r, recent_counts = self.store.concept_counts(recent, venues)
        n_e, earlier_counts = self.store.concept_counts(earlier, venues)
        if min_papers is None:
            min_papers = default_min_papers(n_r)
        trends = (
            []
            if not n_e
            else [
                t
                for key, y_r in recent_counts.items()
                if y_r >= min_papers
                for t in [_log_odds(key, y_r, n_r, earlier_counts.get(key, 0), n_e)]
                if t.score > 0
            ]
        )
        trends.sort(key=lambda t: (-t.score, t.concept_key))
        dated = sum(n for _, n in years)
        spanned = years[-1][0] - years[0][0] + 1
        return Trends(since, until, since - span, since - 1, series, n_r, n_e, trends[:first], min_papers, spanned, dated)

    def _stable_venues(self, recent: PaperFilter, earlier: PaperFilter) -> tuple[set[str] | None, list[str] | None]:
        """The venues of the series (``ICLR``, of ``ICLR 2024``) with papers in both windows, and those series; or
        None (count every paper) when either window knows no venue."""
        a = {v for v, _ in self.store.paper_facets(recent).venues}
        b = {v for v, _ in self.store.paper_facets(earlier).venues}
        if not a or not b:
            return None, None
        series = {venue_series(v) for v in a} & {venue_series(v) for v in b}
        counted = {v for v in a | b if venue_series(v) in series}
        shown = {venue_series(v): without_year(v) for v in sorted(counted)}
        return counted, sorted(shown.values())

    def field_map(self, first: int = 150) -> FieldMap:
        """The ``first`` concepts with the most papers, linked where papers share them, in Louvain communities."""
        return self._memo(("map", first), lambda: self._field_map(first))

    def _field_map(self, first: int) -> FieldMap:
        top = self.store.find_concepts(None, 0, first).items
        keys = [c.key for c in top]
        counts = self.store.paper_counts_of_concepts(keys)
        inside = set(keys)
        weights: dict[tuple[str, str], int] = {}
        for key, related in zip(keys, self.store.related_concepts(keys, RELATED_LIMIT)):
            kept = [r for r in related if r.concept_key in inside][:MAP_LINKS]
            for r in kept:
                pair = tuple(sorted((key, r.concept_key)))
                weights[pair] = max(weights.get(pair, 0), r.shared_papers)
        g = nx.Graph()
        g.add_nodes_from(keys)
        g.add_weighted_edges_from((a, b, w) for (a, b), w in sorted(weights.items()))
        communities = (
            sorted(
                (sorted(c) for c in nx.community.louvain_communities(g, weight="weight", seed=7)), key=lambda c: (-len(c), c[0])
            )
            if keys
            else []
        )
        of = {k: i for i, members in enumerate(communities) for k in members}
        return FieldMap([(k, n, of[k]) for k, n in zip(keys, counts)], [(a, b, w) for (a, b), w in sorted(weights.items())])

    def list_lengths(self) -> dict[str, int]:
        """For each list the store keeps (``Store.degree_histograms``), the length at the end of
        ``LIST_PERCENTILE`` of its relations: an author reached through 99% of authorships has at most
        ``papers_per_author`` papers. Counted over relations, not nodes, because a walk reaches the
        long lists more often than their share of nodes."""
        out = {}
        for name, histogram in self.store.degree_histograms().items():
            total = sum(d * n for d, n in histogram.items())
            seen = 0
            for d in sorted(histogram):
                seen += d * histogram[d]
                if seen >= LIST_PERCENTILE * total:
                    out[name] = d
                    break
        return out

    def warm(self) -> None:
        """Compute what the explorer's first page asks for."""
        self.field_map()
        self.trending()


def _log_odds(key: str, y_r: int, n_r: int, y_e: int, n_e: int) -> Trend:
    a0 = PRIOR_SHARE * (n_r + n_e) / 2
    alpha = a0 * (y_r + y_e) / max(n_r + n_e, 1)
    delta = math.log((y_r + alpha) / max(n_r + a0 - y_r - alpha, 0.5)) - math.log(
        (y_e + alpha) / max(n_e + a0 - y_e - alpha, 0.5)
    )
    score = delta / math.sqrt(1 / (y_r + alpha) + 1 / (y_e + alpha))
    return Trend(key, round(score, 4), y_r, y_e, y_r / n_r if n_r else 0.0, y_e / n_e if n_e else 0.0)
