"""Answering a compiled operation (see ``plan.py``): level by level, one batched store read per field and level.

Each supported field is a resolver over *all* the parents at its level: it gets
their values (models, or the small tuples below for pages, edges and related
rows) and returns one value per parent. The reads are the ones the strawberry
resolvers' DataLoaders make (``KGService.batched_reads``), ordered and filtered
the same way, so a plan's answer is the answer graphql-core would give; the
API tests compare the two on every example operation.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from graphql import get_argument_values

from kg import deadline
from kg.api.graphql.pagination import check_first, encode_cursor, page_window
from kg.api.graphql.plan import TYPENAME, Selection
from kg.api.graphql.rows import LEAVES, CoauthorRow, Connection, Edge, Related, author_ref
from kg.api.graphql.shape import shape_roots
from kg.models import Page
from kg.service import KGService, PaperQuery, concept_lookup_terms
from kg.store.base import COAUTHORS_FIRST, RELATED_LIMIT

__all__ = ["PlanRun", "RESOLVERS", "SUPPORTED"]


class PlanRun:
    """One request's answer to a plan: the service, the coerced variables, and the sibling lists read so far."""

    def __init__(self, service: KGService, variables) -> None:
        self.service = service
        self.reads = service.batched_reads
        self.variables = variables
        self._lists: dict[tuple, dict[str, list[list]]] = {}
        self._author_ids: dict[str, str] = {}  # author(name:) resolved ahead, in a worker thread (answer_in_loop)

    def answer(self, roots: tuple[Selection, ...]) -> dict[str, Any]:
        """In one query where the store compiles the whole tree (Neo4j), else level by level."""
        read_tree = getattr(self.reads, "read_tree", None)
        if read_tree is not None:
            found = read_tree(roots, self)
            if found is not None:
                return shape_roots(roots, *found)
        return self.complete([None], roots)[0]

    async def answer_in_loop(self, roots: tuple[Selection, ...], tree, call) -> dict[str, Any] | None:
        """In one query on the store's async reader, or None when it cannot take this operation. The
        ``author(name:)`` roots are resolved first through ``call`` (a worker thread): a name reads its block's
        profiles, which must not happen on the event loop the compiled query binds on."""
        for s in roots:
            if (s.parent, s.name) == ("Query", "author") and (name := self.args(s).get("name")) is not None:
                self._author_ids[name] = await call(self.service.author_id, name)
        found = await tree.read_tree(roots, self)
        return None if found is None else shape_roots(roots, *found)

    # -- what a store compiling the tree binds arguments with (kg.store.neo4j.plan_cypher.Bindings) --
    def args(self, selection: Selection) -> dict[str, Any]:
        return get_argument_values(selection.definition, selection.node, self.variables)

    def first(self, selection: Selection, default: int) -> int:
        return check_first(self.args(selection).get("first"), default)

    def window(self, selection: Selection) -> tuple[int, int]:
        a = self.args(selection)
        return page_window(a.get("first"), a.get("after"))

    def concept_keys(self, name: str) -> list[str]:
        key = self.service.concept_key(name)
        return [key] if key is not None else []

    def lookup_terms(self, name: str) -> tuple[list[str], list[str]]:
        return concept_lookup_terms(name)

    def author_key(self, args: dict) -> str:
        """The person ``author(id:)`` or ``author(name:)`` asks for (the name resolved as the service resolves it)."""
        ref = author_ref(args.get("name"), args.get("id"))
        if args.get("id") is not None:  # an id is a key, read as it is
            return ref
        return self._author_ids[ref] if ref in self._author_ids else self.service.author_id(ref)

    def lists(self, kind: str, keys: list[str], name: str, siblings: tuple[Selection, ...]) -> list[list]:
        """``lists_of`` for every list of ``kind`` the siblings select, read once for all of them."""
        ask = (kind, tuple(keys))
        if ask not in self._lists:
            names = sorted({s.name for s in siblings if s.name in _LIST_NAMES[kind]})
            self._lists[ask] = self.reads.lists_of(kind, keys, names)
        return self._lists[ask][name]

    def complete(self, parents: list, selections: tuple[Selection, ...]) -> list[dict[str, Any]]:
        """The response objects for ``parents`` (all of one type, none None) under ``selections``."""
        deadline.check()  # level by level: a request past its deadline reads no further
        outs: list[dict[str, Any]] = [{} for _ in parents]
        for s in selections:
            if s.name == TYPENAME:
                for out in outs:
                    out[s.key] = s.parent
                continue
            leaf = LEAVES.get((s.parent, s.name))
            if leaf is not None:
                for out, parent in zip(outs, parents):
                    out[s.key] = leaf(parent)
                continue
            values = RESOLVERS[s.parent, s.name](self, parents, s, selections)
            for out, value in zip(outs, self._below(values, s) if s.children else values):
                out[s.key] = value
        return outs

    def _below(self, values: list, s: Selection) -> list:
        """Each parent's value of ``s`` completed with ``s``'s selections (None stays None)."""
        if s.is_list:
            flat = [v for vs in values for v in vs]
            done = iter(self.complete(flat, s.children))
            return [[next(done) for _ in vs] for vs in values]
        present = [v for v in values if v is not None]
        done = iter(self.complete(present, s.children))
        return [next(done) if v is not None else None for v in values]


_LIST_NAMES = {"paper": ("authors", "areas", "concepts"), "author": ("papers", "coauthors")}


def _page(fetch: Callable[[int, int], Page], count: Callable[[], int], first: int | None, after: str | None) -> Connection:
    offset, limit = page_window(first, after)
    page = fetch(offset, limit + 1)
    return Connection(page.items[:limit], offset, len(page.items) > limit, count)


# -- resolvers: (run, parents, selection, siblings) -> one value per parent ---------------------
def _root_paper(run: PlanRun, parents, s, _):
    return run.reads.papers_by_ids([str(run.args(s)["id"])]) * len(parents)


def _root_author(run: PlanRun, parents, s, _):
    return [run.service.author_by_id(run.author_key(run.args(s)))] * len(parents)


def _root_concept(run: PlanRun, parents, s, _):
    return [run.service.concept(run.args(s)["name"])] * len(parents)


def _root_papers(run: PlanRun, parents, s, _):
    a, service = run.args(s), run.service
    f = a["filter"] or {}  # graphql-core gives input objects as dicts by schema name
    query = PaperQuery(
        f.get("area"),
        f.get("concept"),
        f.get("author"),
        f.get("text"),
        f.get("yearFrom"),
        f.get("yearTo"),
        f.get("venue"),
        a["orderBy"].value,
    )
    page = _page(
        lambda o, n: service.papers(query, o, n, count=False), lambda: service.count_papers(query), a.get("first"), a.get("after")
    )
    return [page] * len(parents)


def _paper_list(name: str):
    def resolve(run: PlanRun, parents, _s, siblings):
        return run.lists("paper", [p.id for p in parents], name, siblings)

    return resolve


def _paper_concepts(run: PlanRun, parents, s, siblings):
    first = run.args(s).get("first")
    if first is None:
        return run.lists("paper", [p.id for p in parents], "concepts", siblings)
    return run.reads.concepts_of_papers([p.id for p in parents], check_first(first, 0))


def _author_papers(run: PlanRun, parents, _s, siblings):
    return run.lists("author", [a.key for a in parents], "papers", siblings)


def _author_coauthors(run: PlanRun, parents, s, siblings):
    first = run.first(s, COAUTHORS_FIRST)
    rows = [rs[:first] for rs in run.lists("author", [a.key for a in parents], "coauthors", siblings)]
    found = _found(run.reads.authors_by_keys, [r.author_key for rs in rows for r in rs])
    return [[CoauthorRow(found[r.author_key], r.joint_papers) for r in rs if found.get(r.author_key)] for rs in rows]


def _found(read, keys: Sequence[str]) -> dict:
    """One batched read of the distinct keys: key -> what it found (None for nothing)."""
    unique = list(dict.fromkeys(keys))
    return dict(zip(unique, read(unique))) if unique else {}


def _paper_related(run: PlanRun, parents, s, _):
    first = check_first(run.args(s).get("first"), 10)
    rows = [rs[:first] for rs in run.reads.related_papers([p.id for p in parents], RELATED_LIMIT)]
    papers = _found(run.reads.papers_by_ids, [r.paper_id for rs in rows for r in rs])
    concepts = _found(run.reads.concepts_by_keys, [k for rs in rows for r in rs for k in r.shared])
    return [
        [
            Related(papers[r.paper_id], r.score, [concepts[k] for k in r.shared if concepts.get(k)])
            for r in rs
            if papers.get(r.paper_id)
        ]
        for rs in rows
    ]


def _concept_papers(run: PlanRun, parents, s, _):
    a, service = run.args(s), run.service
    return [
        _page(
            lambda o, n, k=c.key: service.papers_with_concept_key(k, o, n, count=False),
            lambda k=c.key: service.count_papers_with_concept_key(k),
            a.get("first"),
            a.get("after"),
        )
        for c in parents
    ]


def _concept_broader(run: PlanRun, parents, _s, _):
    keys = [c.broader for c in parents if c.broader is not None]
    found = _found(run.reads.concepts_by_keys, keys)
    return [found.get(c.broader) if c.broader is not None else None for c in parents]


def _edges(_run, parents: list[Connection], _s, _):
    return [[Edge(encode_cursor(c.offset + i), item) for i, item in enumerate(c.items)] for c in parents]


RESOLVERS: dict[tuple[str, str], Callable] = {
    ("Query", "paper"): _root_paper,
    ("Query", "author"): _root_author,
    ("Query", "concept"): _root_concept,
    ("Query", "papers"): _root_papers,
    ("Paper", "authors"): _paper_list("authors"),
    ("Paper", "areas"): _paper_list("areas"),
    ("Paper", "concepts"): _paper_concepts,
    ("Paper", "related"): _paper_related,
    ("RelatedPaper", "paper"): lambda _r, parents, _s, _: [r.paper for r in parents],
    ("RelatedPaper", "sharedConcepts"): lambda _r, parents, _s, _: [r.shared for r in parents],
    ("Author", "papers"): _author_papers,
    ("Author", "coauthors"): _author_coauthors,
    ("Author", "paperCount"): lambda run, parents, _s, _: run.reads.paper_counts_of_authors([a.key for a in parents]),
    ("Coauthor", "author"): lambda _r, parents, _s, _: [r.author for r in parents],
    ("Concept", "broader"): _concept_broader,
    ("Concept", "paperCount"): lambda run, parents, _s, _: run.reads.paper_counts_of_concepts([c.key for c in parents]),
    ("Concept", "papers"): _concept_papers,
    ("PaperConnection", "edges"): _edges,
    ("PaperConnection", "pageInfo"): lambda _r, parents, _s, _: parents,
    ("PaperConnection", "totalCount"): lambda _r, parents, _s, _: [c.count() for c in parents],
    ("PaperEdge", "node"): lambda _r, parents, _s, _: [e.node for e in parents],
}

SUPPORTED = frozenset(RESOLVERS) | frozenset(LEAVES)
