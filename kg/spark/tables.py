"""The chunks of a Spark ingest merged into node and relationship tables, the way the Neo4j
store's MERGE statements merge the same chunks one after the other (``kg.store.neo4j.writes``):
a node keeps what its first chunk gave it (concepts gain aliases), co-author and affiliation
counts add up. Then the tables go to Neo4j through the Neo4j Connector for Apache Spark, or to
Parquet.
"""

from __future__ import annotations

from typing import Any

from kg.spark.job import SparkRun
from kg.store.neo4j.writes import batch_rows

__all__ = ["TABLES", "graph_tables", "table_schema"]

# name -> (node label and key) or (relationship type, (source label, row column, node key), (target …))
NODES = {
    "papers": ("Paper", "id"),
    "authors": ("Author", "key"),
    "areas": ("ResearchArea", "path"),
    "concepts": ("Concept", "key"),
    "institutions": ("Institution", "key"),
    "author_id_nodes": ("AuthorId", "id"),
    "refs": ("Ref", "key"),
    "work_blocks": ("WorkBlock", "key"),
}
RELATIONSHIPS = {
    "subarea_of": ("SUBAREA_OF", ("ResearchArea", "child", "path"), ("ResearchArea", "parent", "path")),
    "broader": ("BROADER", ("Concept", "narrow", "key"), ("Concept", "broad", "key")),
    "authored": ("AUTHORED", ("Author", "author", "key"), ("Paper", "paper", "id")),
    "in_area": ("IN_AREA", ("Paper", "paper", "id"), ("ResearchArea", "area", "path")),
    "mentions": ("MENTIONS", ("Paper", "paper", "id"), ("Concept", "concept", "key")),
    "co_authored": ("CO_AUTHORED", ("Author", "a", "key"), ("Author", "b", "key")),
    "shares_concept": ("SHARES_CONCEPT", ("Paper", "p", "id"), ("Paper", "q", "id")),
    "affiliated_with": ("AFFILIATED_WITH", ("Author", "author", "key"), ("Institution", "institution", "key")),
    "identifies": ("IDENTIFIES", ("AuthorId", "id", "id"), ("Author", "key", "key")),
    "known_as": ("KNOWN_AS", ("Paper", "paper", "id"), ("Ref", "key", "key")),
    "cites": ("CITES", ("Paper", "paper", "id"), ("Ref", "key", "key")),
    "in_block": ("IN_BLOCK", ("Paper", "paper", "id"), ("WorkBlock", "key", "key")),
}
TABLES = tuple(NODES) + tuple(RELATIONSHIPS)

_FIRST_WINS = {"papers": "id", "authors": "key", "areas": "path", "institutions": "key", "refs": "key", "work_blocks": "key"}
_DISTINCT = ("subarea_of", "broader", "authored", "in_area", "mentions", "known_as", "cites", "in_block")
_ADDED = {"co_authored": ("a", "b"), "affiliated_with": ("author", "institution")}


def _ordered_rows(item):
    """((table, merge key), ((chunk, row number), row)) for every row of one chunk's batch. A paper's updates (a later
    chunk's source merged in) go with its row, as the Neo4j store's SET after its MERGE."""
    chunk, batch = item
    for table, rows in batch_rows(batch).items():
        for i, row in enumerate(rows):
            if table == "paper_updates":
                yield ("papers", row["id"]), ((chunk, i), {**row, "_update": True})
            elif table == "blocks":
                yield ("work_blocks", row["key"]), ((chunk, i), {"key": row["key"]})
                yield ("in_block", (row["paper"], row["key"])), ((chunk, i), row)
            elif table in _FIRST_WINS:
                yield (table, row[_FIRST_WINS[table]]), ((chunk, i), row)
            elif table == "concepts":
                yield (table, row["key"]), ((chunk, i), row)
            elif table in _ADDED:
                yield (table, tuple(row[k] for k in _ADDED[table])), ((chunk, i), row)
            elif table in _DISTINCT:
                yield (table, tuple(sorted(row.items()))), ((chunk, i), row)


def merge_concept(rows: list[tuple[tuple[int, int], dict]]) -> dict:
    """A concept as MERGE_CONCEPTS leaves it after its chunks, in order: the first name, aliases
    appended as they come, the first broader concept, and the alias text search reads."""
    rows = sorted(rows, key=lambda r: r[0])
    first = dict(rows[0][1])
    aliases = list(first["aliases"])
    broader = first["broader"]
    for _, row in rows[1:]:
        for alias in row["aliases"]:
            if alias not in aliases:
                aliases.append(alias)
        broader = broader if broader is not None else row["broader"]
    first.update(aliases=aliases, broader=broader, alias_text="".join(f" | {a}" for a in aliases))
    return first


def merge_paper(rows: list[tuple[tuple[int, int], dict]]) -> dict:
    """A paper as its chunks leave it: made by the first, then each later update (fields and sources) set in order."""
    rows = sorted(rows, key=lambda r: r[0])
    paper = dict(next(row for _, row in rows if not row.get("_update")))
    for _, row in rows:
        if row.get("_update"):
            paper.update({k: v for k, v in row.items() if k not in ("_update",)})
    return paper


def _merge(item):
    (table, _), rows = item
    rows = list(rows)
    if table == "concepts":
        return table, merge_concept(rows)
    if table == "papers":
        return table, merge_paper(rows)
    if table in _ADDED:
        row = dict(min(rows, key=lambda r: r[0])[1])
        row["inc"] = sum(r["inc"] for _, r in rows)
        return table, row
    return table, min(rows, key=lambda r: r[0])[1]


def graph_tables(run: SparkRun, sc) -> dict[str, Any]:
    """RDD of row dicts per table name (``TABLES``)."""
    merged = run.batches.flatMap(_ordered_rows).groupByKey().map(_merge).cache()
    tables = {name: merged.filter(lambda x, n=name: x[0] == n).map(lambda x: x[1]) for name in TABLES}
    ids = sorted(run.author_ids.items())
    tables["author_id_nodes"] = sc.parallelize([{"id": i} for i, _ in ids], 1)
    tables["identifies"] = sc.parallelize([{"id": i, "key": k} for i, k in ids], 1)
    tables["shares_concept"] = run.shared.map(
        lambda x: {"p": x[0][0], "q": x[0][1], "score": x[1][1][0], "concepts": list(x[1][1][1])}
    )
    return tables


def table_schema(name: str):
    """The Spark schema of one table (explicit: empty lists and nulls keep their types)."""
    from pyspark.sql import types as T

    s, d, i, b, strings = T.StringType(), T.DoubleType(), T.LongType(), T.BooleanType(), T.ArrayType(T.StringType())
    columns = {
        "papers": [
            ("id", s),
            ("title", s),
            ("label", s),
            ("abstract", s),
            ("venue", s),
            ("year", i),
            ("authors_truncated", b),
            ("concept_norm", d),
            ("citations", i),
            ("topic", s),
            ("sources", strings),
        ],
        "authors": [("key", s), ("name", s), ("block", s), ("profile", s)],
        "areas": [("path", s), ("name", s), ("parent", s), ("top", s)],
        "concepts": [("key", s), ("name", s), ("aliases", strings), ("broader", s), ("alias_text", s)],
        "institutions": [("key", s), ("name", s)],
        "author_id_nodes": [("id", s)],
        "subarea_of": [("child", s), ("parent", s)],
        "broader": [("narrow", s), ("broad", s)],
        "authored": [("author", s), ("paper", s), ("position", i), ("name", s), ("why", s), ("place", s), ("source_id", s)],
        "in_area": [("paper", s), ("area", s)],
        "mentions": [("paper", s), ("concept", s), ("weight", d), ("minor", b)],
        "co_authored": [("a", s), ("b", s), ("papers", i)],
        "shares_concept": [("p", s), ("q", s), ("score", d), ("concepts", strings)],
        "affiliated_with": [("author", s), ("institution", s), ("papers", i)],
        "identifies": [("id", s), ("key", s)],
        "refs": [("key", s)],
        "known_as": [("paper", s), ("key", s)],
        "cites": [("paper", s), ("key", s), ("n", i)],
        "work_blocks": [("key", s)],
        "in_block": [("paper", s), ("key", s)],
    }[name]
    return T.StructType([T.StructField(c, t, True) for c, t in columns])


def frames(spark, tables: dict[str, Any]) -> dict[str, Any]:
    """The tables as DataFrames (increments renamed to the property they set: ``papers``)."""
    out = {}
    for name in TABLES:
        schema = table_schema(name)
        cols = [f.name for f in schema.fields]
        rename = {"papers": "inc"} if name in _ADDED else {}
        rows = tables[name].map(lambda r, cols=cols, rename=rename: tuple(r.get(rename.get(c, c)) for c in cols))
        out[name] = spark.createDataFrame(rows, schema)
    return out
