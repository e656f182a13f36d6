"""A user's corrections of who is who, on both stores: merge and split, kept, resolved, and respected later."""

from __future__ import annotations

import pytest

from helpers import write_jsonl
from kg.errors import InvalidArgument
from test_people import byline_keys, language, robotics


def _ids(name, n):
    return [name, None, None] if n == 0 else [None, name, None]


def _two_wei_wangs(svc, tmp_path):
    """Two people named Wei Wang, told apart by their ORCID ids: (the roboticist's id, the linguist's)."""
    rows = [robotics(i, author_ids=["orcid:r", None, None]) for i in range(3)] + [
        language(i, author_ids=[None, "orcid:l", None]) for i in range(2)
    ]
    svc.ingest([write_jsonl(tmp_path / "a.jsonl", rows)])
    robot, words = byline_keys(svc, ["r0", "l0"])
    return robot[0], words[1]


def _joint(svc, key):
    return {c.author_key: c.joint_papers for c in svc.store.coauthors_of([key])[0]}


def test_merge_joins_two_people_and_the_merged_id_still_resolves(make_service, tmp_path):
    svc = make_service()
    robot, words = _two_wei_wangs(svc, tmp_path)
    authors_before = svc.stats().authors
    record = svc.merge_authors(robot, words)
    assert record["kind"] == "merge" and record["keep"] == robot and record["papers"] == 2
    assert svc.store.paper_counts_of_authors([robot]) == [5]
    assert svc.store.authors_by_keys([words]) == [None]  # gone as a node ...
    assert svc.author(words).key == robot and svc.author_by_id(words).key == robot  # ... and its id means the survivor
    assert svc.stats().authors == authors_before - 1
    assert byline_keys(svc, ["l0", "l1"]) == [["kevin knight", robot, "philipp koehn"]] * 2
    assert _joint(svc, robot) == {"jonas buchli": 3, "marco hutter": 3, "kevin knight": 2, "philipp koehn": 2}
    assert _joint(svc, "kevin knight")[robot] == 2 and words not in _joint(svc, "kevin knight")
    places = {i.name.casefold(): n for i, n in svc.store.institutions_of_authors([robot])[0]}
    assert places == {"eth zurich": 3, "university of edinburgh": 2}
    why = dict((p, w) for p, _, w in svc.store.authorships_of_authors([robot])[0])
    assert f"moved from {words}" in why["l0"] and "kg authors merge" in why["l0"]
    assert [c["kind"] for c in svc.corrections()] == ["merge"]

    # later ingests build on the merged person: the linguist's id now names them, and the merged id is never reused
    later = [language(5, author_ids=[None, "orcid:l", None]), robotics(9, author_ids=["orcid:z", None, None])]
    svc.ingest([write_jsonl(tmp_path / "b.jsonl", later)])
    [[_, by_id, _], [someone, _, _]] = byline_keys(svc, ["l5", "r9"])
    assert by_id == robot
    assert someone not in (robot, words) and svc.store.authors_by_keys([someone])[0] is not None


def test_merge_is_refused_for_two_names_on_one_paper_and_unknown_ids(make_service, tmp_path):
    svc = make_service()
    svc.ingest([write_jsonl(tmp_path / "a.jsonl", [robotics(0)])])
    before = svc.stats()
    with pytest.raises(InvalidArgument, match="both on the byline of r0"):
        svc.merge_authors("jonas buchli", "marco hutter")
    with pytest.raises(InvalidArgument, match="no person has the id 'nobody'"):
        svc.merge_authors("jonas buchli", "nobody")
    with pytest.raises(InvalidArgument, match="already one person"):
        svc.merge_authors("jonas buchli", "jonas buchli")
    assert svc.stats() == before and svc.corrections() == []


def test_split_moves_papers_to_a_new_person_and_later_ingests_keep_it(make_service, tmp_path):
    svc = make_service()
    rows = [robotics(i) for i in range(4)]
    rows[3]["affiliations"] = ["MIT", "ETH Zurich", "ETH Zurich"]
    first = write_jsonl(tmp_path / "a.jsonl", rows)
    svc.ingest([first])
    [person] = {k[0] for k in byline_keys(svc, ["r0", "r1", "r2", "r3"])}
    record = svc.split_author(person, ["r3", "r2"])
    new = record["to"]
    assert record["papers"] == ["r2", "r3"] and new not in (person, "") and new.startswith("wei wang")
    assert [k[0] for k in byline_keys(svc, ["r0", "r1", "r2", "r3"])] == [person, person, new, new]
    assert svc.store.paper_counts_of_authors([person, new]) == [2, 2]
    assert _joint(svc, person) == {"jonas buchli": 2, "marco hutter": 2} == _joint(svc, new)
    assert {i.name: n for i, n in svc.store.institutions_of_authors([new])[0]} == {"ETH Zurich": 1, "MIT": 1}
    assert {i.name: n for i, n in svc.store.institutions_of_authors([person])[0]} == {"ETH Zurich": 2}
    assert sorted(p.papers for p in svc.people("Wei Wang")) == [2, 2]  # profiles counted afresh for both
    [ship] = [s for s in svc.store.authorships_of_papers(["r3"])[0] if s.author.key == new]
    assert (ship.position, ship.name, ship.affiliation) == (0, "Wei Wang", "MIT")

    svc.ingest([first])  # the whole input again: nothing moves back
    svc.ingest([write_jsonl(tmp_path / "b.jsonl", [robotics(7)])])  # and a new paper joins one of the two
    assert [k[0] for k in byline_keys(svc, ["r2", "r3"])] == [new, new]
    assert byline_keys(svc, ["r7"])[0][0] in (person, new) and len(svc.people("Wei Wang")) == 2
    assert [c["kind"] for c in svc.corrections()] == ["split"]

    with pytest.raises(InvalidArgument, match="all of"):
        svc.split_author(new, [p for p, _, _ in svc.store.authorships_of_authors([new])[0]])
    with pytest.raises(InvalidArgument, match="not on the byline of l0"):
        svc.split_author(person, ["l0"])


def test_corrections_are_kept_in_the_store_and_shown_in_the_api(make_service, tmp_path):
    from fastapi.testclient import TestClient

    from kg.api.app import create_app
    from kg.service import KGService
    from kg.store import open_store

    svc = make_service()
    robot, words = _two_wei_wangs(svc, tmp_path)
    svc.merge_authors(robot, words)
    again = KGService(open_store(svc.settings), svc.settings, extractor=svc._extractor)  # a new process's view
    try:
        assert again.author_by_id(words).key == robot and len(again.corrections()) == 1
    finally:
        again.close()
    with TestClient(create_app(svc)) as client:
        q = (
            'query($i: ID!) { author(id: $i) { id paperCount } paper(id: "l0") { authorships { position name affiliation '
            "author { id } } } }"
        )
        body = client.post("/graphql", json={"query": q, "variables": {"i": words}}).json()
    assert body["data"]["author"] == {"id": robot, "paperCount": 5}
    assert body["data"]["paper"]["authorships"][1] == {
        "position": 1,
        "name": "Wei Wang",
        "affiliation": "University of Edinburgh",
        "author": {"id": robot},
    }


def test_the_cli_merges_splits_and_lists_corrections(tmp_path):
    from click.testing import CliRunner

    from kg.cli import main
    from kg.config import get_settings

    env = {"KG_DATA_DIR": str(tmp_path / "store"), "NEO4J_URI": None}
    rows = [robotics(i) for i in range(3)] + [language(i) for i in range(2)]

    def run(*args):
        get_settings.cache_clear()
        try:
            return CliRunner().invoke(main, list(args), env=env)
        finally:
            get_settings.cache_clear()

    assert run("ingest", str(write_jsonl(tmp_path / "a.jsonl", rows))).exit_code == 0
    people = run("author", "Wei Wang").output
    keys = sorted({w for line in people.splitlines() for w in line.split("  ") if w.strip().startswith("wei wang")})
    robot, words = (k.strip() for k in keys)
    out = run("authors", "split", robot, "--papers", "r1,r2")
    assert out.exit_code == 0 and f"moved 2 paper(s) from {robot} to a new person" in out.output
    out = run("authors", "merge", robot, words)
    assert out.exit_code == 0 and f"{words} now resolves to {robot}" in out.output
    listed = run("authors", "corrections").output
    assert "split" in listed and "merge" in listed
    assert run("authors", "merge", robot, "nobody").exit_code == 1
