"""Files as researchers have them (issue 35): JSON documents and API pages, CSV exports, RIS and arXiv
Atom feeds, on fixtures written from each format's documentation (tests/fixtures/exports)."""

from __future__ import annotations

import pytest

from kg.errors import ReaderError
from kg.readers import read_path

from helpers import ROOT

EXPORTS = ROOT / "tests" / "fixtures" / "exports"


def records(name: str) -> list:
    return list(read_path(EXPORTS / name))


def test_json_documents_and_api_pages():
    sam, title_only = records("records.json")  # a pretty-printed array of kg records
    assert sam.authors == ("Pierre Foret", "Ariel Kleiner") and sam.year == 2021 and title_only.abstract == ""
    attention, adam = records("openalex-page.json")  # an OpenAlex /works page: {"meta", "results"}
    assert attention.abstract == "The dominant sequence transduction models use attention." and adam.arxiv_id == "1412.6980"
    bert, alexnet = records("s2-search.json")  # a Semantic Scholar search page: {"total", "offset", "next", "data"}
    assert bert.arxiv_id == "1810.04805" and alexnet.authors == ("A. Krizhevsky",) and alexnet.abstract == ""


def test_spreadsheet_exports_by_their_column_names():
    lstm, graphs = records("scopus.csv")
    assert lstm.authors == ("Sepp Hochreiter", "Jürgen Schmidhuber")  # "Author full names", Scopus ids dropped
    assert lstm.abstract.endswith("We briefly review Hochreiter's analysis.") and lstm.venue == "Neural Computation"
    assert (
        lstm.keywords == ("recurrent neural networks", "long short-term memory") and graphs.line == 4
    )  # a row after a two-line cell
    [deep] = records("zotero.csv")
    assert (
        deep.authors == ("Yann LeCun", "Yoshua Bengio", "Geoffrey Hinton")
        and deep.year == 2015
        and deep.doi == "10.1038/nature14539"
    )
    [adam] = records("savedrecs.txt")  # Web of Science tab-delimited, field tags as the header
    assert adam.authors == ("Diederik P. Kingma", "Jimmy Ba") and adam.keywords == ("stochastic optimization", "adaptive moments")
    [resnet] = records("openalex.csv")
    assert resnet.authors == ("Kaiming He", "Xiangyu Zhang", "Shaoqing Ren", "Jian Sun") and resnet.year == 2016


def test_ris_and_arxiv_atom():
    lstm, gan = records("zotero.ris")
    assert lstm.authors == ("Sepp Hochreiter", "Jürgen Schmidhuber") and lstm.year == 1997 and lstm.line == 1
    assert gan.title == "Generative adversarial nets" and gan.line == 14 and gan.venue.startswith("Advances in Neural")
    sam, physics = records("arxiv-api.atom")
    assert sam.arxiv_id == "2010.01412" and sam.title == "Sharpness-Aware Minimization for Efficiently Improving Generalization"
    assert (
        sam.area == ("Computer Science", "Machine Learning")
        and sam.year == 2020
        and sam.affiliations == ("Google Research", None)
    )
    assert physics.doi == "10.1016/s0370-2693(99)00001-1" and physics.venue == "Phys. Lett. B 450 (1999) 1"


def test_a_folder_of_exports_ingests_and_one_paper_from_two_exports_is_one_paper(service, tmp_path):
    summary = service.ingest([EXPORTS])
    assert summary.records == 15 and summary.papers_added == 13 and summary.skipped_files == []
    [lstm] = service.store.papers_by_ids(["doi:10.1162/neco.1997.9.8.1735"])  # in scopus.csv and in zotero.ris (one DOI)
    assert lstm is not None and lstm.title == "Long Short-Term Memory"
    # Adam in openalex-page.json (arXiv's DOI) and in savedrecs.txt (no DOI): one paper, matched on title, authors, year
    [adam] = service.store.sources_of_papers(["arxiv:1412.6980"])
    assert sorted(s.file.rsplit("/", 1)[-1] for s in adam) == ["openalex-page.json", "savedrecs.txt"]
    assert adam[1].why.startswith("matched") and "title" in adam[1].why
    folder = tmp_path / "downloads"
    folder.mkdir()
    (folder / "notes.docx").write_bytes(b"PK")
    (folder / "refs.ris").write_text((EXPORTS / "zotero.ris").read_text(encoding="utf-8"), encoding="utf-8")
    again = service.ingest([folder])
    assert [(p.name, "unknown format" in why) for p, why in again.skipped_files] == [("notes.docx", True)]


def refused(path, text: str, error: str) -> None:
    """Reading ``text`` from ``path`` fails with an error matching ``error``."""
    path.write_text(text, encoding="utf-8")
    with pytest.raises(ReaderError, match=error):
        list(read_path(path))


def test_bad_rows_and_entries_name_their_file_and_line(tmp_path):
    csv_file = tmp_path / "export.csv"
    refused(
        csv_file,
        'Title,Authors,Abstract\nFine,"Lee, Ann",An abstract.\n,"Chen, Bo",\n',
        r"export.csv:3: field 'abstract': required",
    )
    kept = []
    assert [r.title for r in read_path(csv_file, lambda error, text: kept.append(error))] == ["Fine"] and len(kept) == 1
    refused(tmp_path / "numbers.csv", "a,b\n1,2\n", r"numbers.csv:1: no title or abstract column")
    refused(
        tmp_path / "refs.ris",
        "TY  - JOUR\nTI  - Fine\nER  - \n\nTY  - JOUR\nAU  - Lee, Ann\nER  - \n",
        r"refs.ris:5: field 'abstract': required",
    )
    refused(tmp_path / "broken.json", '{\n  "title": "x",\n  "abstract": \n}\n', r"broken.json:4: invalid JSON")


def test_xml_with_entities_is_refused_not_expanded(tmp_path):
    refused(
        tmp_path / "feed.atom",
        '<?xml version="1.0"?><!DOCTYPE feed [<!ENTITY a "aaaaaaaaaa"><!ENTITY b "&a;&a;&a;&a;">]>'
        '<feed xmlns="http://www.w3.org/2005/Atom"><entry><title>&b;</title></entry></feed>',
        r"feed.atom: refused: the XML declares entities",
    )
    refused(tmp_path / "other.xml", "<rss><channel/></rss>", r"other.xml:1: expected an Atom feed")
