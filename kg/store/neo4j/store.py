"""The Neo4j store: the store interface answered with Cypher over Bolt."""

from __future__ import annotations

import logging
import os
import re
import secrets
import socket
import time
from collections import defaultdict
from collections.abc import Iterator, Sequence
from contextlib import contextmanager

import neo4j
from neo4j import GraphDatabase
from neo4j.exceptions import DriverError, Neo4jError, ServiceUnavailable, SessionExpired

from kg.config import Settings
from kg.errors import StoreError, StoreUnavailable
from kg.graph.build import GraphBatch, Posting, SharedEdge
from kg.models import (
    AREA_SEPARATOR,
    Author,
    Coauthor,
    Concept,
    Facets,
    Institution,
    Page,
    Paper,
    RelatedConcept,
    RelatedPaper,
    ResearchArea,
    Stats,
    Suggestion,
)
from kg.store.base import RELATED_CONCEPTS_SAMPLE, SUGGEST_CANDIDATES, Network, nearest_first, PaperFilter, Store, concept_lookup_terms, rank_suggestions
from kg.store.textsearch import words_of
from kg.store.neo4j import queries as q
from kg.store.neo4j.migrate import ensure_current
from kg.store.neo4j.server import pid_alive

__all__ = ["Neo4jStore"]

log = logging.getLogger(__name__)
_LUCENE_SPECIAL = re.compile(r'([+\-&|!(){}\[\]^"~*?:\\/])')


def _paper(d: dict) -> Paper:
    return Paper(d["id"], d.get("title"), d["label"], d["abstract"], d.get("venue"), d.get("year"),
                 bool(d.get("authors_truncated")), d.get("concept_norm") or 0.0, d.get("citations"))


def _concept(d: dict) -> Concept:
    return Concept(d["key"], d["name"], tuple(sorted(d.get("aliases") or ())), d.get("broader"))


def _area(d: dict) -> ResearchArea:
    return ResearchArea(d["path"], d["name"], d.get("parent"))


FAIL_FAST_SECONDS = 2.0
LEASE_SECONDS = 600  # an ingest renews its lease with every write
LOCK_POLL_SECONDS = 0.5


def _holder_is_dead(holder: str | None) -> bool:
    """Whether a lease holder ``host:pid:token`` was a process on this host that has ended."""
    if not holder:
        return False
    host, _, rest = holder.partition(":")
    pid = rest.partition(":")[0]
    return host == socket.gethostname() and pid.isdigit() and not pid_alive(int(pid))


def _chunks(rows: list, size: int):
    for i in range(0, len(rows), size):
        yield rows[i : i + size]


class Neo4jStore(Store):
    """A store in a Neo4j 5 database. The driver connects lazily; ``check()`` verifies."""

    kind = "neo4j"

    def __init__(self, driver: neo4j.Driver, *, database: str = "neo4j", batch_size: int = 1000) -> None:
        self.driver = driver
        self.database = database
        self.batch_size = batch_size
        self.queries_run = 0  # Cypher statements sent, for measurements
        self._unreachable_until = 0.0  # after a failed connection, reads fail fast until then
        self._lease: str | None = None  # the ingest lease this store holds, if any

    @classmethod
    def from_settings(cls, settings: Settings) -> "Neo4jStore":
        driver = GraphDatabase.driver(
            settings.neo4j_uri,
            auth=(settings.neo4j_username, settings.neo4j_password),
            connection_timeout=2,
            max_transaction_retry_time=2,
            notifications_min_severity="OFF",
        )
        return cls(driver, database=settings.neo4j_database, batch_size=settings.neo4j_batch_size)

    def close(self) -> None:
        self.driver.close()

    # -- running Cypher -------------------------------------------------------------------
    @contextmanager
    def _driver_errors(self, failed: str, *, nothing_written: bool = False, fail_fast: bool = True,
                       logged: str | None = None) -> Iterator[None]:
        """The one place driver errors become kg's: StoreUnavailable when Neo4j cannot be reached
        (reads then fail fast for a while), StoreError when it refused the work (logged when ``logged``)."""
        outcome = "; nothing was written" if nothing_written else ""
        try:
            yield
        except (ServiceUnavailable, SessionExpired, OSError) as exc:
            if fail_fast:
                self._unreachable_until = time.monotonic() + FAIL_FAST_SECONDS
            raise StoreUnavailable(f"Neo4j is unreachable{outcome}: {exc}") from exc
        except (Neo4jError, DriverError) as exc:
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
                return list(session.run(cypher, params))

    def check(self) -> None:
        with self._driver_errors("Neo4j refused the connection"):
            self.driver.verify_connectivity()
        self._unreachable_until = 0.0
        ensure_current(self.driver, self.database)

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
            row = self._write(q.TAKE_INGEST_LOCK, holder=holder, stale=stale, ttl_ms=LEASE_SECONDS * 1000)[0]
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
                self._write(q.RELEASE_INGEST_LOCK, holder=holder)
            except StoreError:
                log.warning("could not release the ingest lease; it expires in %d s", LEASE_SECONDS)

    def existing_papers(self, ids: Sequence[str]) -> set[str]:
        return {r["id"] for r in self._read(q.EXISTING_PAPERS, ids=list(ids))}

    def author_keys_of_ids(self, ids: Sequence[str]) -> dict[str, str]:
        return {r["id"]: r["key"] for r in self._read(q.AUTHOR_KEYS_OF_IDS, ids=list(ids))} if ids else {}

    def papers_with_concepts(self, keys: Sequence[str]) -> dict[str, list[Posting]]:
        return {r["key"]: sorted(tuple(x) for x in r["papers"]) for r in self._read(q.PAPERS_WITH_CONCEPTS, keys=list(keys))}

    def concept_postings(self) -> dict[str, list[str]]:
        return {r["id"]: list(r["keys"]) for r in self._read(q.CONCEPT_POSTINGS)}

    def shared_edges(self) -> dict[tuple[str, str], SharedEdge]:
        return {(r["p"], r["q"]): (r["score"], tuple(r["concepts"])) for r in self._read(q.ALL_SHARED)}

    @staticmethod
    def _rows(batch: GraphBatch) -> dict[str, list[dict]]:
        return {
            "papers": [
                {"id": p.id, "title": p.title, "label": p.label, "abstract": p.abstract, "venue": p.venue,
                 "year": p.year, "authors_truncated": p.authors_truncated, "concept_norm": p.concept_norm,
                 "citations": p.citations}
                for p in batch.papers
            ],
            "authors": [{"key": a.key, "name": a.name} for a in batch.authors],
            "areas": [{"path": a.path, "name": a.name, "parent": a.parent, "top": a.path.split(AREA_SEPARATOR)[0]} for a in batch.areas],
            "concepts": [{"key": c.key, "name": c.name, "aliases": list(c.aliases), "broader": c.broader} for c in batch.concepts],
            "subarea_of": [{"child": a.path, "parent": a.parent} for a in batch.areas if a.parent],
            "broader": [{"narrow": n, "broad": b} for n, b in batch.broader],
            "authored": [{"author": a, "paper": p, "position": pos} for a, p, pos in batch.authored],
            "in_area": [{"paper": p, "area": a} for p, a in batch.in_area],
            "mentions": [{"paper": p, "concept": c, "weight": w} for p, c, w in batch.mentions],
            "co_authored": [{"a": a, "b": b, "inc": n} for (a, b), n in sorted(batch.coauthor_increments.items())],
            "shares_concept": [{"p": p, "q": qq, "score": s, "concepts": list(c)} for (p, qq), (s, c) in sorted(batch.shared.items())],
            "institutions": [{"key": i.key, "name": i.name} for i in batch.institutions],
            "affiliated_with": [{"author": a, "institution": i, "inc": n} for (a, i), n in sorted(batch.affiliated.items())],
            "author_ids": [{"id": i, "key": k} for i, k in sorted(batch.author_ids.items())],
        }

    def apply(self, batch: GraphBatch) -> None:
        """One transaction, many batched UNWIND statements: all of it lands or none."""
        rows = self._rows(batch)
        if self._lease is not None and not self._write(q.RENEW_INGEST_LOCK, holder=self._lease, ttl_ms=LEASE_SECONDS * 1000)[0]["held"]:
            raise StoreError("this ingest lost its lease on the database (it expired); nothing more was written, run it again")
        # An explicit transaction, not a managed one: a retry would re-run every statement of a
        # large batch, and the co-author increments are not idempotent. A failure leaves nothing.
        with (self._driver_errors("Neo4j write failed", nothing_written=True, fail_fast=False, logged=""),
              self.driver.session(database=self.database) as session, session.begin_transaction() as tx):
            for name, query in q.WRITES:
                for chunk in _chunks(rows[name], self.batch_size):
                    self.queries_run += 1
                    tx.run(query, rows=chunk).consume()
            tx.commit()

    # -- reading ------------------------------------------------------------------------------
    def stats(self) -> Stats:
        r = self._read(q.STATS)[0]
        return Stats(r["papers"], r["authors"], r["concepts"], r["areas"], r["coauthors"], r["shared"])

    def resolve_concept(self, name: str) -> str | None:
        exact, names = concept_lookup_terms(name)
        found = {r["key"] for r in self._read(q.CONCEPTS_EXIST, keys=exact)}
        for key in exact:
            if key in found:
                return key
        records = self._read(q.RESOLVE_CONCEPT, names=names)
        return records[0]["key"] if records else None

    @staticmethod
    def _filter_params(flt: PaperFilter) -> tuple[list[str], dict]:
        params = {"author": flt.author, "concept": flt.concept, "area": flt.area.lower() if flt.area else None,
                  "text": flt.text.lower().split() if flt.text else None, "year_from": flt.year_from,
                  "year_to": flt.year_to, "venue": flt.venue}
        active = [name for name, value in params.items() if value is not None]
        params["words"] = params.pop("text")
        return active, params

    def find_papers(self, flt: PaperFilter, offset: int, limit: int) -> Page:
        active, params = self._filter_params(flt)
        total = self._read(q.paper_filter_query(active, count=True), **params)[0]["n"]
        if total <= offset or limit == 0:
            return Page([], total)
        records = self._read(q.paper_filter_query(active, order_by=flt.order), offset=offset, limit=limit, **params)
        return Page([_paper(r["p"]) for r in records], total)

    def paper_facets(self, flt: PaperFilter) -> Facets:
        active, params = self._filter_params(flt)
        years: dict[int, int] = defaultdict(int)
        venues: dict[str, int] = defaultdict(int)
        for r in self._read(q.paper_filter_query(active, facets=True), **params):
            if r["year"] is not None:
                years[r["year"]] += r["n"]
            if r["venue"]:
                venues[r["venue"]] += r["n"]
        return Facets(sorted(years.items()), sorted(venues.items(), key=lambda vc: (-vc[1], vc[0])))

    def find_authors(self, search: str | None, offset: int, limit: int) -> Page:
        needle = " ".join(search.lower().split()) if search else None
        total = self._read(q.FIND_AUTHORS_COUNT, needle=needle)[0]["n"]
        records = self._read(q.FIND_AUTHORS, needle=needle, offset=offset, limit=limit) if limit else []
        return Page([Author(r["key"], r["name"]) for r in records], total)

    def find_concepts(self, search: str | None, offset: int, limit: int) -> Page:
        needle = " ".join(search.lower().split()) if search else None
        total = self._read(q.FIND_CONCEPTS_COUNT, needle=needle)[0]["n"]
        records = self._read(q.FIND_CONCEPTS, needle=needle, offset=offset, limit=limit) if limit else []
        return Page([_concept(r["c"]) for r in records], total)

    def top_areas(self) -> list[ResearchArea]:
        return [_area(r["r"]) for r in self._read(q.TOP_AREAS)]

    def search(self, query: str, limit: int) -> list[tuple[str, float]]:
        # Lower case turns AND/OR/NOT into plain words; the rest of Lucene syntax is escaped.
        words = [_LUCENE_SPECIAL.sub(r"\\\1", w.lower()) for w in query.split()]
        if not words or limit == 0:
            return []
        return [(r["id"], round(r["score"], 4)) for r in self._read(q.SEARCH, query=" ".join(words), limit=limit)]

    def suggest(self, prefix: str, limit: int) -> list[Suggestion]:
        words = [_LUCENE_SPECIAL.sub(r"\\\1", w) for w in words_of(prefix)]
        if not words or limit == 0:
            return []
        query = " AND ".join(f"{w}*" for w in words)
        typed = " ".join(prefix.lower().split())
        rows = [Suggestion(r["kind"], r["key"], r["label"], r["papers"], r["exact"])
                for r in self._read(q.SUGGEST, query=query, candidates=SUGGEST_CANDIDATES, typed=typed)]
        return rank_suggestions(rows, limit)

    def coauthor_network(self, key: str, depth: int, limit: int | None = None) -> Network:
        """Breadth-first, one query per level: the cost is bounded by depth. With ``limit``, only the
        kept authors' names and edges are fetched."""
        start = self.authors_by_keys([key])[0]
        if start is None:
            return Network([], [])
        levels = {key: 0}
        frontier = [key]
        for level in range(1, depth + 1):
            if not frontier:
                break
            found = [r["key"] for r in self._read(q.NEIGHBOURS, keys=frontier)]
            frontier = sorted(set(found) - levels.keys())
            levels.update((k, level) for k in frontier)
        if limit is not None and len(levels) > limit:
            degrees = {r["key"]: r["degree"] for r in self._read(q.COAUTHOR_DEGREES, keys=sorted(levels))}
            keys = sorted(nearest_first(levels, degrees, limit))
        else:
            keys = sorted(levels)
        authors = {r["key"]: Author(r["key"], r["name"]) for r in self._read(q.AUTHORS_BY_KEYS, keys=keys)}
        edges = sorted((r["source"], r["target"], r["weight"]) for r in self._read(q.EDGES_AMONG, keys=keys))
        return Network([authors[k] for k in keys], edges, len(levels) if limit is not None else None)

    def collaboration_path(self, source: str, target: str) -> list[Author] | None:
        if source == target:
            found = self.authors_by_keys([source])[0]
            return [found] if found else None
        records = self._read(q.SHORTEST_PATH, source=source, target=target)
        if not records:
            return None
        return [Author(k, n) for k, n in zip(records[0]["keys"], records[0]["names"], strict=True)]

    # -- batched ---------------------------------------------------------------------------------
    def _by_key(self, query: str, param: str, keys: Sequence[str], make, key_of) -> list:
        found = {key_of(v): v for v in (make(r) for r in self._read(query, **{param: list(dict.fromkeys(keys))}))}
        return [found.get(k) for k in keys]

    def papers_by_ids(self, ids):
        return self._by_key(q.PAPERS_BY_IDS, "ids", ids, lambda r: _paper(r["p"]), lambda p: p.id)

    def authors_by_keys(self, keys):
        return self._by_key(q.AUTHORS_BY_KEYS, "keys", keys, lambda r: Author(r["key"], r["name"]), lambda a: a.key)

    def concepts_by_keys(self, keys):
        return self._by_key(q.CONCEPTS_BY_KEYS, "keys", keys, lambda r: _concept(r["c"]), lambda c: c.key)

    def areas_by_paths(self, paths):
        return self._by_key(q.AREAS_BY_PATHS, "paths", paths, lambda r: _area(r["r"]), lambda a: a.path)

    def _grouped(self, query: str, param: str, keys: Sequence[str], group: str, make) -> list[list]:
        out: dict[str, list] = defaultdict(list)
        for r in self._read(query, **{param: list(dict.fromkeys(keys))}):
            out[r[group]].append(make(r))
        return [list(out.get(k, [])) for k in keys]

    def authors_of_papers(self, ids):
        return self._grouped(q.AUTHORS_OF_PAPERS, "ids", ids, "id", lambda r: Author(r["key"], r["name"]))

    def areas_of_papers(self, ids):
        return self._grouped(q.AREAS_OF_PAPERS, "ids", ids, "id", lambda r: _area(r["r"]))

    def concepts_of_papers(self, ids):
        return self._grouped(q.CONCEPTS_OF_PAPERS, "ids", ids, "id", lambda r: _concept(r["c"]))

    def related_papers(self, ids, limit):
        rows = {r["id"]: r["rows"] for r in self._read(q.RELATED_PAPERS, ids=list(dict.fromkeys(ids)), limit=limit)}
        return [[RelatedPaper(x["id"], tuple(x["concepts"]), x["score"]) for x in rows.get(i, [])] for i in ids]

    def papers_of_authors(self, keys):
        return self._grouped(q.PAPERS_OF_AUTHORS, "keys", keys, "k", lambda r: _paper(r["p"]))

    def paper_counts_of_authors(self, keys):
        counts = {r["k"]: r["n"] for r in self._read(q.PAPER_COUNTS_OF_AUTHORS, keys=list(dict.fromkeys(keys)))}
        return [counts.get(k, 0) for k in keys]

    def coauthors_of(self, keys):
        return self._grouped(q.COAUTHORS_OF, "keys", keys, "k", lambda r: Coauthor(r["key"], r["papers"]))

    def paper_counts_of_concepts(self, keys):
        counts = {r["k"]: r["n"] for r in self._read(q.PAPER_COUNTS_OF_CONCEPTS, keys=list(dict.fromkeys(keys)))}
        return [counts.get(k, 0) for k in keys]

    def related_concepts(self, keys, limit):
        rows = {r["k"]: r["rows"] for r in self._read(q.RELATED_CONCEPTS, keys=list(dict.fromkeys(keys)), limit=limit,
                                                      sample=RELATED_CONCEPTS_SAMPLE)}
        return [[RelatedConcept(x["key"], x["n"]) for x in rows.get(k, [])] for k in keys]

    def children_of_areas(self, paths):
        return self._grouped(q.CHILDREN_OF_AREAS, "paths", paths, "k", lambda r: _area(r["r"]))

    def institutions_of_authors(self, keys):
        return self._grouped(q.INSTITUTIONS_OF_AUTHORS, "keys", keys, "k", lambda r: (Institution(r["key"], r["name"]), r["papers"]))

    def paper_counts_of_areas(self, paths):
        counts = {r["k"]: r["n"] for r in self._read(q.PAPER_COUNTS_OF_AREAS, paths=list(dict.fromkeys(paths)))}
        return [counts.get(p, 0) for p in paths]
