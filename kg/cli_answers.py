"""Answers without a server or GraphQL: kg search | paper | related | author | concept | path.

Each command reads the store the settings name (embedded or Neo4j) through the
service, prints a readable table, or with ``--json`` one JSON document.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import asdict, is_dataclass
from pathlib import Path

import click

from kg.cards import Cards
from kg.config import Settings
from kg.errors import AmbiguousAuthor, KGError

__all__ = ["COMMANDS", "cli_settings"]

_json_option = click.option("--json", "as_json", is_flag=True, help="Print JSON instead of a table.")
_first_option = click.option("--first", default=10, show_default=True, type=click.IntRange(1, 100), help="How many to list.")


def cli_settings() -> Settings:
    """The settings ``kg`` made once, at its entry point (``kg.cli.main``: the environment and ``--data-dir``)."""
    ctx = click.get_current_context(silent=True)
    found = ctx.find_root().obj if ctx is not None else None
    return found if isinstance(found, Settings) else Settings()


def _with_service(fn: Callable, missing: Callable[[object], str | None] | None = None):
    """``fn(service)``; when ``missing`` names what was not found in its answer, that is the error. An error
    from a store that holds no papers says which store it read, and that it is empty."""
    from kg.service import KGService
    from kg.store import open_store

    settings = cli_settings()
    service = KGService(open_store(settings), settings)
    try:
        found = fn(service)
        message = missing(found) if missing is not None else None
        if message:
            raise KGError(message)
        return found
    except KGError as exc:
        if _empty(service):  # "no author named …" in a store that holds nothing: say which store, and that it is empty
            raise KGError(
                f"{exc} ({service.where} holds no papers: kg ingest FILES, or choose another store with "
                "kg --data-dir DIR, KG_DATA_DIR or NEO4J_URI)"
            ) from exc
        raise
    finally:
        service.close()


def _empty(service) -> bool:
    try:
        return service.stats().papers == 0
    except KGError:
        return False


def _no_paper(paper_id: str) -> str:
    return f"no paper with id {paper_id!r}; find ids with: kg search WORDS"


def _no_author(name: str, suggestions) -> str:
    names = [a.name for a in suggestions]
    return f"no author named {name!r}" + (f"; are you looking for: {', '.join(names)}?" if names else "")


def _emit(as_json: bool, data: dict, lines: list[str]) -> None:
    if as_json:
        click.echo(json.dumps(data, ensure_ascii=False, indent=2, default=lambda o: asdict(o) if is_dataclass(o) else str(o)))
    else:
        for line in lines:
            click.echo(line)


def _table(rows: list[tuple], headers: tuple[str, ...]) -> list[str]:
    if not rows:
        return ["  (none)"]
    cells = [tuple(str(c) for c in row) for row in rows]
    widths = [max(len(h), *(len(r[i]) for r in cells)) for i, h in enumerate(headers)]
    out = ["  " + "  ".join(h.ljust(w) for h, w in zip(headers, widths)).rstrip()]
    out += ["  " + "  ".join(c.ljust(w) for c, w in zip(row, widths)).rstrip() for row in cells]
    return out


@click.command()
@click.argument("text")
@_first_option
@_json_option
def search(text: str, first: int, as_json: bool) -> None:
    """Papers whose title or abstract match TEXT, best first."""
    hits = _with_service(lambda s: s.search(text, first))
    rows = [(f"{score:.2f}", p.id, p.year or "", p.label) for p, score in hits]
    _emit(
        as_json,
        {"query": text, "hits": [{"score": round(sc, 4), "paper": p} for p, sc in hits]},
        [f"{len(hits)} paper(s) for {text!r}:", *_table(rows, ("score", "id", "year", "title"))],
    )


@click.command()
@click.argument("paper_id")
@_json_option
def paper(paper_id: str, as_json: bool) -> None:
    """One paper: title, venue, authors, areas, key concepts and the other concepts it names."""
    card = _with_service(lambda s: Cards(s.store).paper_card(paper_id), lambda c: c is None and _no_paper(paper_id))
    p = card.paper
    lines = [
        p.title or p.label,
        f"  id {p.id}" + (f"  ·  {p.venue}" if p.venue else "") + (f"  ·  {p.year}" if p.year else ""),
        "  authors: " + ", ".join(a.name for a in card.authors) + (" et al." if p.authors_truncated else ""),
        "  areas: " + (", ".join(a.path for a in card.areas) or "(none)"),
        "  concepts: " + ", ".join(c.name for c in card.concepts),
        *(["  also named: " + ", ".join(c.name for c in card.also_named)] if card.also_named else []),
        *_source_lines(card.sources),
        *_citation_lines(card.references, card.cited_by),
    ]
    _emit(as_json, asdict(card) | {"sources": [_source_json(s) for s in card.sources]}, lines)


CITATIONS_SHOWN = 10  # references and citing papers listed by `kg paper` (all counted)


def _citation_lines(references, cited_by) -> list[str]:
    """What a paper cites (those kg has by title, the others by key) and the papers citing it, counted, the first
    few listed."""
    lines = []
    if references:
        known = sum(1 for _, p in references if p is not None)
        lines.append(f"  references: {len(references)} ({known} in kg, {len(references) - known} not yet)")
        for key, p in references[:CITATIONS_SHOWN]:
            lines.append(f"    {p.id}  {p.label[:80]}" if p is not None else f"    {key}  (not in kg yet)")
        if len(references) > CITATIONS_SHOWN:
            lines.append(f"    … {len(references) - CITATIONS_SHOWN} more (--json lists them all)")
    lines.append(f"  cited by: {len(cited_by)} paper{'s' if len(cited_by) != 1 else ''} in kg")
    for p in cited_by[:CITATIONS_SHOWN]:
        lines.append(f"    {p.id}  {p.label[:80]}")
    if len(cited_by) > CITATIONS_SHOWN:
        lines.append(f"    … {len(cited_by) - CITATIONS_SHOWN} more (--json lists them all)")
    return lines


def _source_lines(sources) -> list[str]:
    """Where a paper was read from, one record a line: its format, file and id, and why it is this paper."""
    if not sources:
        return []
    lines = [f"  read from {len(sources)} record{'s' if len(sources) != 1 else ''}:"]
    for s in sources:
        lines.append(f"    {s.format or 'record'} {Path(s.file).name}:{s.line}  id {s.key}  ({s.why})")
    return lines


def _source_json(s) -> dict:
    return {"id": s.key, "format": s.format, "file": s.file, "line": s.line, "why": s.why, **s.data}


@click.command()
@click.argument("paper_id")
@_first_option
@_json_option
def related(paper_id: str, first: int, as_json: bool) -> None:
    """Papers linked to PAPER_ID by shared concepts, strongest first, with the concepts they share and, under
    each, what else relates them (the people who wrote both, citations)."""
    found = _with_service(lambda s: Cards(s.store).related(paper_id, first), lambda f: f is None and _no_paper(paper_id))
    rows = [
        (f"{r.score:.2f}", r.paper.id, r.paper.label[:70], ", ".join(c.name for c in r.shared[:4]), r.citation) for r in found
    ]
    header, *lines = _table(rows, ("score", "id", "title", "shared concepts", "citations"))
    more = [[f"        {why}" for why in r.reasons if not why.startswith("both about ")] for r in found]
    _emit(as_json, {"paper": paper_id, "related": found}, [header, *(x for line, m in zip(lines, more) for x in (line, *m))])


@click.command()
@click.argument("name")
@_first_option
@_json_option
def author(name: str, first: int, as_json: bool) -> None:
    """A person's papers and co-authors, by id or name; everyone of that name when several people bear it;
    close matches when NAME is not exact."""
    try:
        card = _with_service(
            lambda s: Cards(s.store).author_card(s.author(name), name, first),
            lambda c: c.author is None and not as_json and _no_author(name, c.suggestions),
        )
    except AmbiguousAuthor as several:
        lines = [
            f"{len(several.people)} people are named {name!r}; `kg author ID` shows one:",
            *_table([(key, hint) for key, hint in several.people], ("id", "what tells them apart")),
        ]
        _emit(as_json, {"author": None, "people": [{"id": k, "hint": h} for k, h in several.people]}, lines)
        return
    if card.author is None:  # with --json: the suggestions as JSON, and exit 1
        _emit(True, {"author": None, "suggestions": [a.name for a in card.suggestions]}, [])
        raise SystemExit(1)
    a = card.author
    lines = [
        f"{a.name}  ({card.paper_count} papers)  id: {a.key}",
        "papers:",
        *_table([(p.year or "", p.id, p.label[:80]) for p in card.papers], ("year", "id", "title")),
        "co-authors:",
        *_table([(c.joint_papers, c.name) for c in card.coauthors], ("joint papers", "name")),
        "why each paper is theirs:",
        *_table([(p, n or "", w or "") for p, n, w in card.evidence], ("paper", "as written", "why")),
    ]
    _emit(as_json, asdict(card), lines)


@click.command()
@click.argument("name")
@_first_option
@_json_option
def concept(name: str, first: int, as_json: bool) -> None:
    """A concept (by name or alias): aliases, broader concept, its papers and related concepts."""
    card = _with_service(
        lambda s: Cards(s.store).concept_card(s.concept(name), first),
        lambda c: c is None and f"no concept named {name!r}; try: kg search {name!r}",
    )
    c = card.concept
    lines = [
        f"{c.name}  ({card.paper_count} papers)",
        "  aliases: " + (", ".join(c.aliases) or "(none)"),
        "  broader: " + (card.broader or "(none)"),
        "papers (most about it first):",
        *_table([(p.year or "", p.id, p.label[:80]) for p in card.papers], ("year", "id", "title")),
        "related concepts:",
        *_table([(r.shared_papers, r.name) for r in card.related], ("shared papers", "concept")),
    ]
    _emit(as_json, asdict(card), lines)


@click.command()
@click.argument("source")
@click.argument("target")
@_json_option
def path(source: str, target: str, as_json: bool) -> None:
    """The shortest co-author path from SOURCE to TARGET (the one the API returns)."""
    found = _with_service(lambda s: s.collaboration_path(source, target))
    if found is None:
        _emit(as_json, {"path": None}, [f"no co-author path from {source!r} to {target!r}"])
        return
    _emit(as_json, {"path": found}, [" → ".join(a.name for a in found), f"({len(found) - 1} step(s))"])


@click.command()
@click.option("--format", "fmt", type=click.Choice(["graphml", "gexf", "json", "csv"]), default="graphml", show_default=True)
@click.option(
    "--output", "-o", type=click.Path(dir_okay=False), required=True, help="File to write (csv: the edges; nodes beside it)."
)
@click.option("--author", default=None, help="Only the co-author network around this author.")
@click.option("--depth", default=1, show_default=True, type=int, help="Co-author steps from --author.")
@click.option("--concept", default=None, help="Only this concept's papers, their authors and concepts, and the links among them.")
def export(fmt: str, output: str, author: str | None, depth: int, concept: str | None) -> None:
    """Write the graph, or a neighbourhood of it, for Gephi, Cytoscape or networkx."""
    from pathlib import Path

    from kg.export import write_graph

    if author and concept:
        raise KGError("give --author or --concept, not both")
    graph = _with_service(lambda s: s.export_graph(author=author, depth=depth, concept=concept))
    written = write_graph(graph, fmt, Path(output))
    click.echo(f"{graph.number_of_nodes()} nodes, {graph.number_of_edges()} edges -> {', '.join(map(str, written))}")


COMMANDS = [search, paper, related, author, concept, path, export]
