"""The field as a whole (kg.overview) on both stores: timelines, rising concepts, the field map, list lengths."""

from __future__ import annotations

import pytest

from kg.errors import InvalidArgument
from kg.graph.build import GraphBatch
from kg.models import Concept, Paper
from kg.overview import YearCount

from overview_data import rising_batch


@pytest.fixture
def rising(make_service):
    svc = make_service()
    svc.store.apply(rising_batch())
    return svc


def test_timelines_count_papers_per_year_and_a_concepts_share(rising):
    [rising_line, robot] = rising.overview.timelines("concept", ["rising", "robot"])
    assert rising_line == [YearCount(2019, 1, 0.1), YearCount(2020, 1, 0.1), YearCount(2021, 6, 0.2), YearCount(2022, 6, 0.2)]
    assert [y.year for y in robot] == [2021, 2022]
    assert rising.overview.timelines("author", ["ann", "nobody"]) == [[YearCount(y, 10) for y in range(2019, 2023)], []]


def test_the_rising_concept_rises_and_a_new_venue_is_no_burst(rising):
    report = rising.overview.trending()  # the last two years against the two before
    assert (report.since, report.until, report.earlier_from, report.earlier_to) == (2021, 2022, 2019, 2020)
    assert report.venues == ["A"]  # B has no papers before 2021: its papers count in neither window
    assert (report.papers, report.earlier_papers) == (20, 20)
    assert [t.concept_key for t in report.trends] == ["rising"]  # steady holds its share; robot is B's
    top = report.trends[0]
    assert (top.papers, top.earlier_papers, top.share, top.earlier_share) == (12, 2, 0.6, 0.1)
    assert top.score > 2


def test_trends_of_a_window_a_venue_and_nothing_to_compare(rising):
    assert [t.concept_key for t in rising.overview.trending(since=2021, until=2021).trends] == ["rising"]
    assert rising.overview.trending(venue="B").trends == []  # B has no years before 2021
    assert rising.overview.trending(since=2019, until=2020).trends == []  # nothing before 2019
    assert rising.overview.trending(min_papers=13).trends == []
    with pytest.raises(InvalidArgument, match="since"):
        rising.overview.trending(since=2022, until=2021)


def test_field_map_and_list_lengths(rising):
    assert [(k, n) for k, n, _ in rising.overview.field_map(2).concepts] == [("robot", 40), ("steady", 20)]
    assert rising.overview.field_map(2).links == []  # robot and steady share no paper
    found = rising.overview.field_map(3)
    assert found.links == [("rising", "steady", 12)]
    community = {k: c for k, _, c in found.concepts}
    assert community["rising"] == community["steady"] != community["robot"]
    lengths = rising.overview.list_lengths()
    assert lengths["papers_per_author"] == 40  # 99% of authorships are Ann's (40) or Bo's (40)
    assert lengths["authors_per_paper"] == 1 and lengths["concepts_per_paper"] == 2
    assert "references_per_paper" not in lengths  # nothing measured: the API assumes its default


def test_answers_follow_the_store(rising):
    assert [t.concept_key for t in rising.overview.trending().trends] == ["rising"]  # and kept
    extra = [Paper(f"n{i}", None, f"n{i}", "text", "A", 2022) for i in range(30)]
    rising.store.apply(
        GraphBatch(papers=extra, concepts=[Concept("newcomer", "newcomer")], mentions=[(p.id, "newcomer", 1.0) for p in extra])
    )
    assert rising.overview.trending().trends[0].concept_key == "newcomer"


def test_kg_trends_prints_the_same(tmp_path):
    from click.testing import CliRunner

    from kg.cli import main
    from kg.store.embedded import EmbeddedStore

    store = EmbeddedStore(tmp_path / "kg-data")
    store.apply(rising_batch())
    store.close()
    result = CliRunner().invoke(main, ["--data-dir", str(tmp_path / "kg-data"), "trends"], catch_exceptions=False)
    assert result.exit_code == 0, result.output
    lines = result.output.splitlines()
    assert lines[0] == "2021-2022 (20 papers) against 2019-2020 (20 papers), 1 venue(s) with papers in both:"
    assert lines[2].split()[:3] == ["rising", "3.4", "12"] and len(lines) == 3
