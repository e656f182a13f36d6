"""The ``kg`` command: ingest | serve | stats | extract | schema | migrate | neo4j."""

from __future__ import annotations

import json
import logging
import os
import sys
from collections.abc import Iterable
from typing import Any, TextIO
from pathlib import Path

import click

from kg.cli_answers import cli_settings
from kg.config import Settings
from kg.errors import KGError

__all__ = ["main"]


def _service():
    from kg.service import KGService
    from kg.store import open_store

    settings = cli_settings()
    return KGService(open_store(settings), settings)


def _progress(items: Iterable, total: int, label: str) -> Iterable:
    from tqdm import tqdm

    # A bar on long runs only; short runs stay quiet.
    return tqdm(items, total=total, desc=label, unit="paper", file=sys.stderr, disable=total < 200, mininterval=0.5)


class _Group(click.Group):
    def invoke(self, ctx):
        try:
            return super().invoke(ctx)
        except KGError as exc:
            click.echo(f"error: {exc}", err=True)
            sys.exit(1)


@click.group(cls=_Group)
@click.pass_context
@click.version_option(package_name="kg")
@click.option(
    "--data-dir",
    type=click.Path(file_okay=False, path_type=Path),
    help="The embedded store's folder, for every command (else KG_DATA_DIR, else the per-user data folder).",
)
def main(ctx: click.Context, data_dir: Path | None) -> None:
    """A knowledge graph of research literature."""
    # The Neo4j driver logs each connection retry; kg says once, clearly, what is wrong.
    logging.getLogger("neo4j").setLevel(logging.ERROR)
    # the settings, made once here and read by every command (``cli_settings``)
    ctx.obj = Settings(KG_DATA_DIR=data_dir) if data_dir is not None else Settings()


@main.command()
@click.argument("paths", nargs=-1, required=True, type=click.Path())
@click.option("--skip-invalid", is_flag=True, help="Skip bad records (counted, written to --rejects) instead of failing.")
@click.option(
    "--rejects",
    type=click.Path(dir_okay=False),
    default="kg-rejects.jsonl",
    show_default=True,
    help="Where --skip-invalid writes the records it skipped, with file, line and error.",
)
@click.option(
    "--engine",
    type=click.Choice(["local", "spark"]),
    default="local",
    show_default=True,
    help="spark: the same ingest on Apache Spark (pip install kg[spark]), a first load into Neo4j or Parquet.",
)
@click.option("--master", help="With --engine spark: the Spark master URL (default local[*], or spark-submit's).")
@click.option(
    "--output",
    type=click.Choice(["neo4j", "parquet"]),
    default="neo4j",
    show_default=True,
    help="With --engine spark: where the graph goes.",
)
@click.option(
    "--stages",
    type=click.Path(file_okay=False),
    help="With --engine spark: keep each stage as Parquet here (and resume from it).",
)
@click.option("-v", "--verbose", is_flag=True, help="Say, for each committed chunk, where its time went.")
def ingest(
    paths: tuple[str, ...],
    skip_invalid: bool,
    rejects: str,
    engine: str,
    master: str | None,
    output: str,
    stages: str | None,
    verbose: bool,
) -> None:
    """Add paper listings (.txt) and JSON Lines records (.jsonl, .json; also .gz), files or folders."""
    if verbose:
        chunks = logging.getLogger("kg.ingest")
        handler = logging.StreamHandler()  # to stderr as it is now (a test runner swaps it)
        handler.setFormatter(logging.Formatter("%(asctime)s %(message)s", "%H:%M:%S"))
        chunks.handlers = [handler]
        chunks.setLevel(logging.INFO)
    if engine == "spark":
        _ingest_spark(paths, skip_invalid, master, output, stages)
        return
    service = _service()
    rejected = _Rejects(Path(rejects)) if skip_invalid else None
    try:
        summary = service.ingest(paths, progress=_progress, on_error=rejected)
    finally:
        service.close()
        if rejected is not None:
            rejected.close()
    for line in _summary_lines(summary):
        click.echo(line)
    if rejected is not None and rejected.count:
        click.echo(f"skipped {rejected.count} invalid record(s), written to {rejected.path}; the first:", err=True)
        for message in rejected.first:
            click.echo(f"  {message}", err=True)


def _ingest_spark(paths, skip_invalid: bool, master: str | None, output: str, stages: str | None) -> None:
    try:
        from kg.spark.engine import ingest_spark, summary_lines
        import pyspark  # noqa: F401
    except ImportError as exc:
        raise click.ClickException(f"the Spark engine needs pyspark: pip install 'kg[spark]' ({exc})") from exc
    if skip_invalid:
        raise click.UsageError("--skip-invalid is not available with --engine spark: fix or remove the bad records first")
    for line in summary_lines(ingest_spark(paths, cli_settings(), master=master, output=output, stages_dir=stages)):
        click.echo(line)


def _summary_lines(summary) -> list[str]:
    b, a, s = summary.before, summary.after, summary.stage_seconds
    return [
        f"read {summary.records} records from {summary.files} file(s) in {summary.seconds:.1f}s "
        f"(concepts {s['extract']:.1f}s, who is who: {summary.people_seconds:.1f}s, "
        f"links {s['links']:.1f}s, writing {s['write']:.1f}s)",
        f"papers: +{summary.papers_added} new, {summary.papers_already_present} already present, "
        f"{summary.repeated_listings} record(s) joined to a paper of another record",
        *_file_lines(summary.file_reports),
        f"authors +{a.authors - b.authors}, concepts +{a.concepts - b.concepts}, "
        f"research areas +{a.research_areas - b.research_areas}",
        f"co-author pairs {b.coauthor_edges} -> {a.coauthor_edges}, "
        f"shares-concept pairs {b.shared_concept_edges} -> {a.shared_concept_edges}",
        f"totals: {a.papers} papers, {a.authors} authors, {a.concepts} concepts, {a.research_areas} areas",
        *(f"skipped {path}: {why}" for path, why in summary.skipped_files),
        *(
            [
                f"{len(summary.differing)} listing(s) differ in title or abstract from the paper read first under their id "
                "(kept as first read): " + ", ".join(f"{pid} ({src}:{line})" for pid, src, line in summary.differing[:5])
            ]
            if summary.differing
            else []
        ),
    ]


def _file_lines(reports) -> list[str]:
    """Per file, when there are several: records read, papers new, records joined to a paper, already there, refused."""
    if len(reports) < 2:
        return []
    rows = [
        f"  {Path(r.path).name}: {r.records} record(s), {r.new} new paper(s), {r.joined} joined"
        + (f", {r.present} already read" if r.present else "")
        + (f", {r.refused} refused" if r.refused else "")
        for r in reports
    ]
    return ["per file:", *rows]


class _Rejects:
    """Counts skipped records, keeps the first few messages, writes each to a JSON Lines file."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self.count = 0
        self.first: list[str] = []
        self._handle: TextIO | None = None

    def __call__(self, error: KGError, text: str) -> None:
        handle = self._handle = self._handle or self.path.open("w", encoding="utf-8")
        self.count += 1
        if len(self.first) < 5:
            self.first.append(str(error))
        record = {"file": getattr(error, "path", None), "line": getattr(error, "line", None), "error": str(error), "text": text}
        handle.write(json.dumps(record, ensure_ascii=False) + "\n")

    def close(self) -> None:
        if self._handle is not None:
            self._handle.close()


@main.command()
def stats() -> None:
    """Counts of nodes and edges in the store."""
    service = _service()
    click.echo(f"reading {service.where}", err=True)
    try:
        service.check()  # fails at once, with one message, when the store cannot be reached
        s = service.stats()
    finally:
        service.close()
    for field, value in (
        ("papers", s.papers),
        ("authors", s.authors),
        ("concepts", s.concepts),
        ("research areas", s.research_areas),
        ("co-author pairs", s.coauthor_edges),
        ("shares-concept pairs", s.shared_concept_edges),
    ):
        click.echo(f"{field:22} {value}")


@main.command()
@click.option("--host", default="127.0.0.1", show_default=True)
@click.option("--port", default=8000, show_default=True, type=int)
@click.option(
    "--workers", default=1, show_default=True, type=click.IntRange(1, 64), help="Server processes (each holds the graph)."
)
@click.option("--access-log/--no-access-log", default=False, show_default=True, help="Log a line per request.")
def serve(host: str, port: int, workers: int, access_log: bool) -> None:
    """Serve the GraphQL API (GraphiQL at /graphql, health at /healthz)."""
    import uvicorn

    from kg.api.app import create_app, prepare_to_serve

    from kg.errors import StoreUnavailable

    service = _service()
    click.echo(f"serving {service.where}", err=True)
    # a client is its connection's address: forwarded headers only from the proxies the operator names
    proxies = service.settings.trusted_proxies
    trusting, allowed = bool(proxies), ",".join(proxies) or None
    try:
        service.check()  # a database behind its migrations stops here
    except StoreUnavailable as exc:
        # Serve anyway: /healthz says 503 and queries say why until the store is back.
        click.echo(f"warning: {exc}; serving anyway, /healthz answers 503 until it is reachable", err=True)
    served: dict[str, Any] = dict(
        host=host, port=port, log_level="info", access_log=access_log, proxy_headers=trusting, forwarded_allow_ips=allowed
    )
    if workers > 1:  # each worker process builds its own app and store from the same settings
        service.close()
        if service.settings.neo4j_uri is None:  # a worker is an entry point of its own: it is told the folder
            os.environ["KG_DATA_DIR"] = str(service.settings.data_dir)
        uvicorn.run("kg.api.app:app_from_settings", factory=True, workers=workers, **served)
        return
    app = create_app(service, owns_service=True)
    prepare_to_serve(app, service)
    uvicorn.run(app, **served)


@main.command()
def extract() -> None:
    """Read JSON lines {"id", "text"} (optional "title", "keywords") on stdin; write {"id", "concepts"} per line, in order."""
    from kg.extract.pipeline import DocumentInput

    rows = []
    for number, line in enumerate(sys.stdin, start=1):
        if not line.strip():
            continue
        try:
            obj = json.loads(line)
            text, title = obj["text"], obj.get("title") or ""
            if not isinstance(text, str) or not isinstance(title, str):
                raise TypeError("text and title must be strings")
        except (ValueError, KeyError, TypeError) as exc:
            raise KGError(f'<stdin>:{number}: expected {{"id", "text"}} ({exc})') from exc
        rows.append((obj.get("id"), text, tuple(obj.get("keywords") or ()), title))
    service = _service()
    found = service.extract([DocumentInput(text, kws, title) for _, text, kws, title in rows], _progress)
    for (doc_id, *_), concepts in zip(rows, found, strict=True):
        sys.stdout.write(
            json.dumps({"id": doc_id, "concepts": [c.name for c in concepts if not c.minor]}, ensure_ascii=False) + "\n"
        )


@main.command()
@click.option("--output", "-o", type=click.Path(), default=None, help="Write to a file instead of stdout.")
def schema(output: str | None) -> None:
    """Print the GraphQL schema (SDL), as exported to graphql/schema.graphql."""
    from kg.api.graphql.schema import schema_sdl

    sdl = schema_sdl()
    if output:
        with open(output, "w", encoding="utf-8") as handle:
            handle.write(sdl)
    else:
        click.echo(sdl, nl=False)


@main.command()
def migrate() -> None:
    """Apply pending Neo4j migrations (migrations/V*.cypher) in order; a no-op when current."""
    service = _service()
    try:
        applied = service.migrate()
    finally:
        service.close()
    for name in applied:
        click.echo(f"applied {name}")
    if not applied:
        click.echo("migrations are up to date")


def _add_commands() -> None:
    from kg.cli_answers import COMMANDS
    from kg.cli_neo4j import neo4j
    from kg.cli_papers import papers
    from kg.cli_people import authors
    from kg.cli_trends import trends

    for command in [*COMMANDS, neo4j, authors, papers, trends]:
        main.add_command(command)


_add_commands()

if __name__ == "__main__":
    main()
