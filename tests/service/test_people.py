"""Who is who, on both stores: homonyms split, variants joined, keys stable across ingests, source ids honoured."""

from __future__ import annotations

import pytest

from helpers import write_jsonl
from kg.errors import AmbiguousAuthor


ROBOTICS = (
    "We present a legged robot controller that uses model predictive control for locomotion on rough "
    "terrain, with whole-body dynamics and contact planning evaluated on a quadruped robot."
)
LANGUAGE = (
    "We study machine translation with transformer language models and propose a decoding method for "
    "low-resource language pairs, evaluated with BLEU on news translation benchmarks."
)


def robotics(i, name="Wei Wang", **extra):
    return {
        "id": f"r{i}",
        "title": f"Quadruped locomotion {i}",
        "abstract": ROBOTICS,
        "venue": f"ICRA {2008 + i}",
        "year": 2008 + i,
        "authors": [name, "Jonas Buchli", "Marco Hutter"],
        "affiliations": ["ETH Zurich", "ETH Zurich", "ETH Zurich"],
        **extra,
    }


def language(i, name="Wei Wang", **extra):
    return {
        "id": f"l{i}",
        "title": f"Low-resource translation {i}",
        "abstract": LANGUAGE,
        "venue": f"ACL {2019 + i}",
        "year": 2019 + i,
        "authors": ["Kevin Knight", name, "Philipp Koehn"],
        "affiliations": ["University of Edinburgh", "University of Edinburgh", "University of Edinburgh"],
        **extra,
    }


def byline_keys(svc, ids):
    return [[a.key for a in authors] for authors in svc.store.authors_of_papers(ids)]


def test_one_name_two_people_and_one_person_two_spellings(make_service, tmp_path):
    svc = make_service()
    rows = [robotics(i) for i in range(3)] + [language(i) for i in range(3)]
    rows.append(robotics(3, name="W. Wang"))  # the robotics Wei Wang with an initial
    rows.append(robotics(4, name="Wéi  WANG"))  # accents, case and spacing
    svc.ingest([write_jsonl(tmp_path / "a.jsonl", rows)])
    keys = byline_keys(svc, ["r0", "r1", "r2", "r3", "r4", "l0", "l1", "l2"])
    robot = {k[0] for k in keys[:5]}
    words = {k[1] for k in keys[5:]}
    assert len(robot) == 1 and len(words) == 1 and robot != words
    assert svc.store.paper_counts_of_authors([*robot, *words]) == [5, 3]
    assert svc.stats().authors == 2 + 2 + 2  # two people named Wei Wang, and their four co-authors
    # a name's lookup reads each profile's head only (papers and given names), cut in the store, and finds the same
    from kg.authors.lookup import name_lookup
    from kg.authors.profile import Profile

    blocks = list(name_lookup("Wei Wang").blocks)
    whole, heads = svc.store.people_in_blocks(blocks), svc.store.people_in_blocks(blocks, heads=True)
    assert [r[:3] for r in whole] == [r[:3] for r in heads] and len(whole) == 2
    for (_, _, _, full), (_, _, _, head) in zip(whole, heads, strict=True):
        assert len(head) < len(full) and head == Profile.head(full)
    with pytest.raises(AmbiguousAuthor) as found:
        svc.author_id("Wei Wang")
    assert "eth zurich; icra" in str(found.value) and "acl" in str(found.value)  # told apart by whole profiles


def test_a_hyphenated_given_name_is_one_name(make_service, tmp_path):
    svc = make_service()
    names = ["Yi-Ling Chen", "Y. Chen", "Yi Chen", "Yi Ling Chen", "Yiling Chen"]  # same co-authors, place and topic
    svc.ingest([write_jsonl(tmp_path / "a.jsonl", [robotics(i, name=n) for i, n in enumerate(names)])])
    keys = [k[0] for k in byline_keys(svc, [f"r{i}" for i in range(5)])]
    assert keys[0] == keys[1] == keys[3] == keys[4]  # her spellings, and her initial
    assert keys[2] != keys[0]  # Yi is not Yi-Ling: a given name is met whole or by its initials
    why = lambda s: [s.store.authorships_of_authors([k])[0] for k in sorted(set(keys))]
    at_once = why(svc)
    added = make_service()  # a new store (this one closes): the later papers meet the people as it gives them back
    for i, part in enumerate((names[:2], names[2:])):
        rows = [robotics(2 * i + j, name=n) for j, n in enumerate(part)]
        added.ingest([write_jsonl(tmp_path / f"part{i}.jsonl", rows)])
    assert why(added) == at_once  # the same people, and the same probabilities behind them


def test_an_initial_before_the_name_one_goes_by_and_a_syllable_before_a_hyphen(make_service, tmp_path):
    # H. Jin Kim goes by Jin: Hyoun Jin Kim may be her, Hongmin Kim never is. I-Ming is one given name (no dot
    # after the I): Iming is him, Ivan is not. All share co-authors, place and topic.
    names = ["H. Jin Kim", "Hongmin Kim", "Hyoun Jin Kim", "I-Ming Chen", "Ivan Chen", "Iming Chen"]
    svc = make_service()
    svc.ingest([write_jsonl(tmp_path / "a.jsonl", [robotics(i, name=n) for i, n in enumerate(names)])])
    keys = [k[0] for k in byline_keys(svc, [f"r{i}" for i in range(len(names))])]
    assert keys[0] == keys[2] and keys[1] != keys[0]
    assert keys[3] == keys[5] and keys[4] != keys[3]


def test_what_a_byline_carries_besides_the_name_is_not_the_name(make_service, tmp_path):
    # footnote marks and numbers, the joining "and", UTF-8 read as Latin-1: one person, written as meant
    written = ["Jürgen Sturm", "and Jürgen Sturm", "JÃ¼rgen Sturm*", "Jürgen Sturm1,2", "Jürgen Sturm (†)"]
    rows = [robotics(i, name=n) for i, n in enumerate(written)]
    rows[1]["authors"][1] = "Jonas Buchli*"  # a co-author's mark is not a new co-author either
    svc = make_service()
    svc.ingest([write_jsonl(tmp_path / "a.jsonl", rows)])
    ids = [f"r{i}" for i in range(len(written))]
    assert len({k[0] for k in byline_keys(svc, ids)}) == 1 and len({k[1] for k in byline_keys(svc, ids)}) == 1
    bylines = svc.store.authorships_of_papers(ids)
    assert {b[0].name for b in bylines} == {"Jürgen Sturm"} and {b[1].name for b in bylines} == {"Jonas Buchli"}
    assert bylines[0][0].author.name == "Jürgen Sturm"
    assert svc.stats().authors == 3


def test_an_umlaut_written_out_is_the_same_surname(make_service, tmp_path):
    # German writes Krömer as Kroemer where it cannot print the umlaut (and Kromer where the dots are lost)
    rows = [robotics(i, name=n) for i, n in enumerate(["Oliver Kroemer", "Oliver Krömer"])]
    rows += [robotics(2 + i, name=n) for i, n in enumerate(["Alin Albu-Schäffer", "Alin Albu-Schaeffer", "Alin Albu-Schaffer"])]
    rows += [robotics(5, name="Yiming Xu"), robotics(6, name="Yiming Xue")]  # Xue is no Xü: never a Xu
    svc = make_service()
    svc.ingest([write_jsonl(tmp_path / "a.jsonl", rows[:1])])  # the written-out spelling first, in the store
    svc.ingest([write_jsonl(tmp_path / "b.jsonl", rows[1:])])
    keys = [k[0] for k in byline_keys(svc, [f"r{i}" for i in range(7)])]
    assert keys[0] == keys[1] and keys[2] == keys[3] == keys[4]
    assert keys[5] != keys[6]
    assert [p.author.key for p in svc.people("Oliver Krömer")] == [keys[0]]  # either spelling finds him
    assert [p.author.key for p in svc.people("Alin Albu-Schaeffer")] == [keys[2]]
    assert [p.author.key for p in svc.people("Yiming Xue")] == [keys[6]]


def test_an_umlaut_written_out_in_a_given_name_is_the_same_name(make_service, tmp_path):
    # Jürgen is Juergen where the umlaut cannot be printed (and Jurgen where the dots are lost); given name and
    # surname both: Jörg Stückler is Joerg Stueckler. Without an umlaut in print, Michael is no Michal.
    names = ["Juergen Sturm", "Jörg Stückler", "Jürgen Sturm", "Jurgen Sturm", "Joerg Stueckler"]
    names += ["Michael Moeller", "Michal Moeller"]
    rows = [robotics(i, name=n) for i, n in enumerate(names)]
    svc = make_service()
    svc.ingest([write_jsonl(tmp_path / "a.jsonl", rows[:2])])  # one spelling of each in the store first
    svc.ingest([write_jsonl(tmp_path / "b.jsonl", rows[2:])])
    keys = [k[0] for k in byline_keys(svc, [f"r{i}" for i in range(len(names))])]
    assert keys[0] == keys[2] == keys[3] and keys[1] == keys[4]
    assert keys[5] != keys[6]
    assert [p.author.key for p in svc.people("Jürgen Sturm")] == [keys[0]]  # any spelling finds him
    assert [p.author.key for p in svc.people("Joerg Stückler")] == [keys[1]]
    assert [p.author.key for p in svc.people("Michal Moeller")] == [keys[6]]


def test_dblp_numbers_its_homonyms_and_kg_keeps_them_apart(make_service, tmp_path):
    # dblp's exports write one of several people named Wei Wang as 'Wei Wang 0010': an id, not a name
    rows = [robotics(0, name="Wei Wang 0010"), robotics(1, name="Wei Wang 0002"), language(0, name="Wei Wang 0010")]
    svc = make_service()
    svc.ingest([write_jsonl(tmp_path / "a.jsonl", rows)])
    keys = byline_keys(svc, ["r0", "r1", "l0"])
    assert keys[0][0] != keys[1][0]  # the same co-authors, place and topic, but dblp says two people
    assert keys[0][0] == keys[2][1]  # and one person across topics
    bylines = svc.store.authorships_of_papers(["r0", "r1"])
    assert [b[0].name for b in bylines] == ["Wei Wang", "Wei Wang"]
    assert [b[0].source_id for b in bylines] == ["dblp:Wei Wang 0010", "dblp:Wei Wang 0002"]
    assert svc.author_id("Wei Wang 0002") == keys[1][0] and svc.author("Wei Wang 0010").key == keys[0][0]
    assert [h.author.key for h in svc.people("Wei Wang 0010")] == [keys[0][0]]
    with pytest.raises(AmbiguousAuthor):  # a number dblp gave no one here: the name, which two people bear
        svc.author_id("Wei Wang 0099")


def test_keys_stay_as_papers_are_added_and_chunks_give_the_same_people(make_service, tmp_path):
    first = write_jsonl(tmp_path / "a.jsonl", [robotics(i) for i in range(3)])
    second = write_jsonl(tmp_path / "b.jsonl", [language(i) for i in range(3)] + [robotics(3), robotics(4, name="W. Wang")])
    svc = make_service()
    svc.ingest([first])
    before = byline_keys(svc, ["r0", "r1", "r2"])
    svc.ingest([second])
    assert byline_keys(svc, ["r0", "r1", "r2"]) == before  # an author's key never changes
    incremental = byline_keys(svc, ["r0", "r3", "r4", "l0", "l2"])
    assert incremental[1][0] == incremental[2][0] == before[0][0]
    chunked = make_service(KG_INGEST_CHUNK=2)
    chunked.ingest([first, second])
    assert byline_keys(chunked, ["r0", "r3", "r4", "l0", "l2"]) == incremental


def test_a_source_id_is_hard_evidence(make_service, tmp_path):
    svc = make_service()
    rows = [
        robotics(0, author_ids=["orcid:0000-0001", None, None]),
        language(0, author_ids=[None, "orcid:0000-0001", None]),
    ]  # one person by id, whatever the topics say
    svc.ingest([write_jsonl(tmp_path / "a.jsonl", rows)])
    keys = byline_keys(svc, ["r0", "l0"])
    assert keys[0][0] == keys[1][1]
    other = [robotics(1, author_ids=["orcid:0000-0009", None, None])]  # another id of the same system: another person
    svc.ingest([write_jsonl(tmp_path / "b.jsonl", other)])
    assert byline_keys(svc, ["r1"])[0][0] != keys[0][0]


def test_a_name_many_people_bear_lists_them_with_what_tells_them_apart(make_service, tmp_path):
    from click.testing import CliRunner
    from fastapi.testclient import TestClient

    from kg.api.app import create_app
    from kg.cli import main
    from kg.config import get_settings

    svc = make_service()
    svc.ingest([write_jsonl(tmp_path / "a.jsonl", [robotics(i) for i in range(3)] + [language(i) for i in range(2)])])
    people = svc.people("wei wang")
    assert [p.papers for p in people] == [3, 2]
    assert people[0].venues == ("icra",) and people[0].affiliations == ("eth zurich",) and people[0].years == (2008, 2010)
    assert people[1].venues == ("acl",) and people[1].years == (2019, 2020)
    with pytest.raises(AmbiguousAuthor, match="2 people are named 'Wei Wang'"):
        svc.author("Wei Wang")
    assert svc.author(people[1].author.key) == people[1].author  # by id
    assert svc.author("Marco Hutter").name == "Marco Hutter"  # one person of that name: the name lookup as before
    with TestClient(create_app(svc)) as client:
        q = "query($n: String!) { people(name: $n) { author { id } paperCount venues hint } author(name: $n) { id } }"
        body = client.post("/graphql", json={"query": q, "variables": {"n": "Wei Wang"}}).json()
        assert [p["paperCount"] for p in body["data"]["people"]] == [3, 2]
        assert "2 people are named" in body["errors"][0]["message"] and body["data"]["author"] is None
        one = client.post(
            "/graphql",
            json={"query": "query($i: ID!) { author(id: $i) { name paperCount } }", "variables": {"i": people[1].author.key}},
        ).json()
        assert one["data"]["author"] == {"name": "Wei Wang", "paperCount": 2}
    if svc.kind == "embedded":
        get_settings.cache_clear()
        out = CliRunner().invoke(main, ["author", "Wei Wang"], env={"KG_DATA_DIR": str(svc.settings.data_dir), "NEO4J_URI": None})
        get_settings.cache_clear()
        assert "2 people are named 'Wei Wang'" in out.output and people[1].author.key in out.output


def test_each_paper_says_why_it_is_that_persons(make_service, tmp_path):
    svc = make_service()
    svc.ingest(
        [
            write_jsonl(
                tmp_path / "a.jsonl",
                [robotics(0), robotics(1, name="W. Wang"), robotics(2, author_ids=["orcid:0000-0002", None, None])],
            )
        ]
    )
    [person] = [p.author for p in svc.people("Wei Wang")]
    rows = svc.store.authorships_of_authors([person.key])[0]
    assert [(p, n) for p, n, _ in rows] == [("r0", "Wei Wang"), ("r1", "W. Wang"), ("r2", "Wei Wang")]
    first, second, third = (why for _, _, why in rows)
    assert first.startswith("someone new")
    assert second.startswith("the same person as on 1 earlier paper") and "co-authors Jonas Buchli, Marco Hutter" in second
    assert "affiliation eth zurich" in second and "venue icra" in second
    assert third.startswith("the same person as on 2 earlier papers")


def _wei_wangs(tmp_path, ids: bool):
    """Two researchers called Wei Wang who share nothing: one in robotics (ICRA, CoRL, RSS, with Marco Hutter), one in
    data mining and NLP (KDD, ACL, NAACL, with Jiawei Han); with ids, their Semantic Scholar authorIds differ."""
    robot = "We present a legged robot controller with model predictive control for locomotion on rough terrain."
    words = "We study graph mining and language models for knowledge discovery on text classification benchmarks."
    rows = []
    for i, venue in enumerate(["ICRA", "CoRL", "RSS", "ICRA"]):
        rows.append(
            {
                "id": f"r{i}",
                "title": f"Legged locomotion {i}",
                "abstract": robot,
                "venue": f"{venue} {2018 + i}",
                "year": 2018 + i,
                "authors": ["Wei Wang", "Marco Hutter", f"Marco Rossi{'abcd'[i]}"],
                "author_ids": ["s2:111", None, None] if ids else None,
            }
        )
    for i, venue in enumerate(["KDD", "ACL", "NAACL"]):
        rows.append(
            {
                "id": f"n{i}",
                "title": f"Mining text {i}",
                "abstract": words,
                "venue": f"{venue} {2019 + i}",
                "year": 2019 + i,
                "authors": [f"Jane Doe{'abc'[i]}", "Wei Wang", "Jiawei Han"],
                "author_ids": [None, "s2:222", None] if ids else None,
            }
        )
    return write_jsonl(tmp_path / "robots.jsonl", rows[:4]), write_jsonl(tmp_path / "words.jsonl", rows[4:])


@pytest.mark.parametrize("ids", [True, False], ids=["with s2 ids", "without ids"])
@pytest.mark.parametrize("order", ["robots first", "words first", "at once"])
def test_two_wei_wangs_who_share_nothing_stay_two(make_service, tmp_path, ids, order):
    robots, words = _wei_wangs(tmp_path, ids)
    svc = make_service()
    if order == "at once":
        svc.ingest([robots, words])
    else:
        for f in (robots, words) if order == "robots first" else (words, robots):
            svc.ingest([f])
    keys = byline_keys(svc, ["r0", "r1", "r2", "r3", "n0", "n1", "n2"])
    robot = {k[0] for k in keys[:4]}
    word = {k[1] for k in keys[4:]}
    assert len(robot) == 1 and len(word) == 1 and robot != word, keys
