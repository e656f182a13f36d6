"""Concepts mentioned, not only concepts ranked: a paper keeps every concept it names (a vocabulary term, a
defined abbreviation) below its key ones, as a minor mention, on both stores. Paper.concepts keeps its key
concepts; with `first` it goes on to the minor ones; concept pages, the concept filter and shares-concept
links see them."""

from __future__ import annotations

from copy import copy

import pytest

from helpers import GraphQLClient, write_jsonl

PAPERS = [
    {
        "id": "fold",
        "title": "Sparse attention for protein folding",
        "abstract": "We propose a sparse attention method for protein folding. Training uses stochastic gradient "
        "descent and an InfoNCE loss, and we bound the KL divergence between the folded and native structures.",
        "authors": ["Ada Lovelace"],
    },
    {
        "id": "prove",
        "title": "Verifier rewards for theorem proving",
        "abstract": "We study group relative policy optimization (GRPO) for theorem proving with language models. "
        "Our verifier rewards proofs, and an InfoNCE loss aligns proof states.",
        "authors": ["Alan Turing"],
    },
]
PAPER = """query($id: ID!, $first: Int) {
  paper(id: $id) { key: concepts { name } every: concepts(first: $first) { name } }
}"""


@pytest.fixture
def gql(make_service, extractor, tmp_path):
    from fastapi.testclient import TestClient

    from kg.api.app import create_app

    two = copy(extractor)
    two.top_n = 2  # two key concepts each (KG_CONCEPTS_PER_PAPER=2): the rest of what they name is minor
    svc = make_service(using=two)
    svc.ingest([write_jsonl(tmp_path / "papers.jsonl", PAPERS)])
    with TestClient(create_app(svc)) as client:
        yield svc, GraphQLClient(client)


def names(rows):
    return [r["name"] for r in rows]


def test_a_paper_keeps_the_concepts_it_names_below_its_key_ones(gql):
    svc, client = gql
    fold = client(PAPER, {"id": "fold", "first": 50})["paper"]
    key, every = names(fold["key"]), names(fold["every"])
    assert len(key) == 2 and "stochastic gradient descent" in key
    assert every[:2] == key  # the key concepts first, as `concepts` gives them
    assert {"InfoNCE", "Kullback-Leibler divergence"} <= set(every[2:])
    assert "sparse attention" not in every  # a phrase below the key ones is not kept
    assert names(client(PAPER, {"id": "fold", "first": 3})["paper"]["every"]) == every[:3]
    prove = client(PAPER, {"id": "prove", "first": 50})["paper"]
    assert "group relative policy optimization" in names(prove["every"])[2:]  # defined by its short form
    # the resolvers (a directive keeps graphql-core on them) give what the compiled plans give
    directed = PAPER.replace("every: concepts(first: $first)", "every: concepts(first: $first) @include(if: true)")
    assert client(directed, {"id": "fold", "first": 50})["paper"] == fold
    # the store read behind both
    [mentioned] = svc.store.concepts_of_papers(["fold"], 50)
    assert [c.name for c in mentioned] == every
    assert [c.name for c in svc.store.concepts_of_papers(["fold"])[0]] == key


def test_concept_pages_filters_and_links_see_minor_mentions(gql):
    _, client = gql
    found = client(
        """{ concept(name: "InfoNCE") { paperCount papers(first: 5) { edges { node { id } } } }
             papers(filter: {concept: "InfoNCE"}) { totalCount }
             paper(id: "fold") { related { paper { id } sharedConcepts { name } reasons } } }"""
    )
    assert found["concept"]["paperCount"] == 2
    assert {e["node"]["id"] for e in found["concept"]["papers"]["edges"]} == {"fold", "prove"}
    assert found["papers"]["totalCount"] == 2
    # the two papers share no key concept: InfoNCE, named by both in passing, links them, and says so
    [link] = found["paper"]["related"]
    assert link["paper"]["id"] == "prove" and names(link["sharedConcepts"]) == ["InfoNCE"]
    assert any("InfoNCE" in reason for reason in link["reasons"])


def test_first_is_checked_like_every_first(gql):
    _, client = gql
    [message] = client.errors(PAPER, {"id": "fold", "first": 101})
    assert "`first` must be between 0 and 100" in message
