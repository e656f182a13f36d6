"""Every reader keeps the person ids its format carries, each with its kind (issue 60): two different ids of one
kind are two people, so a reader that dropped an id, or lost its kind, would let namesakes join."""

from __future__ import annotations

import json

import pytest

from kg.readers import read_path


def ids_of(path) -> list[tuple[str | None, ...] | None]:
    return [r.author_ids for r in read_path(path)]


def test_json_lines_ids_get_their_kind(tmp_path):
    f = tmp_path / "mine.jsonl"
    row = {"title": "T", "abstract": "A.", "authors": ["Yang Liu", "Ann Lee", "Bo Chen", "Cy Dee"]}
    ids = ["~Yang_Liu1", "https://orcid.org/0000-0002-1825-009x", "s2:1705353", "1234"]
    f.write_text(json.dumps(row | {"author_ids": ids}) + "\n", encoding="utf-8")
    assert ids_of(f) == [("openreview:~Yang_Liu1", "orcid:0000-0002-1825-009X", "s2:1705353", "id:1234")]


def test_openalex_and_semantic_scholar(tmp_path):
    openalex = {
        "id": "https://openalex.org/W1",
        "title": "T",
        "authorships": [
            {"author": {"id": "https://openalex.org/A5023888391", "display_name": "Ann Lee", "orcid": None}},
            {
                "author": {
                    "id": "https://openalex.org/A5000000002",
                    "display_name": "Bo Chen",
                    "orcid": "https://orcid.org/0000-0001-2345-6789",
                }
            },
        ],
    }
    s2 = {"paperId": "abc", "title": "T", "authors": [{"authorId": "1705353", "name": "H. Mobahi"}, {"name": "No Id"}]}
    (tmp_path / "oa.jsonl").write_text(json.dumps(openalex) + "\n", encoding="utf-8")
    (tmp_path / "s2.jsonl").write_text(json.dumps(s2) + "\n", encoding="utf-8")
    assert ids_of(tmp_path / "oa.jsonl") == [("openalex:A5023888391", "orcid:0000-0001-2345-6789")]
    assert ids_of(tmp_path / "s2.jsonl") == [("s2:1705353", None)]


@pytest.mark.parametrize("with_column", [True, False])
def test_scopus_author_ids(tmp_path, with_column):
    header = ["Authors", "Author full names", *(["Author(s) ID"] if with_column else []), "Title", "Year", "Source title", "EID"]
    row = ["Lee A.; Chen B.", "Lee, Ann (57190000001); Chen, Bo (57190000002)"]
    row += (["57190000001; 57190000002"] if with_column else []) + ["T", "2020", "ICML", "2-s2.0-1"]
    f = tmp_path / "scopus.csv"
    f.write_text("\n".join(",".join(f'"{c}"' for c in r) for r in (header, row)) + "\n", encoding="utf-8")
    assert ids_of(f) == [("scopus:57190000001", "scopus:57190000002")]


def test_web_of_science_orcid_else_researcher_id(tmp_path):
    cols = ["PT", "AU", "AF", "TI", "SO", "PY", "RI", "OI", "UT"]
    row = [
        "J",
        "Lee, A; Chen, B; Dee, C",
        "Lee, Ann; Chen, Bo; Dee, Cy",
        "T",
        "NATURE",
        "2020",
        "Lee, Ann/A-1234-2010; Chen, Bo/B-2345-2011",
        "Lee, Ann/0000-0002-1825-0097",
        "WOS:000000000000001",
    ]
    f = tmp_path / "savedrecs.txt"
    f.write_text("\t".join(cols) + "\n" + "\t".join(row) + "\n", encoding="utf-8")
    assert ids_of(f) == [("orcid:0000-0002-1825-0097", "wos:B-2345-2011", None)]


def test_bibtex_dblp_numbers(tmp_path):
    f = tmp_path / "dblp.bib"
    f.write_text("@inproceedings{k, title={T}, author={Wei Wang 0010 and Jun Zhu}, year={2020}}\n", encoding="utf-8")
    assert ids_of(f) == [("dblp:Wei Wang 0010", None)]
