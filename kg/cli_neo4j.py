"""`kg neo4j start | stop | status | env`: a local Neo4j server for development and tests."""

from __future__ import annotations

from pathlib import Path

import click

from kg.cli_answers import cli_settings

__all__ = ["neo4j"]


@click.group()
def neo4j() -> None:
    """A local Neo4j server (Community, from Maven Central) for development and tests."""


def _local(port: int, data: str | None):
    from kg.store.neo4j.local_server import NEO4J_VERSION, LocalNeo4j

    settings = cli_settings()
    return LocalNeo4j(
        data_dir=Path(data) if data else settings.local_neo4j_dir,
        port=port,
        cache_dir=settings.neo4j_cache_dir / f"neo4j-{NEO4J_VERSION}",
    )


@neo4j.command("start")
@click.option("--port", default=7687, show_default=True, type=int)
@click.option("--data", default=None, help="Data folder [default: $KG_LOCAL_NEO4J_DIR or .kg/neo4j]")
def neo4j_start(port: int, data: str | None) -> None:
    """Fetch (once), start in the background, wait until it answers; prints the Bolt URI last."""
    server = _local(port, data)
    uri = server.start(say=lambda m: click.echo(m, err=True))
    click.echo(uri)


@neo4j.command("stop")
@click.option("--data", default=None, help="Data folder of the server to stop")
def neo4j_stop(data: str | None) -> None:
    """Stop the local server (fine when it is not running)."""
    _local(7687, data).stop(say=click.echo)


@neo4j.command("status")
@click.option("--data", default=None, help="Data folder to look at [default: $KG_LOCAL_NEO4J_DIR or .kg/neo4j]")
def neo4j_status(data: str | None) -> None:
    """Say whether a server runs on the data folder, and list every local server kg started."""
    from kg.store.neo4j.local_server import running_servers

    server = _local(7687, data)
    found = server.running()
    if found:
        click.echo(f"running on data folder {server.data_dir}: pid {found[0]}, bolt://127.0.0.1:{found[1]}")
    else:
        click.echo(f"not running on data folder {server.data_dir}")
    for pid, port, folder in running_servers(server.registry):
        click.echo(f"  pid {pid}  bolt://127.0.0.1:{port}  data {folder}")


@neo4j.command("env")
@click.option("--data", default=None, help="Data folder of the server [default: $KG_LOCAL_NEO4J_DIR or .kg/neo4j]")
def neo4j_env(data: str | None) -> None:
    """Print `export NEO4J_URI=… NEO4J_USERNAME=… NEO4J_PASSWORD=…` lines for the running server, for
    other clients (the @neo4j/graphql peer, cypher-shell, a driver): eval "$(kg neo4j env --data DIR)"."""
    import shlex

    from kg.store.neo4j.local_server import USERNAME

    server = _local(7687, data)
    found = server.running()
    if found is None:
        raise click.ClickException(
            f"Neo4j is not running on data folder {server.data_dir}; start it with `kg neo4j start --data {server.data_dir}`"
        )
    if not server.password_file.exists():
        raise click.ClickException(f"{server.password_file} is missing; restart the server with `kg neo4j start` to make one")
    for name, value in (
        ("NEO4J_URI", f"bolt://127.0.0.1:{found[1]}"),
        ("NEO4J_USERNAME", USERNAME),
        ("NEO4J_PASSWORD", server.password()),
    ):
        click.echo(f"export {name}={shlex.quote(value)}")
