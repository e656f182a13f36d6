"""Citations as input, on both stores: references in kg's JSON Lines, OpenAlex and Semantic Scholar; stubs that
join when their paper arrives; Paper.references and Paper.citedBy."""

from __future__ import annotations

import json

import pytest

from helpers import write_jsonl
from kg.errors import ReaderError

TEXT = "We study {} with neural networks and report results on standard benchmarks for {}."


def paper(pid, title, **extra):
    return {
        "id": pid,
        "title": title,
        "abstract": TEXT.format(title.lower(), title.lower()),
        "authors": ["Ada Lovelace"],
        **extra,
    }


def refs(svc, pid):
    return [(r.key, r.paper_id) for r in svc.store.references_of_papers([pid])[0]]


def test_references_become_citations_and_stubs_join_when_their_paper_arrives(make_service, tmp_path):
    svc = make_service()
    first = [
        paper("p1", "Attention Is All You Need", arxiv_id="1706.03762v5"),
        paper(
            "p2",
            "Pretraining deep bidirectional transformers",
            doi="10.1000/BERT",
            references=[
                "arXiv:1706.03762",
                {"title": "Deep Residual Learning for Image Recognition!"},
                "https://doi.org/10.9999/Unknown",
                "arXiv:1706.03762",
            ],
        ),
    ]
    svc.ingest([write_jsonl(tmp_path / "a.jsonl", first)])
    assert refs(svc, "doi:10.1000/bert") == [
        ("arxiv:1706.03762", "arxiv:1706.03762"),
        ("doi:10.9999/unknown", None),
        ("title:deep residual learning for image recognition", None),
    ]
    assert svc.store.citing_papers(["arxiv:1706.03762", "doi:10.1000/bert"]) == [["doi:10.1000/bert"], []]

    svc.ingest([write_jsonl(tmp_path / "b.jsonl", [paper("p3", "Deep residual learning for image recognition")])])
    assert refs(svc, "doi:10.1000/bert") == [
        ("arxiv:1706.03762", "arxiv:1706.03762"),
        ("title:deep residual learning for image recognition", "p3"),
        ("doi:10.9999/unknown", None),
    ]
    assert svc.store.citing_papers(["p3"]) == [["doi:10.1000/bert"]]


def test_openalex_and_semantic_scholar_references(make_service, tmp_path):
    svc = make_service()
    cited = {
        "id": "https://openalex.org/W1",
        "title": "Residual networks",
        "abstract_inverted_index": {"Residual": [0], "networks": [1], "help": [2]},
        "authorships": [{"author": {"display_name": "Kaiming He"}}],
        "publication_year": 2016,
    }
    citing = {
        "id": "https://openalex.org/W2",
        "title": "Wide residual networks",
        "publication_year": 2016,
        "abstract_inverted_index": {"Wide": [0], "residual": [1], "networks": [2], "work": [3]},
        "authorships": [{"author": {"display_name": "Sergey Zagoruyko"}}],
        "referenced_works": ["https://openalex.org/W1"],
    }
    s2 = {
        "paperId": "abc",
        "title": "Densely connected networks",
        "abstract": TEXT.format("dense links", "images"),
        "authors": [{"name": "Gao Huang"}],
        "references": [
            {"paperId": "zzz", "externalIds": {"DOI": None}, "title": "Wide Residual Networks"},
            {"paperId": None, "title": "Some paper kg lacks"},
        ],
    }
    svc.ingest([write_jsonl(tmp_path / "works.jsonl", [cited, citing, s2])])
    assert refs(svc, "openalex:W2") == [("openalex:W1", "openalex:W1")]
    assert refs(svc, "s2:abc") == [("title:wide residual networks", "openalex:W2"), ("title:some paper kg lacks", None)]
    assert svc.store.citing_papers(["openalex:W2"]) == [["s2:abc"]]


def test_graphql_references_and_cited_by(make_service, tmp_path):
    from fastapi.testclient import TestClient

    from kg.api.app import create_app

    svc = make_service()
    rows = [
        paper("p1", "Attention Is All You Need"),
        paper("p2", "Transformers for translation", references=["p1", "Missing work title here"]),
    ]
    svc.ingest([write_jsonl(tmp_path / "a.jsonl", rows)])
    q = '{ a: paper(id: "p2") { references { key paper { id } } } b: paper(id: "p1") { citedBy { id } references { key } } }'
    with TestClient(create_app(svc)) as client:
        body = client.post("/graphql", json={"query": q}).json()
    assert body["data"]["a"]["references"] == [
        {"key": "p1", "paper": {"id": "p1"}},
        {"key": "title:missing work title here", "paper": None},
    ]
    assert body["data"]["b"] == {"citedBy": [{"id": "p2"}], "references": []}


def test_bad_references_name_the_file_line_and_field(tmp_path, service):
    path = tmp_path / "bad.jsonl"
    path.write_text(json.dumps(paper("p1", "A title")) + "\n" + json.dumps(paper("p2", "B title", references="p1")) + "\n")
    with pytest.raises(ReaderError, match=r"bad.jsonl:2: field 'references': expected a list"):
        service.ingest([path])
    assert service.stats().papers == 0


def transformers() -> list[dict]:
    """Five papers: three cite p1 (two of them a work kg lacks too), and p5 cites p2 and p3."""
    return [
        paper("p1", "Attention Is All You Need"),
        paper("p2", "Transformers for translation", references=["p1", "Sequence to sequence learning with networks"]),
        paper("p3", "Transformers for vision", references=["p1", "Sequence to sequence learning with networks"]),
        paper("p4", "Transformers for speech", references=["p1"]),
        paper("p5", "A survey of transformers", references=["p2", "p3"]),
    ]


def test_citation_links_say_what_both_cite_and_who_cites_both(make_service, tmp_path):
    """Bibliographic coupling (by a paper kg has, and by a work it lacks) and co-citation, through GraphQL."""
    from fastapi.testclient import TestClient

    from kg.api.app import create_app

    svc = make_service()
    rows = transformers()
    svc.ingest([write_jsonl(tmp_path / "a.jsonl", rows)])
    q = """query($id: ID!, $first: Int) { paper(id: $id) { citationLinks(first: $first) {
             paper { id } strength bothCite { key paper { id } } citedTogetherBy { id } } } }"""
    with TestClient(create_app(svc)) as client:

        def links(pid, first=10):
            body = client.post("/graphql", json={"query": q, "variables": {"id": pid, "first": first}}).json()
            assert "errors" not in body, body
            return body["data"]["paper"]["citationLinks"]

        two = links("p2")
        # p3: both cite p1 and the work kg lacks, and p5 cites both; p4: both cite p1
        assert two == [
            {
                "paper": {"id": "p3"},
                "strength": 3,
                "bothCite": [
                    {"key": "p1", "paper": {"id": "p1"}},
                    {"key": "title:sequence to sequence learning with networks", "paper": None},
                ],
                "citedTogetherBy": [{"id": "p5"}],
            },
            {"paper": {"id": "p4"}, "strength": 1, "bothCite": [{"key": "p1", "paper": {"id": "p1"}}], "citedTogetherBy": []},
        ]
        assert links("p2", first=1) == two[:1]
        assert links("p1") == []  # it cites nothing, and nothing cites it beside another paper
        assert [link["paper"]["id"] for link in links("p5")] == []  # coupling needs a work both cite


def test_citation_links_read_a_much_cited_work_only_so_far(make_service, tmp_path):
    """KG_CITATION_FANOUT bounds what one request reads: of each cited work, and of the paper's own citers, the
    first papers by id. With 1, p1's citers (p2, p3, p4) are read as p2 alone, which is the paper asked about."""
    from fastapi.testclient import TestClient

    from kg.api.app import create_app

    svc = make_service(KG_CITATION_FANOUT="1")
    rows = transformers()
    svc.ingest([write_jsonl(tmp_path / "a.jsonl", rows)])
    q = 'query { paper(id: "p2") { citationLinks { paper { id } strength bothCite { key } citedTogetherBy { id } } } }'
    with TestClient(create_app(svc)) as client:
        body = client.post("/graphql", json={"query": q}).json()
    assert body["data"]["paper"]["citationLinks"] == [
        {"paper": {"id": "p3"}, "strength": 1, "bothCite": [], "citedTogetherBy": [{"id": "p5"}]}
    ]


BBL = r"""\begin{thebibliography}{3}
\bibitem[Vaswani et~al.(2017)]{vaswani}
Ashish Vaswani, Noam Shazeer, and Niki Parmar.
\newblock Attention is all you need.
\newblock In {\em Advances in Neural Information Processing Systems}, 2017. arXiv:1706.03762.
\bibitem[He et~al.(2016)]{he}
Kaiming He, Xiangyu Zhang, Shaoqing Ren, and Jian Sun.
\newblock {Deep Residual Learning} for image recognition.
\newblock In {\em CVPR}, pages 770--778, 2016.
\end{thebibliography}
"""


def test_a_compiled_latex_bibliography_gives_references_that_join_their_papers(make_service, tmp_path):
    svc = make_service()
    rows = [
        paper("p1", "Deep residual learning for image recognition"),
        paper("p2", "Transformers for translation", references=["p1"], bbl=BBL),
    ]
    svc.ingest([write_jsonl(tmp_path / "a.jsonl", rows)])
    # the title of the second entry names p1, which the list names too: one reference; the first is a stub by arXiv id
    assert refs(svc, "p2") == [("p1", "p1"), ("arxiv:1706.03762", None)]
    svc.ingest([write_jsonl(tmp_path / "b.jsonl", [paper("p3", "Attention is all you need", arxiv_id="1706.03762")])])
    assert ("arxiv:1706.03762", "arxiv:1706.03762") in refs(svc, "p2")


def test_a_bibliography_that_is_not_text_names_the_field(tmp_path, service):
    path = write_jsonl(tmp_path / "bad.jsonl", [paper("p1", "A title", bbl=["\\bibitem{x}"])])
    with pytest.raises(ReaderError, match=r"bad.jsonl:1: field 'bbl': expected the text of a compiled LaTeX bibliography"):
        service.ingest([path])
    assert service.stats().papers == 0


def test_the_exported_graph_keeps_citations_beside_shared_concepts(make_service, tmp_path):
    import networkx as nx

    from kg.export import FORMATS, whole_graph, write_graph

    svc = make_service()
    rows = [
        paper("p1", "Attention for translation", references=["p2", "Missing work title here"]),
        paper("p2", "Attention Is All You Need"),
    ]
    svc.ingest([write_jsonl(tmp_path / "a.jsonl", rows)])
    g = whole_graph(svc.store)
    cites = sorted((u, v) for u, v, d in g.edges(data=True) if d["type"] == "CITES")
    assert cites == [("paper:p1", "paper:p2"), ("paper:p1", "ref:title:missing work title here")]
    assert g.nodes["ref:title:missing work title here"]["kind"] == "ref"
    # p1 cites p2 and shares concepts with it: two edges between them, neither lost
    assert sorted(d["type"] for d in g.get_edge_data("paper:p1", "paper:p2").values()) == ["CITES", "SHARES_CONCEPT"]
    for fmt in FORMATS:
        written = write_graph(g, fmt, tmp_path / f"graph.{fmt}")
        assert all(p.stat().st_size > 0 for p in written)
    back = nx.read_graphml(tmp_path / "graph.graphml")
    assert back.number_of_edges() == g.number_of_edges()


def test_a_related_paper_says_why_concepts_people_and_citations(make_service, tmp_path):
    """RelatedPaper.reasons, through GraphQL (answered by graphql-core: plans leave the field to it)."""
    from fastapi.testclient import TestClient

    from kg.api.app import create_app

    svc = make_service()
    rows = [
        paper("p1", "Attention Is All You Need", authors=["Ashish Vaswani"]),
        paper("p2", "Transformers for translation", references=["p1", "Sequence to sequence learning with networks"]),
        paper("p3", "Transformers for vision", references=["p1", "Sequence to sequence learning with networks"]),
        paper("p5", "A survey of transformers", authors=["Alan Turing"], references=["p2", "p3"]),
    ]
    svc.ingest([write_jsonl(tmp_path / "a.jsonl", rows)])
    q = "query($id: ID!) { paper(id: $id) { related { paper { id } sharedConcepts { name } reasons } } }"
    with TestClient(create_app(svc)) as client:
        body = client.post("/graphql", json={"query": q, "variables": {"id": "p2"}}).json()
    assert "errors" not in body, body
    related = {r["paper"]["id"]: r for r in body["data"]["paper"]["related"]}
    assert {"p3", "p5"} <= set(related)
    p3, p5 = related["p3"], related["p5"]
    about = f"both about {', '.join(c['name'] for c in p3['sharedConcepts'][:5])}"
    assert p3["reasons"][0].startswith(about) and p3["reasons"][1:] == [
        "both by Ada Lovelace",
        "both cite Attention Is All You Need, title:sequence to sequence learning with networks",
        "cited together by A survey of transformers",
    ]
    assert p5["reasons"][1:] == ["it cites this paper"]  # a different author, and nothing else in common
