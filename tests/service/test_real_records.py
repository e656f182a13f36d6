"""Records as real files bring them (issue 10): gzip, title-only, bad records, huge bylines, hostile input."""

from __future__ import annotations

import json
import re
import os
import subprocess
import sys
import time

import pytest

from kg.errors import ReaderError

from helpers import member, paper, write_jsonl


def test_gzip_and_json_files_are_json_lines(service, tmp_path):
    write_jsonl(tmp_path / "a.jsonl.gz", [paper(1), paper(2)])
    write_jsonl(tmp_path / "b.json", [paper(3)])
    summary = service.ingest([tmp_path])
    assert summary.papers_added == 3 and summary.files == 2


def test_a_title_only_record_is_a_paper_with_concepts(service, tmp_path):
    write_jsonl(tmp_path / "t.jsonl", [paper(1, abstract=None, title="Sharpness-aware minimization for vision transformers")])
    assert service.ingest([tmp_path / "t.jsonl"]).papers_added == 1
    [found] = service.store.papers_by_ids(["p1"])
    assert found.label == "Sharpness-aware minimization for vision transformers" and found.abstract == ""
    [concepts] = service.store.concepts_of_papers(["p1"])
    assert {"sharpness aware minimization", "vision transformer"} <= {c.key for c in concepts}


def test_title_only_records_without_ids_stay_apart(service, tmp_path):
    rows = [{"title": "One title", "authors": ["A B"]}, {"title": "Another title", "authors": ["C D"]}]
    write_jsonl(tmp_path / "t.jsonl", rows)
    assert service.ingest([tmp_path / "t.jsonl"]).papers_added == 2


def test_a_bad_record_fails_the_ingest_and_writes_nothing(service, tmp_path):
    write_jsonl(tmp_path / "bad.jsonl", [paper(1), paper(2, authors="Ann, Bo")])
    with pytest.raises(ReaderError, match=r"bad.jsonl:2: field 'authors'"):
        service.ingest([tmp_path / "bad.jsonl"])
    assert service.stats().papers == 0


def test_skip_invalid_counts_names_and_keeps_the_rest(tmp_path):
    data = write_jsonl(
        tmp_path / "mixed.jsonl", [paper(1), paper(2, authors="Ann, Bo"), paper(3)], raw_lines=["{not json", "[1, 2]"]
    )
    rejects = tmp_path / "rejects.jsonl"
    env = dict(os.environ, KG_DATA_DIR=str(tmp_path / "store"), KG_WORKERS="1")
    env.pop("NEO4J_URI", None)
    done = subprocess.run(
        [sys.executable, "-m", "kg.cli", "ingest", str(data), "--skip-invalid", "--rejects", str(rejects)],
        capture_output=True,
        text=True,
        env=env,
        timeout=300,
    )
    assert done.returncode == 0, done.stderr
    assert "papers: +2 new" in done.stdout
    assert "skipped 3 invalid record(s)" in done.stderr and "mixed.jsonl:2: field 'authors'" in done.stderr
    rows = [json.loads(line) for line in rejects.read_text().splitlines()]
    assert [r["line"] for r in rows] == [2, 4, 5] and rows[1]["text"] == "{not json"


def test_a_5000_author_byline_links_every_author_but_adds_no_pairs(service, tmp_path):
    authors = [member(i) for i in range(5000)]
    write_jsonl(tmp_path / "big.jsonl", [paper(1, authors=authors), paper(2, authors=[member(1), member(2)])])
    service.ingest([tmp_path / "big.jsonl"])
    [byline] = service.store.authors_of_papers(["p1"])
    assert len(byline) == 5000 and byline[0].name == "Member Aaaa"
    assert service.stats().coauthor_edges == 1  # only the two-author paper's pair


def test_control_characters_never_reach_the_graph(service, tmp_path):
    write_jsonl(
        tmp_path / "c.jsonl", [paper(1, authors=["Wei\u0000 Lin\u001b", "Bo\u0007 Chen"], keywords=["graph\u0000 learning"])]
    )
    service.ingest([tmp_path / "c.jsonl"])
    names = [a.name for a in service.store.authors_of_papers(["p1"])[0]]
    assert names == ["Wei Lin", "Bo Chen"]
    keys = {c.key for c in service.store.concepts_of_papers(["p1"])[0]}
    assert "graph learning" in keys and not any("\x00" in k for k in keys)


def test_a_huge_abstract_and_deep_nesting_get_a_rule_and_an_error(service, tmp_path):
    write_jsonl(tmp_path / "huge.jsonl", [paper(1, abstract="Graph neural networks help. " * 40_000)])  # 1.1 M characters
    assert service.ingest([tmp_path / "huge.jsonl"]).papers_added == 1
    write_jsonl(tmp_path / "deep.jsonl", [], raw_lines=["[" * 100_000])
    with pytest.raises(ReaderError, match=r"deep.jsonl:1: invalid JSON: nested too deeply"):
        service.ingest([tmp_path / "deep.jsonl"])


def test_an_empty_file_rewrites_nothing(service, tmp_path):
    service.ingest([write_jsonl(tmp_path / "one.jsonl", [paper(1)])])
    store_file = service.store.path
    before = store_file.stat().st_mtime_ns
    time.sleep(0.01)
    summary = service.ingest([write_jsonl(tmp_path / "empty.jsonl", [])])
    assert summary.papers_added == 0 and store_file.stat().st_mtime_ns == before


def test_a_stale_temporary_file_is_removed_by_the_next_write(service, tmp_path):
    service.ingest([write_jsonl(tmp_path / "one.jsonl", [paper(1)])])
    stale = service.store.data_dir / ".graph-killed.tmp"
    stale.write_bytes(b"half a graph")
    os.utime(stale, (time.time() - 7200, time.time() - 7200))
    service.ingest([write_jsonl(tmp_path / "two.jsonl", [paper(2)])])
    assert not stale.exists()


def test_invalid_utf8_is_one_more_skippable_record(service, tmp_path):
    from kg.readers import read_path

    good = (json.dumps(paper(1)) + "\n").encode()
    path = tmp_path / "bytes.jsonl"
    path.write_bytes(good + b'{"id": "p2", "title": "caf\xe9"}\n' + (json.dumps(paper(3)) + "\n").encode())
    with pytest.raises(ReaderError, match=r"bytes.jsonl:2: invalid UTF-8"):
        list(read_path(path))
    skipped = []
    assert [r.id for r in read_path(path, lambda error, text: skipped.append((error.line, text)))] == ["p1", "p3"]
    assert skipped == [(2, '{"id": "p2", "title": "caf\ufffd"}')]


def test_a_broken_bibtex_entry_says_why(tmp_path):
    from kg.readers import read_path

    path = tmp_path / "refs.bib"
    path.write_text("@article{ok, title = {Fine}, author = {A. B}}\n@article{bad,\n  title = {Broken\n}\n", encoding="utf-8")
    with pytest.raises(ReaderError, match=r"refs.bib:2: invalid BibTeX: Unexpectedly reached end of file"):
        list(read_path(path))


def test_a_folder_ingest_stays_in_the_folder_and_names_what_it_passed_over(service, tmp_path):
    outside = write_jsonl(tmp_path / "outside.jsonl", [paper(9)])
    folder = tmp_path / "in"
    (folder / "sub").mkdir(parents=True)
    write_jsonl(folder / "a.jsonl", [paper(1)])
    (folder / "link.jsonl").symlink_to(outside)
    (folder / "sub" / "up").symlink_to(tmp_path, target_is_directory=True)
    (folder / "notes.md").write_text("not papers")
    summary = service.ingest([folder])
    assert summary.papers_added == 1 and service.store.existing_papers(["p1", "p9"]) == {"p1"}
    assert sorted((p.name, re.split(r"[:,]", why)[0]) for p, why in summary.skipped_files) == [
        ("link.jsonl", f"a link to {outside}"),
        ("notes.md", "unknown format '.md'"),
        ("up", f"a link to {tmp_path}"),
    ]


def test_a_listing_that_changes_a_known_paper_is_reported_not_dropped_silently(service, tmp_path):
    first = write_jsonl(tmp_path / "a.jsonl", [paper(1), paper(1, title="Paper 1, retitled"), paper(2)])
    summary = service.ingest([first])
    assert summary.papers_added == 2 and summary.differing == [("p1", str(first), 2)]
    first.write_text(first.read_text().replace("molecule number 2.", "molecule number 2, edited."))  # the file changed
    rejected = []
    summary = service.ingest([first], on_error=lambda error, text: rejected.append(str(error)))
    assert summary.differing == [("p1", str(first), 2), ("p2", str(first), 3)] and summary.papers_added == 0
    assert rejected[-1] == (
        f"{first}:3: paper p2 is already read from this file with another title or abstract: the first is kept, "
        "this listing is not"
    )
    assert service.store.papers_by_ids(["p2"])[0].abstract == paper(2)["abstract"]  # the first is kept


def test_another_file_with_a_known_id_is_another_source_of_that_paper(service, tmp_path):
    first = write_jsonl(tmp_path / "a.jsonl", [paper(2)])
    service.ingest([first])
    fuller = paper(2, abstract=paper(2)["abstract"] + " It scales to large molecules.", year=2019)
    again = write_jsonl(tmp_path / "b.jsonl", [fuller, paper(3)])
    summary = service.ingest([again])
    assert summary.differing == [] and summary.papers_added == 1
    [report] = summary.file_reports
    assert (report.records, report.new, report.joined, report.present) == (2, 1, 1, 0)
    [p2] = service.store.papers_by_ids(["p2"])
    assert p2.abstract == fuller["abstract"] and p2.year == 2019  # the fuller abstract; the only year
    assert [(s.file, s.why) for s in service.store.sources_of_papers(["p2"])[0]] == [
        (str(first), "first record"),
        (str(again), "the same record id p2"),
    ]


def test_the_store_is_its_users_alone(service, tmp_path):
    import stat

    service.ingest([write_jsonl(tmp_path / "a.jsonl", [paper(1)])])
    folder = service.store.log.folder
    assert stat.S_IMODE(folder.stat().st_mode) == 0o700
    files = [p for p in folder.iterdir()] + [p for p in service.store.data_dir.iterdir() if p.is_file()]
    assert files and all(stat.S_IMODE(p.stat().st_mode) == 0o600 for p in files), [(p.name, oct(p.stat().st_mode)) for p in files]
