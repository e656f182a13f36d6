"""The formats people's papers come in (issue 10), on small fixtures written from each format's documentation."""

from __future__ import annotations

import json

import pytest

from kg.errors import ReaderError
from kg.readers import read_path

from helpers import ROOT

FORMATS = ROOT / "tests" / "fixtures" / "formats"


def test_each_format_is_recognised_by_its_content():
    records = {f.name: list(read_path(f)) for f in sorted(FORMATS.iterdir())}
    arxiv, physics = records["arxiv-snapshot.jsonl"]
    assert arxiv.authors == ("Pierre Foret", "Ariel Kleiner", "Hossein Mobahi", "Behnam Neyshabur")
    assert arxiv.area == ("Computer Science", "Machine Learning") and arxiv.year == 2020 and arxiv.arxiv_id == "2010.01412"
    assert physics.area == ("Physics", "High Energy Physics - Theory") and physics.doi == "10.1016/s0370-2693(99)00001-1"
    [lstm] = records["openalex.jsonl"]
    assert lstm.abstract.startswith("Learning to store information over extended time to intervals")
    assert lstm.authors == ("Sepp Hochreiter", "Jürgen Schmidhuber") and lstm.area == (
        "Computer Science",
        "Artificial Intelligence",
    )
    [s2] = records["semantic-scholar.jsonl"]
    assert s2.arxiv_id == "2010.01412" and s2.authors[2] == "H. Mobahi"
    bib_lstm, attention = records["references.bib"]
    assert bib_lstm.doi == lstm.doi and bib_lstm.authors == lstm.authors and bib_lstm.line == 2
    assert attention.arxiv_id == "1706.03762" and attention.venue == "Advances in Neural Information Processing Systems"


def test_the_same_paper_from_two_sources_is_one_paper(service):
    summary = service.ingest([FORMATS])
    assert summary.records == 6 and summary.papers_added == 4
    [sam] = service.store.papers_by_ids(["arxiv:2010.01412"])
    assert sam is not None and sam.year == 2020
    authors = [a.name for a in service.store.authors_of_papers(["arxiv:2010.01412"])[0]]
    assert authors == ["Pierre Foret", "Ariel Kleiner", "Hossein Mobahi", "Behnam Neyshabur"]  # the first source's byline
    assert [p.author.name for p in service.people("H. Mobahi")] == ["Hossein Mobahi"]  # the second spelling made no second author
    [lstm] = service.store.papers_by_ids(["doi:10.1162/neco.1997.9.8.1735"])
    assert lstm.title == "Long Short-Term Memory"
    concepts = {c.key for c in service.store.concepts_of_papers([lstm.id])[0]}
    assert "long term dependency" in concepts  # a BibTeX keyword joined the OpenAlex record


def test_a_broken_record_of_a_known_format_names_its_line(tmp_path):
    path = tmp_path / "works.jsonl"
    path.write_text(json.dumps({"id": "W1", "title": "T", "authorships": "not a list"}) + "\n")
    with pytest.raises(ReaderError, match=r"works.jsonl:1: not a valid OpenAlex work"):
        list(read_path(path))


def test_a_broken_bibtex_entry_names_its_line(tmp_path):
    path = tmp_path / "refs.bib"
    path.write_text("@article{ok, title = {Fine}, author = {A, B}}\n\n@article{broken,\n  title = {Never closed\n")
    with pytest.raises(ReaderError, match=r"refs.bib:3: invalid BibTeX"):
        list(read_path(path))
    kept = []
    assert [r.title for r in read_path(path, lambda error, text: kept.append(error))] == ["Fine"] and len(kept) == 1


def test_an_author_with_a_source_id_is_one_author_however_spelled(service, tmp_path):
    from helpers import paper, write_jsonl

    first = write_jsonl(
        tmp_path / "a.jsonl",
        [
            paper(1, authors=["Hossein Mobahi", "Ann Lee"], author_ids=["s2:1705353", None]),
            paper(2, authors=["H. Mobahi"], author_ids=["s2:1705353"]),  # same id, same ingest
        ],
    )
    second = write_jsonl(tmp_path / "b.jsonl", [paper(3, authors=["Mobahi, H."], author_ids=["s2:1705353"])])
    service.ingest([first])
    service.ingest([second])  # a later ingest finds the id in the store
    author = service.author("Hossein Mobahi")
    assert author is not None and service.store.paper_counts_of_authors([author.key]) == [3]
    assert [p.author.name for p in service.people("H. Mobahi")] == ["Hossein Mobahi"]  # no second author for the other spellings
    assert service.store.author_keys_of_ids(["s2:1705353"]) == {"s2:1705353": author.key}


def test_openalex_and_semantic_scholar_give_author_ids_citations_and_institutions():
    [work] = list(read_path(FORMATS / "openalex.jsonl"))
    assert work.author_ids == ("openalex:A5012345678", "openalex:A5087654321")
    assert work.affiliations == ("Technical University of Munich", None) and work.citations == 90000
    [s2] = list(read_path(FORMATS / "semantic-scholar.jsonl"))
    assert s2.author_ids[2] == "s2:1705353" and s2.citations == 1200


def test_a_dblp_export_gives_its_homonym_numbers_as_ids(tmp_path):
    # dblp's BibTeX (and its other exports) writes a person of a shared name with dblp's number for them
    path = tmp_path / "dblp.bib"
    path.write_text(
        "@inproceedings{DBLP:conf/icml/WangZ23,\n"
        "  author = {Wei Wang 0010 and Jun Zhu 0001 and Ada Lovelace},\n"
        "  title = {A Paper},\n  booktitle = {ICML},\n  year = {2023}\n}\n",
        encoding="utf-8",
    )
    [record] = list(read_path(path))
    assert record.author_ids == ("dblp:Wei Wang 0010", "dblp:Jun Zhu 0001", None)
