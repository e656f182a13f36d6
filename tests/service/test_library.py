"""One paper, one node: a personal library exported nine ways (tests/fixtures/library) is thirty papers, in any order."""

from __future__ import annotations

import importlib.util
import re
from pathlib import Path

import pytest

from kg.store.base import PaperFilter
from kg.works.fold import folded_title

LIBRARY = Path(__file__).resolve().parents[1] / "fixtures" / "library"
EXPORTS = sorted(p for p in LIBRARY.iterdir() if p.suffix in (".csv", ".txt", ".ris", ".atom", ".json", ".bib"))


def _papers() -> dict:
    spec = importlib.util.spec_from_file_location("library_papers", LIBRARY / "papers.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module.P


PAPERS = _papers()
TRUTH = {folded_title(row[0]): n for n, row in PAPERS.items()}


def works_of(store) -> dict[int, dict]:
    """Each stored paper as the fixture numbers it (the one work all its sources name), with what a user sees of it."""
    ids = [p.id for p in store.find_papers(PaperFilter(), 0, 1000).items]
    out = {}
    for paper, sources, refs in zip(store.papers_by_ids(ids), store.sources_of_papers(ids), store.references_of_papers(ids)):
        named = {TRUTH.get(folded_title(s.data.get("title") or paper.title)) for s in sources}
        assert len(named) == 1 and None not in named, f"{paper.id} holds records of {named}"
        [n] = named
        assert n not in out, f"work {n} is two papers: {out[n]['id']} and {paper.id}"
        out[n] = {
            "id": paper.id,
            "title": paper.title,
            "year": paper.year,
            "venue": paper.venue,
            "abstract": paper.abstract,
            "citations": paper.citations,
            "sources": sorted((Path(s.file).name, s.key) for s in sources),
            "refs": refs,
        }
    return out


def cited(work: dict, works: dict) -> set:
    """The library papers a paper's references name (by fixture number), and the keys of those it does not have."""
    number = {w["id"]: n for n, w in works.items()}
    return {number.get(r.paper_id, r.paper_id) if r.paper_id else r.key for r in work["refs"]}


def test_nine_exports_are_thirty_papers_and_no_record_is_lost(make_service):
    service = make_service()
    summary = service.ingest(EXPORTS)
    assert summary.records == 66 and summary.papers_added == 30
    works = works_of(service.store)
    assert sorted(works) == sorted(PAPERS)
    assert sum(len(w["sources"]) for w in works.values()) == 66
    # per file: records read, papers new, records joined
    report = {Path(r.path).name: (r.records, r.new, r.joined, r.refused) for r in summary.file_reports}
    assert sum(new for _, new, _, _ in report.values()) == 30 and report["savedrecs.txt"][0] == 7
    # the Web of Science records without a DOI are four papers, each under its accession number
    wos = {n: w for n, w in works.items() if any(f == "savedrecs.txt" for f, _ in w["sources"])}
    assert sorted(wos) == [1, 4, 5, 8, 10, 12, 20]
    assert ("savedrecs.txt", "WOS:000450000000012") in works[12]["sources"]
    # fields merged: the published title and venue over the preprint's, the earliest year, the fullest abstract
    sam = works[2]
    assert sam["title"] == "Sharpness-Aware Minimization for Efficiently Improving Generalization" and sam["year"] == 2020
    assert "©" not in sam["abstract"] and sam["abstract"].startswith("In today's heavily overparameterized models")
    assert not re.search(r"arxiv", sam["venue"] or "", re.I)
    # every id a source gave finds the paper
    for key in ("arxiv:2010.01412", "K2W8XJ3A", "2-s2.0-85000000002", "openalex:W4100000002", "bibtex:foret2020sharpness"):
        assert service.store.papers_known_by([key]) == {key: sam["id"]}


def test_any_file_order_gives_the_same_papers_and_keeps_every_reference(make_service):
    one = make_service()
    one.ingest(EXPORTS)
    at_once = works_of(one.store)
    backwards = make_service()  # (a new store: on Neo4j, the same database wiped)
    for path in reversed(EXPORTS):  # file by file, the other way round: references arrive after their papers
        backwards.ingest([path])
    later = works_of(backwards.store)
    assert sorted(later) == sorted(at_once)
    for n in PAPERS:
        a, b = at_once[n], later[n]
        assert {k: a[k] for k in ("title", "year", "venue", "abstract", "citations", "sources")} == {
            k: b[k] for k in ("title", "year", "venue", "abstract", "citations", "sources")
        }, n
        assert cited(a, at_once) == cited(b, later), n
    # SAM cites, through Semantic Scholar's arXiv ids and OpenAlex's work ids, papers the library has
    assert {9, 16, 20, 21, 22, 25} <= cited(later[2], later)


@pytest.mark.parametrize("first", ["zotero-library.csv", "arxiv.atom"])
def test_references_from_a_later_source_are_kept(service, first):
    service.ingest([LIBRARY / first])
    service.ingest([LIBRARY / "openalex-works.json", LIBRARY / "semantic-scholar.json"])
    works = works_of(service.store)
    assert {9, 16, 25, "arxiv:1912.02178"} <= cited(works[2], works)  # Jiang et al. not in these files: a stub


def test_a_scopus_record_gives_affiliations_and_no_copyright_line(service):
    service.ingest([LIBRARY / "scopus.csv"])
    [dinh] = service.store.papers_by_ids(["2-s2.0-85000000016"])
    assert dinh.abstract.endswith("results in good generalization.") and "©" not in dinh.abstract
    [byline] = service.store.authorships_of_papers([dinh.id])
    assert [(a.name, a.affiliation) for a in byline][:2] == [
        ("Laurent Dinh", "Université de Montréal, Montréal, Canada"),
        ("Razvan Pascanu", "DeepMind, London, United Kingdom"),
    ]


def test_a_record_split_off_stays_apart_and_merging_it_back_restores_the_graph(make_service):
    service = make_service()
    service.ingest(EXPORTS)
    before = service.stats()
    sam = service.paper_id("arxiv:2010.01412")
    foret = service.author("Pierre Foret")
    joint = {c.author_key: c.joint_papers for c in service.store.coauthors_of([foret.key])[0]}

    record = service.split_paper("arxiv:2010.01412", "K2W8XJ3A")  # the Zotero record of SAM is (say) another paper
    assert record["to"] == "K2W8XJ3A" and service.stats().papers == before.papers + 1
    assert "K2W8XJ3A" not in [s.key for s in service.store.sources_of_papers([sam])[0]]
    assert service.paper_id("arxiv:2010.01412") == sam  # the arXiv id stays with the paper its other records name
    service.ingest([LIBRARY / "zotero-library.csv"])  # a later ingest follows the correction
    assert service.stats().papers == before.papers + 1 and service.paper_id("K2W8XJ3A") == "K2W8XJ3A"

    service.merge_papers(sam, "K2W8XJ3A")
    after = service.stats()
    assert (after.papers, after.authors, after.coauthor_edges) == (before.papers, before.authors, before.coauthor_edges)
    assert {c.author_key: c.joint_papers for c in service.store.coauthors_of([foret.key])[0]} == joint
    assert service.paper_id("K2W8XJ3A") == sam and len(service.store.sources_of_papers([sam])[0]) == 6


def test_graphql_finds_a_paper_by_any_record_id_and_lists_its_sources(make_service):
    from fastapi.testclient import TestClient

    from helpers import GraphQLClient
    from kg.api.app import create_app

    service = make_service()
    service.ingest(EXPORTS)
    with TestClient(create_app(service)) as client:
        gql = GraphQLClient(client)
        planned = "query($id: ID!) { paper(id: $id) { id title } }"  # a compiled plan answers it
        with_sources = "query($id: ID!) { paper(id: $id) { id sources { id format why year } } }"  # graphql-core does
        for key in ("K2W8XJ3A", "2-s2.0-85000000002", "openalex:W4100000002", "arxiv:2010.01412"):
            assert (
                gql(planned, {"id": key})["paper"]["title"]
                == "Sharpness-Aware Minimization for Efficiently Improving Generalization"
            )
        found = gql(with_sources, {"id": "K2W8XJ3A"})["paper"]
        assert found["id"] == "arxiv:2010.01412" and len(found["sources"]) == 6
        zotero = next(s for s in found["sources"] if s["id"] == "K2W8XJ3A")
        assert zotero == {"id": "K2W8XJ3A", "format": "Zotero CSV", "why": "the same doi:10.48550/arxiv.2010.01412", "year": 2020}
        assert gql(planned, {"id": "no-such-record"})["paper"] is None


def test_a_library_of_thirty_papers_over_a_decade_has_rising_concepts_by_default(service, seeded_embedded):
    service.ingest(EXPORTS)
    report = service.overview.trending()
    assert report.trends and report.until == 2022 and report.until - report.since + 1 > 2  # windows widened to say anything
    assert report.min_papers < 3
    assert service.overview.trending(since=2022).trends == []  # a year alone: nothing to tell, and why
    from kg.overview import why_no_trends

    assert "2021-2021" in why_no_trends(service.overview.trending(since=2022))
    seeds = seeded_embedded.overview.trending()  # the seed listings carry no years
    assert seeds.trends == [] and why_no_trends(seeds) == "no paper carries a year"


def test_kg_paper_and_related_say_what_citations_tie_and_exports_carry_their_kinds(service, tmp_path):
    import networkx as nx

    from kg.cards import Cards
    from kg.export import whole_graph, write_graph

    service.ingest(EXPORTS)
    sam = service.paper_id("arxiv:2010.01412")
    card = Cards(service.store).paper_card("K2W8XJ3A")
    assert card.paper.id == sam and len(card.references) == 8 and sum(p is not None for _, p in card.references) == 6
    assert [p.title for p in card.cited_by] == ["Towards Understanding Sharpness-Aware Minimization"]
    marks = {r.paper.title: r.citation for r in Cards(service.store).related(sam, 10)}
    assert marks["Towards Understanding Sharpness-Aware Minimization"] == "cited by; both cite 3"
    assert "cited together 1 time" in marks.values()
    g = whole_graph(service.store)
    for fmt in ("graphml", "gexf"):
        [path] = write_graph(g, fmt, tmp_path / f"kg.{fmt}")
        read = nx.read_graphml(path) if fmt == "graphml" else nx.read_gexf(path)
        kinds = {d.get("kind") for _, _, d in read.edges(data=True)}
        assert {"citation", "co-citation", "coupling"} <= kinds, (fmt, kinds)
