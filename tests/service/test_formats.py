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
    assert lstm.authors == ("Sepp Hochreiter", "Jürgen Schmidhuber") and lstm.area == ("Computer Science", "Artificial Intelligence")
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
    assert service.author("H. Mobahi") is None  # the second source's spelling made no second author
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
