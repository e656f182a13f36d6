"""Bounded input (issue 63): gzip bombs, impossible years and unended RIS entries are refused at their line."""

from __future__ import annotations

import csv
import gzip
import json
import tracemalloc

import networkx as nx
import pytest

from kg.errors import ReaderError
from kg.export import write_graph
from kg.readers import read_path
from kg.readers._lines import line_limit


def test_a_gzip_bomb_line_is_refused_at_its_line_without_being_held(tmp_path):
    bomb = tmp_path / "bomb.jsonl.gz"
    with gzip.open(bomb, "wb") as handle:
        handle.write(b'{"title": "Fine", "abstract": "A line before.", "authors": ["Ann Lee"]}\n')
        handle.write(b'{"title": "' + b"a" * 40_000_000 + b'"}\n')  # 40 MB that compress to about 40 KB
        handle.write(b'{"title": "After", "abstract": "A line after.", "authors": ["Bo Chen"]}\n')
    assert bomb.stat().st_size < 200_000
    refused = []
    tracemalloc.start()
    with line_limit(1_000_000):
        titles = [r.title for r in read_path(bomb, lambda error, text: refused.append(str(error)))]
        with pytest.raises(ReaderError, match=r"bomb\.jsonl\.gz:2: line longer than 1000000 bytes"):
            list(read_path(bomb))
    _, peak = tracemalloc.get_traced_memory()
    tracemalloc.stop()
    assert titles == ["Fine", "After"] and len(refused) == 1 and peak < 20_000_000


def test_a_document_read_whole_is_bounded_too(tmp_path):
    doc = tmp_path / "records.json"
    doc.write_text(json.dumps([{"title": f"Paper {i}", "abstract": "x" * 1000, "authors": ["A B"]} for i in range(50)], indent=1))
    with line_limit(10_000), pytest.raises(ReaderError, match=r"records\.json:\d+: the file passes 10000 bytes"):
        list(read_path(doc))


@pytest.mark.parametrize("year", [20188, 10**30, 1066, 3000])
def test_an_impossible_year_names_its_line_and_can_be_skipped(tmp_path, year):
    path = tmp_path / "years.jsonl"
    rows = [{"title": "Fine", "abstract": "Ok.", "year": 2020}, {"title": "Bad", "abstract": "Ok.", "year": year}]
    path.write_text("".join(json.dumps(r) + "\n" for r in rows))
    with pytest.raises(ReaderError, match=r"years\.jsonl:2: field 'year': .* is not a year of a paper"):
        list(read_path(path))
    skipped = []
    assert [r.title for r in read_path(path, lambda error, text: skipped.append(error))] == ["Fine"] and len(skipped) == 1


def test_a_ris_entry_without_its_end_tag_is_reported_at_its_line(tmp_path):
    path = tmp_path / "refs.ris"
    path.write_text("TY  - JOUR\nTI  - Fine\nAB  - An abstract.\nER  - \n\nTY  - JOUR\nTI  - No end\nAB  - Another.\n")
    with pytest.raises(ReaderError, match=r"refs\.ris:6: entry without its end tag"):
        list(read_path(path))
    skipped = []
    assert [r.title for r in read_path(path, lambda error, text: skipped.append(error))] == ["Fine"] and len(skipped) == 1


def test_csv_exports_neutralise_formulas(tmp_path):
    g = nx.DiGraph()
    g.add_node("paper:1", title='=HYPERLINK("http://evil.example")', label="@SUM(1+1)*cmd|' /C calc'!A0", year=2020)
    g.add_node("paper:2", title="+1 and -1", label="Plain title", year=2021)
    g.add_edge("paper:1", "paper:2", type="SHARES_CONCEPT", score=-0.5)
    edges, nodes = write_graph(g, "csv", tmp_path / "kg.csv")
    with nodes.open(encoding="utf-8") as handle:
        rows = list(csv.DictReader(handle))
    assert [r["title"] for r in rows] == ['\'=HYPERLINK("http://evil.example")', "'+1 and -1"]
    assert rows[0]["label"].startswith("'@") and rows[1]["label"] == "Plain title"
    with edges.open(encoding="utf-8") as handle:
        [edge] = list(csv.DictReader(handle))
    assert edge["score"] == "-0.5"  # a number stays a number
