"""The embedded store's graph: node ids, applying a batch, and typed views of nodes.

``GraphView`` is what the store's read rooms share: it turns nodes into kg's models
and walks typed edges. Subclasses give it ``graph`` and ``_cached``.
"""

from __future__ import annotations

from collections.abc import Sequence

import networkx as nx

from kg.graph.build import GraphBatch
from kg.graph.correction import PaperCorrection, PeopleCorrection
from kg.models import Author, Concept, Paper, ResearchArea
from kg.store.shapes import paper_from

__all__ = ["GraphView", "adds_anything", "apply_batch", "apply_correction", "node_id"]


def node_id(kind: str, key: str) -> str:
    return f"{kind}:{key}"


def apply_batch(g: nx.DiGraph, batch: GraphBatch) -> None:
    """Add one batch to the graph in place (MERGE semantics; co-author weights add up)."""
    for p in batch.papers:
        g.add_node(
            node_id("paper", p.id),
            kind="paper",
            id=p.id,
            title=p.title,
            label=p.label,
            abstract=p.abstract,
            venue=p.venue,
            year=p.year,
            authors_truncated=p.authors_truncated,
            concept_norm=p.concept_norm,
            citations=p.citations,
            topic=p.topic,
        )
    _add_sources(g, batch)
    _add_people_and_areas(g, batch)
    _add_concepts(g, batch)
    for narrow, broad in batch.broader:
        g.add_edge(node_id("concept", narrow), node_id("concept", broad), type="BROADER")
    _add_authorships(g, batch)
    for pid, path in batch.in_area:
        g.add_edge(node_id("paper", pid), node_id("area", path), type="IN_AREA")
    for rows, marks in ((batch.mentions, {}), (batch.minor_mentions, {"minor": True})):  # a key mention has no mark
        for pid, key, weight in rows:
            g.add_edge(node_id("paper", pid), node_id("concept", key), type="MENTIONS", weight=weight, **marks)
    _add_counts(
        g, "CO_AUTHORED", ((node_id("author", a), node_id("author", b), n) for (a, b), n in batch.coauthor_increments.items())
    )
    for (one, other), (score, concepts) in batch.shared.items():
        g.add_edge(node_id("paper", one), node_id("paper", other), type="SHARES_CONCEPT", score=score, concepts=list(concepts))
    known = g.graph.setdefault("author_ids", {})
    for source_id, key in batch.author_ids.items():
        known.setdefault(source_id, key)
    for i in batch.institutions:
        if node_id("institution", i.key) not in g:
            g.add_node(node_id("institution", i.key), kind="institution", key=i.key, name=i.name)
    _add_counts(
        g, "AFFILIATED_WITH", ((node_id("author", a), node_id("institution", i), n) for (a, i), n in batch.affiliated.items())
    )
    _add_citations(g, batch)
    if batch.correction is not None:
        apply_correction(g, batch.correction)
    if batch.paper_correction is not None:
        apply_paper_correction(g, batch.paper_correction)


def _add_sources(g: nx.DiGraph, batch: GraphBatch) -> None:
    """Each paper's sources (all of them, replaced), the merged fields of stored papers a source changed, and the
    title blocks of new records (``kg.works``)."""
    for p in batch.updates:
        g.nodes[node_id("paper", p.id)].update(
            title=p.title, label=p.label, abstract=p.abstract, venue=p.venue, year=p.year, citations=p.citations
        )
    for pid, sources in batch.sources.items():
        g.nodes[node_id("paper", pid)]["sources"] = tuple(s.encode() for s in sources)
    for pid, block in batch.blocks:
        d = g.nodes[node_id("paper", pid)]
        if block not in d.get("blocks", ()):
            d["blocks"] = (*d.get("blocks", ()), block)


def _add_people_and_areas(g: nx.DiGraph, batch: GraphBatch) -> None:
    """People (with their block and profile, once the people stage has run) and areas with their parents."""
    for a in [*batch.authors, *(batch.correction.people if batch.correction else ())]:
        node = node_id("author", a.key)
        if node not in g:
            g.add_node(node, kind="author", key=a.key, name=a.name)
        if a.block:
            g.nodes[node].update(block=a.block, profile=a.profile)
    for area in batch.areas:
        node = node_id("area", area.path)
        if node not in g:
            g.add_node(node, kind="area", path=area.path, name=area.name, parent=area.parent)
        if area.parent:
            g.add_edge(node, node_id("area", area.parent), type="SUBAREA_OF")


def _add_concepts(g: nx.DiGraph, batch: GraphBatch) -> None:
    """Concepts; one already stored gains the batch's aliases, and its broader chain if it had none."""
    for c in batch.concepts:
        node = node_id("concept", c.key)
        if node in g:
            d = g.nodes[node]
            if not set(c.aliases) <= set(d["aliases"]):
                d["aliases"] = sorted(set(d["aliases"]) | set(c.aliases))
            d["broader"] = d.get("broader") or c.broader
        else:
            g.add_node(node, kind="concept", key=c.key, name=c.name, aliases=sorted(c.aliases), broader=c.broader)


def _add_authorships(g: nx.DiGraph, batch: GraphBatch) -> None:
    """Author -> paper with its byline position; after the people stage also the name as written there and why,
    and the place and source id written beside it (kept when given)."""
    for key, pid, position, *note in batch.authored:
        g.add_edge(node_id("author", key), node_id("paper", pid), type="AUTHORED", position=position)
        if note:
            g.edges[node_id("author", key), node_id("paper", pid)].update(
                (k, v) for k, v in zip(("name", "why", "place", "source_id"), note) if v is not None or k in ("name", "why")
            )


def _add_citations(g: nx.DiGraph, batch: GraphBatch) -> None:
    """Each key a new paper is known by, and each it cites, is a ``ref`` node: a paper citing a key that no paper
    is known by yet cites a stub, which a paper known by that key joins when it comes."""
    for etype, rows in (("KNOWN_AS", batch.known_as), ("CITES", batch.cites)):
        for pid, key, *n in rows:
            ref = node_id("ref", key)
            if ref not in g:
                g.add_node(ref, kind="ref", key=key)
            if not g.has_edge(node_id("paper", pid), ref):
                g.add_edge(node_id("paper", pid), ref, type=etype, **({"n": n[0]} if n else {}))


def apply_correction(g: nx.DiGraph, c: PeopleCorrection) -> None:
    """Move authorships, change the counts they carried (an edge left with no paper goes), drop the people
    merged away (their keys now mean the survivor), re-point source ids, and keep what the user asked."""
    for pid, old, new, why in c.moves:
        u, v, p = node_id("author", old), node_id("author", new), node_id("paper", pid)
        data = g.edges[u, p] if g.has_edge(u, p) else None
        if data is not None:
            g.remove_edge(u, p)
            if not g.has_edge(v, p):
                g.add_edge(v, p, **{**data, "why": why})
    for etype, kind, changes in (("CO_AUTHORED", "author", c.coauthors), ("AFFILIATED_WITH", "institution", c.affiliated)):
        _add_counts(g, etype, ((node_id("author", a), node_id(kind, b), n) for (a, b), n in changes.items()))
        gone = [(node_id("author", a), node_id(kind, b)) for a, b in changes]
        g.remove_edges_from([e for e in gone if g.has_edge(*e) and g.edges[e]["papers"] <= 0])
    aliases = g.graph.setdefault("author_aliases", {})  # key -> [the key it now means, its block]
    for key, to, block in c.removed:
        if node_id("author", key) in g:
            g.remove_node(node_id("author", key))
        for alias, (target, _) in list(aliases.items()):
            if target == key:
                aliases[alias][0] = to
        aliases[key] = [to, block]
    g.graph.setdefault("author_ids", {}).update(c.ids)
    g.graph.setdefault("corrections", []).append(c.record)


def apply_paper_correction(g: nx.DiGraph, c: PaperCorrection) -> None:
    """Rewrite the paper that stays; a merge moves the other paper's keys, references, areas and blocks to it and
    takes away the other's byline and node; a split unlinks the keys and blocks the leaving source gave."""
    keep = node_id("paper", c.paper.id)
    d = g.nodes[keep]
    p = c.paper
    d.update(title=p.title, label=p.label, abstract=p.abstract, venue=p.venue, year=p.year, citations=p.citations)
    d["sources"] = tuple(s.encode() for s in c.sources)
    if c.removed is not None:
        gone = node_id("paper", c.removed)
        for target, data in list(g.succ[gone].items()):
            if data["type"] in ("KNOWN_AS", "IN_AREA") and not g.has_edge(keep, target):
                g.add_edge(keep, target, type=data["type"])
        for key, n in c.cites:
            ref = node_id("ref", key)
            if ref not in g:
                g.add_node(ref, kind="ref", key=key)
            if not g.has_edge(keep, ref):
                g.add_edge(keep, ref, type="CITES", n=n)
        d["blocks"] = tuple(dict.fromkeys((*d.get("blocks", ()), *g.nodes[gone].get("blocks", ()))))
        _add_counts(g, "CO_AUTHORED", ((node_id("author", a), node_id("author", b), n) for (a, b), n in c.coauthors.items()))
        _add_counts(
            g, "AFFILIATED_WITH", ((node_id("author", a), node_id("institution", i), n) for (a, i), n in c.affiliated.items())
        )
        for u, v in [
            *((node_id("author", a), node_id("author", b)) for a, b in c.coauthors),
            *((node_id("author", a), node_id("institution", i)) for a, i in c.affiliated),
        ]:
            if g.has_edge(u, v) and g.edges[u, v]["papers"] <= 0:
                g.remove_edge(u, v)
        g.remove_node(gone)
        g.remove_nodes_from([node_id("author", a) for a in c.people_removed])
    for key in c.unlinked:
        if g.has_edge(keep, node_id("ref", key)):
            g.remove_edge(keep, node_id("ref", key))
    if c.unblocked:
        d["blocks"] = tuple(b for b in d.get("blocks", ()) if b not in set(c.unblocked))
    g.graph.setdefault("paper_corrections", []).append(c.record)


def _add_counts(g: nx.DiGraph, etype: str, increments) -> None:
    """Edges that count papers (co-authorship, affiliation): a new edge starts at its increment, a stored one adds it."""
    for u, v, inc in increments:
        old = g.get_edge_data(u, v)
        if old is None:
            g.add_edge(u, v, type=etype, papers=inc)
        else:
            old["papers"] += inc


def adds_anything(g: nx.DiGraph, batch: GraphBatch) -> bool:
    """Whether applying the batch would change the graph (a re-run of an ingest adds nothing)."""
    if (
        batch.correction is not None
        or batch.paper_correction is not None
        or batch.cites
        or batch.papers
        or batch.authored
        or batch.mentions
        or batch.minor_mentions
        or batch.coauthor_increments
        or batch.shared
        or batch.affiliated
        or batch.author_ids
        or batch.sources
        or batch.updates
        or batch.blocks
    ):
        return True
    if any(node_id("area", a.path) not in g for a in batch.areas):
        return True
    return any(not g.has_edge(node_id("paper", p), node_id("area", a)) for p, a in batch.in_area)


class GraphView:
    """Typed access to the graph; the read rooms of the embedded store build on it."""

    graph: nx.DiGraph

    def _cached(self, name: str, build):  # pragma: no cover - the store defines it
        raise NotImplementedError

    def _nodes(self, kind: str):
        return ((n, d) for n, d in self.graph.nodes(data=True) if d["kind"] == kind)

    def _out(self, node: str, etype: str):
        return ((m, d) for m, d in self.graph.succ[node].items() if d["type"] == etype)

    def _in(self, node: str, etype: str):
        return ((m, d) for m, d in self.graph.pred[node].items() if d["type"] == etype)

    def _both(self, node: str, etype: str):
        yield from self._out(node, etype)
        yield from self._in(node, etype)

    def _paper(self, node: str) -> Paper:
        return paper_from(self.graph.nodes[node])

    def _author(self, node: str) -> Author:
        d = self.graph.nodes[node]
        return Author(d["key"], d["name"])

    def _concept(self, node: str) -> Concept:
        d = self.graph.nodes[node]
        return Concept(d["key"], d["name"], tuple(d.get("aliases", ())), d.get("broader"))

    def _area(self, node: str) -> ResearchArea:
        d = self.graph.nodes[node]
        return ResearchArea(d["path"], d["name"], d.get("parent"))

    def _get(self, kind: str, keys: Sequence[str], make) -> list:
        g = self.graph
        return [make(node_id(kind, k)) if node_id(kind, k) in g else None for k in keys]
