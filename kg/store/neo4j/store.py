"""The Neo4j store: the store interface answered with Cypher over Bolt."""

from __future__ import annotations

import logging
import os
import re
import secrets
import socket
import time
from pathlib import Path
from collections import defaultdict
from collections.abc import Iterator, Sequence
from contextlib import contextmanager

import neo4j
from neo4j import GraphDatabase
from neo4j.exceptions import AuthError, DriverError, Neo4jError, ServiceUnavailable, SessionExpired

from kg import deadline
from kg.config import Settings
from kg.errors import StoreError, StoreUnavailable
from kg.graph.build import GraphBatch
from kg.graph.shares import Posting
from kg.models import Author, Facets, Page, ResearchArea, Stats, Suggestion
from kg.graph.algorithms import nearest_first
from kg.store.base import SUGGEST_CANDIDATES, Network, PaperFilter, Store, rank_suggestions
from kg.store.textsearch import words_of
from kg.store.neo4j import queries as cypher, writes
from kg.store.neo4j.batched import Neo4jBatchedReads, timed
from kg.store.neo4j.people import Neo4jPeople
from kg.store.neo4j.years import Neo4jYears
from kg.store.neo4j.migrate import apply_migrations, ensure_current
from kg.store.neo4j.writes import batch_rows
from kg.store.neo4j.local_server import neo4j_auth, pid_alive

__all__ = ["Neo4jStore"]

log = logging.getLogger(__name__)
_LUCENE_SPECIAL = re.compile(r'([+\-&|!(){}\[\]^"~*?:\\/])')


FAIL_FAST_SECONDS = 2.0
DRIVER_OPTIONS = {"connection_timeout": 2, "max_transaction_retry_time": 2, "notifications_min_severity": "OFF"}
LEASE_SECONDS = 600  # an ingest renews its lease with every write
LOCK_POLL_SECONDS = 0.5


def _holder_is_dead(holder: str | None) -> bool:
    """Whether a lease holder ``host:pid:token`` was a process on this host that has ended."""
    host, _, rest = (holder or "").partition(":")
    pid = rest.partition(":")[0]
    return bool(holder) and host == socket.gethostname() and pid.isdigit() and not pid_alive(int(pid))


class Neo4jStore(Neo4jPeople, Neo4jYears, Neo4jBatchedReads, Store):
    """A store in a Neo4j 5 database. The driver connects lazily; ``check()`` verifies."""

    kind = "neo4j"

    def __init__(
        self, driver: neo4j.Driver, *, database: str = "neo4j", batch_size: int = 1000, migrations_dir: Path | None = None
    ) -> None:
        self.driver = driver
        self.database = database
        self.batch_size = batch_size
        self.migrations_dir = migrations_dir  # None: the migrations kg ships
        self.queries_run = 0  # Cypher statements sent, for measurements
        self._unreachable_until = 0.0  # after a failed connection, reads fail fast until then
        self._lease: str | None = None  # the ingest lease this store holds, if any

    @classmethod
    def from_settings(cls, settings: Settings) -> "Neo4jStore":
        driver = GraphDatabase.driver(settings.neo4j_uri, auth=neo4j_auth(settings), **DRIVER_OPTIONS)
        return cls(
            driver,
            database=settings.neo4j_database,
            batch_size=settings.neo4j_batch_size,
            migrations_dir=settings.migrations_dir,
        )

    def async_tree_reads(self, settings: Settings):
        """Compiled operations in one query on the async driver, for the calling event loop (``async_reads.py``)."""
        from kg.store.neo4j.async_reads import AsyncTreeReads

        driver = neo4j.AsyncGraphDatabase.driver(settings.neo4j_uri, auth=neo4j_auth(settings), **DRIVER_OPTIONS)
        return AsyncTreeReads(self, driver)

    def close(self) -> None:
        self.driver.close()

    def migrate(self) -> list[str]:
        self._verify_connectivity()
        with self._driver_errors("a migration failed"):
            return [m.path.name for m in apply_migrations(self.driver, self.database, self.migrations_dir)]

    # -- running Cypher -------------------------------------------------------------------
    @contextmanager
    def _driver_errors(
        self, failed: str, *, nothing_written: bool = False, fail_fast: bool = True, logged: str | None = None
    ) -> Iterator[None]:
        """The one place driver errors become kg's: StoreUnavailable when Neo4j cannot be reached
        (reads then fail fast for a while), StoreError when it refused the work (logged when ``logged``)."""
        outcome = "; nothing was written" if nothing_written else ""
        try:
            yield
        except (ServiceUnavailable, SessionExpired, OSError) as exc:
            if fail_fast:
                self._unreachable_until = time.monotonic() + FAIL_FAST_SECONDS
            raise StoreUnavailable(f"Neo4j is unreachable{outcome}: {exc}") from exc
        except AuthError as exc:
            raise StoreError(
                f"Neo4j refused kg's user name or password{outcome}: set NEO4J_USERNAME and NEO4J_PASSWORD "
                "(for a server from `kg neo4j start`, kg reads its password itself; "
                "`kg neo4j env --data DIR` prints it for other clients)"
            ) from exc
        except (Neo4jError, DriverError) as exc:
            deadline.check()  # the server stopped a request's read at its deadline: say so, not "query failed"
            if logged is not None:
                log.error("%s: %s%s", failed, exc, logged)
            raise StoreError(f"{failed}{outcome}: {exc}") from exc

    def _read(self, cypher: str, /, **params) -> list[neo4j.Record]:
        if time.monotonic() < self._unreachable_until:
            # Fail fast while Neo4j is down: one probe per FAIL_FAST_SECONDS, not a connection timeout per request.
            raise StoreUnavailable("Neo4j is unreachable (the last attempt failed moments ago)")
        self.queries_run += 1
        with self._driver_errors("Neo4j query failed", logged=f"\nquery: {cypher}\nparameters: {params!r}"):
            # An auto-commit read: RUN and PULL in one round trip (a managed transaction adds BEGIN and COMMIT);
            # all records in one PULL. Reads are idempotent, and an unreachable server fails fast above.
            with self.driver.session(database=self.database, default_access_mode=neo4j.READ_ACCESS, fetch_size=-1) as session:
                return list(session.run(timed(cypher), params))

    def _verify_connectivity(self) -> None:
        with self._driver_errors("Neo4j refused the connection"):
            self.driver.verify_connectivity()
        self._unreachable_until = 0.0

    def check(self) -> None:
        self._verify_connectivity()
        ensure_current(self.driver, self.database, self.migrations_dir)

    # -- writing ----------------------------------------------------------------------------
    def _write(self, cypher: str, /, **params) -> list[dict]:
        """A small managed write transaction (the driver retries it on transient errors)."""

        def work(tx):
            return [r.data() for r in tx.run(cypher, params)]

        with self._driver_errors("Neo4j write failed", fail_fast=False), self.driver.session(database=self.database) as session:
            return session.execute_write(work)

    @contextmanager
    def writer_lock(self) -> Iterator[None]:
        """Hold the database's ingest lease for a whole ingest, so that ingests run one after the other.

        The lease is a ``KgIngestLock`` node naming its holder (host, process, token)
        with an expiry that every write renews. A lease whose holder was a process
        on this host that no longer runs (a killed ingest) is taken over at once;
        one held from another host is taken over when it expires.
        """
        holder = f"{socket.gethostname()}:{os.getpid()}:{secrets.token_hex(4)}"
        stale, waited = "", False
        while True:
            row = self._write(writes.TAKE_INGEST_LOCK, holder=holder, stale=stale, ttl_ms=LEASE_SECONDS * 1000)[0]
            if row["free"]:
                break
            stale = row["holder"] if _holder_is_dead(row["holder"]) else ""
            if not stale:
                if not waited:
                    log.warning("another ingest (%s) is writing to this database; waiting for it", row["holder"])
                    waited = True
                time.sleep(LOCK_POLL_SECONDS)
        self._lease = holder
        try:
            yield
        finally:
            self._lease = None
            try:
                self._write(writes.RELEASE_INGEST_LOCK, holder=holder)
            except StoreError:
                log.warning("could not release the ingest lease; it expires in %d s", LEASE_SECONDS)

    def existing_papers(self, ids: Sequence[str]) -> set[str]:
        return {r["id"] for r in self._read(cypher.EXISTING_PAPERS, ids=list(ids))}

    def papers_known_by(self, keys: Sequence[str]) -> dict[str, str]:
        return {r["key"]: r["id"] for r in self._read(cypher.PAPERS_KNOWN_BY, keys=list(keys))}

    def papers_in_blocks(self, blocks: Sequence[str], limit: int | None = None) -> dict[str, list[str]]:
        rows = self._read(cypher.PAPERS_IN_BLOCKS, blocks=list(blocks), limit=2**62 if limit is None else limit)
        return {r["block"]: sorted(r["ids"]) for r in rows}

    def papers_with_concepts(self, keys: Sequence[str]) -> dict[str, list[Posting]]:
        return {r["key"]: sorted(tuple(x) for x in r["papers"]) for r in self._read(cypher.PAPERS_WITH_CONCEPTS, keys=list(keys))}

    def topics_of_papers(self, ids: Sequence[str]) -> dict[str, str]:
        return {r["id"]: r["topic"] for r in self._read(cypher.TOPICS_OF_PAPERS, ids=list(ids))}

    def apply(self, batch: GraphBatch) -> None:
        """One transaction, many batched UNWIND statements: all of it lands or none."""
        rows = batch_rows(batch)
        if (
            self._lease is not None
            and not self._write(writes.RENEW_INGEST_LOCK, holder=self._lease, ttl_ms=LEASE_SECONDS * 1000)[0]["held"]
        ):
            raise StoreError("this ingest lost its lease on the database (it expired); nothing more was written, run it again")
        # An explicit transaction, not a managed one: a retry would re-run every statement of a
        # large batch, and the co-author increments are not idempotent. A failure leaves nothing.
        with (
            self._driver_errors("Neo4j write failed", nothing_written=True, fail_fast=False, logged=""),
            self.driver.session(database=self.database) as session,
            session.begin_transaction() as tx,
        ):
            for name, query in writes.WRITES:
                for chunk in (rows[name][i : i + self.batch_size] for i in range(0, len(rows[name]), self.batch_size)):
                    self.queries_run += 1
                    tx.run(query, rows=chunk).consume()
            tx.commit()

    # -- reading ------------------------------------------------------------------------------
    def stats(self) -> Stats:
        r = self._read(cypher.STATS)[0]
        return Stats(r["papers"], r["authors"], r["concepts"], r["areas"], r["coauthors"], r["shared"])

    def resolve_concept(self, exact: Sequence[str], names: Sequence[str]) -> str | None:
        found = {r["key"] for r in self._read(cypher.CONCEPTS_EXIST, keys=list(exact))}
        for key in exact:
            if key in found:
                return key
        return self._concept_named(names)

    @staticmethod
    def _filter_params(paper_filter: PaperFilter) -> tuple[list[str], dict]:
        params = {
            "author": paper_filter.author,
            "concept": paper_filter.concept,
            "area": paper_filter.area.lower() if paper_filter.area else None,
            "text": paper_filter.text.lower().split() if paper_filter.text else None,
            "year_from": paper_filter.year_from,
            "year_to": paper_filter.year_to,
            "venue": paper_filter.venue,
        }
        active = [name for name, value in params.items() if value is not None]
        params["words"] = params.pop("text")
        return active, params

    def find_papers(self, paper_filter: PaperFilter, offset: int, limit: int, *, count: bool = True) -> Page:
        active, params = self._filter_params(paper_filter)
        total = self._read(cypher.paper_filter_query(active, count=True), **params)[0]["n"] if count else None
        if (total is not None and total <= offset) or limit == 0:
            return Page([], total)
        records = self._read(cypher.paper_filter_query(active, order_by=paper_filter.order), offset=offset, limit=limit, **params)
        return Page([cypher.paper_of(r["p"]) for r in records], total)

    def paper_facets(self, paper_filter: PaperFilter) -> Facets:
        active, params = self._filter_params(paper_filter)
        years: dict[int, int] = defaultdict(int)
        venues: dict[str, int] = defaultdict(int)
        for r in self._read(cypher.paper_filter_query(active, facets=True), **params):
            if r["year"] is not None:
                years[r["year"]] += r["n"]
            if r["venue"]:
                venues[r["venue"]] += r["n"]
        return Facets(sorted(years.items()), sorted(venues.items(), key=lambda vc: (-vc[1], vc[0])))

    def find_authors(self, search: str | None, offset: int, limit: int) -> Page:
        needle = " ".join(search.lower().split()) if search else None
        total = self._read(cypher.FIND_AUTHORS_COUNT, needle=needle)[0]["n"]
        records = self._read(cypher.FIND_AUTHORS, needle=needle, offset=offset, limit=limit) if limit else []
        return Page([cypher.author_of(r) for r in records], total)

    def find_concepts(self, search: str | None, offset: int, limit: int) -> Page:
        needle = " ".join(search.lower().split()) if search else None
        total = self._read(cypher.FIND_CONCEPTS_COUNT, needle=needle)[0]["n"]
        records = self._read(cypher.FIND_CONCEPTS, needle=needle, offset=offset, limit=limit) if limit else []
        return Page([cypher.concept_of(r["c"]) for r in records], total)

    def top_areas(self) -> list[ResearchArea]:
        return [cypher.area_of(r["r"]) for r in self._read(cypher.TOP_AREAS)]

    def search(self, query: str, limit: int) -> list[tuple[str, float]]:
        # Lower case turns AND/OR/NOT into plain words; the rest of Lucene syntax is escaped.
        words = [_LUCENE_SPECIAL.sub(r"\\\1", w.lower()) for w in query.split()]
        if not words or limit == 0:
            return []
        return [(r["id"], round(r["score"], 4)) for r in self._read(cypher.SEARCH, query=" ".join(words), limit=limit)]

    def suggest(self, prefix: str, limit: int) -> list[Suggestion]:
        words = [_LUCENE_SPECIAL.sub(r"\\\1", w) for w in words_of(prefix)]
        if not words or limit == 0:
            return []
        query = " AND ".join(f"{w}*" for w in words)
        typed = " ".join(prefix.lower().split())
        rows = [
            Suggestion(r["kind"], r["key"], r["label"], r["papers"], r["exact"])
            for r in self._read(cypher.SUGGEST, query=query, candidates=SUGGEST_CANDIDATES, typed=typed, limit=limit)
        ]
        return rank_suggestions(rows, limit)

    def coauthor_network(self, key: str, depth: int, limit: int | None = None) -> Network:
        """Breadth-first, one query per level: the cost is bounded by depth. With ``limit``, only the
        kept authors' names and edges are fetched."""
        start = self.authors_by_keys([key])[0]
        if start is None:
            return Network([], [])
        levels, frontier = {key: 0}, [key]
        for level in range(1, depth + 1):
            if not frontier:
                break
            found = [r["key"] for r in self._read(cypher.NEIGHBOURS, keys=frontier)]
            frontier = sorted(set(found) - levels.keys())
            levels.update((k, level) for k in frontier)
        if limit is not None and len(levels) > limit:
            degrees = {r["key"]: r["degree"] for r in self._read(cypher.COAUTHOR_DEGREES, keys=sorted(levels))}
            keys = sorted(nearest_first(levels, degrees, limit))
        else:
            keys = sorted(levels)
        authors = {r["key"]: cypher.author_of(r) for r in self._read(cypher.AUTHORS_BY_KEYS, keys=keys)}
        edges = sorted((r["source"], r["target"], r["weight"]) for r in self._read(cypher.EDGES_AMONG, keys=keys))
        return Network([authors[k] for k in keys], edges, len(levels) if limit is not None else None)

    def collaboration_path(self, source: str, target: str) -> list[Author] | None:
        if source == target:
            found = self.authors_by_keys([source])[0]
            return [found] if found else None
        records = self._read(cypher.SHORTEST_PATH, source=source, target=target)
        return None if not records else [Author(k, n) for k, n in zip(records[0]["keys"], records[0]["names"], strict=True)]
