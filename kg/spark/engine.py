"""``kg ingest --engine spark``: the stages, their Parquet copies, and the write."""

from __future__ import annotations

import json
import time
from dataclasses import asdict, dataclass
from pathlib import Path

import kg.extract
from kg.config import Settings
from kg.errors import KGError
from kg.readers import expand_paths
from kg.spark.job import extract_candidates, run_stages
from kg.spark.stages import ChunkSettings

__all__ = ["SparkSummary", "ingest_spark", "summary_lines"]


@dataclass(frozen=True, slots=True)
class SparkSummary:
    records: int
    papers: int
    chunks: int
    tables: dict[str, int]
    seconds: float
    output: str
    resumed: bool = False


def _fingerprint(files: list[Path], settings: Settings) -> dict:
    """What a stage's Parquet copy was computed from: the files (size, time), the stage settings and
    the code and vocabulary that find candidates (a newer kg finds other ones; a retrained ranker
    ranks the same candidates, so it does not tag again)."""
    return {
        "files": [[str(f.resolve()), f.stat().st_size, f.stat().st_mtime_ns] for f in files],
        "settings": asdict(ChunkSettings.of(settings)),
        "extractor": kg.extract.digest(candidates_only=True),
    }


class _Candidates:
    """The candidates stage, written to ``DIR/candidates`` as Parquet and read back by a later
    run of the same files and settings instead of being computed again (spaCy is most of the cost)."""

    def __init__(self, spark, stages_dir: Path, fingerprint: dict, settings: Settings) -> None:
        self.spark, self.path, self.settings = spark, stages_dir / "candidates", settings
        marker = stages_dir / "run.json"
        self.resumed = (self.path / "_SUCCESS").exists() and marker.exists() and json.loads(marker.read_text()) == fingerprint
        if not self.resumed:
            stages_dir.mkdir(parents=True, exist_ok=True)
            marker.write_text(json.dumps(fingerprint))

    def __call__(self, first_listings):
        if self.resumed:
            rows = self.spark.read.parquet(str(self.path)).rdd
            return rows.map(lambda r: (r.paper, (json.loads(r.data), r.title_tokens)))
        found = extract_candidates(ChunkSettings.of(self.settings), first_listings).cache()
        plain = found.map(lambda x: (x[0], json.dumps(x[1][0]), x[1][1]))
        self.spark.createDataFrame(plain, "paper string, data string, title_tokens long").write.mode("overwrite").parquet(
            str(self.path)
        )
        return found


def _write_stages(spark, run, tables: dict, stages_dir: Path) -> None:
    """The read stage (each record as JSON, with its number and paper id) and every table, as Parquet."""
    papers = run.listed.context.broadcast(run.papers)
    listed = run.listed.map(lambda x: (x[0], papers.value[x[0]], json.dumps(asdict(x[1]), ensure_ascii=False)))
    spark.createDataFrame(listed, "number long, paper string, record string").write.mode("overwrite").parquet(
        str(stages_dir / "records")
    )
    for name, df in tables.items():
        df.write.mode("overwrite").parquet(str(stages_dir / "tables" / name))


def ingest_spark(
    paths,
    settings: Settings,
    *,
    master: str | None = None,
    output: str = "neo4j",
    stages_dir: str | Path | None = None,
    spark=None,
    partitions: int | None = None,
) -> SparkSummary:
    """Run the ingest on Spark and write the graph to Neo4j (a first load) or to Parquet tables.

    ``stages_dir`` keeps a Parquet copy of the candidates and of every table; a second run
    over the same files and settings reads the candidates back instead of tagging again.
    """
    from kg.spark.neo4j_out import prepare_empty_database, write_neo4j
    from kg.spark.session import spark_session
    from kg.spark.tables import frames, graph_tables

    started = time.perf_counter()
    files = expand_paths(paths)
    if output not in ("neo4j", "parquet"):
        raise KGError(f"unknown output {output!r}: neo4j or parquet")
    if output == "parquet" and stages_dir is None:
        raise KGError("--output parquet needs --stages DIR, the folder the tables are written to")
    if output == "neo4j":
        prepare_empty_database(settings)
    own = spark is None
    spark = spark or spark_session(master, connector=output == "neo4j", connector_path=settings.spark_connector_jar)
    try:
        stage = _Candidates(spark, Path(stages_dir), _fingerprint(files, settings), settings) if stages_dir else None
        run = run_stages(spark.sparkContext, files, settings, partitions=partitions, candidates=stage)
        tables = {name: df.cache() for name, df in frames(spark, graph_tables(run, spark.sparkContext)).items()}
        counts = {name: df.count() for name, df in tables.items()}
        if stages_dir:
            _write_stages(spark, run, tables, Path(stages_dir))
        if output == "neo4j":
            write_neo4j(tables, settings)
        return SparkSummary(
            run.records,
            counts["papers"],
            run.chunks,
            counts,
            time.perf_counter() - started,
            output,
            bool(stage and stage.resumed),
        )
    finally:
        if own:
            spark.stop()


def summary_lines(summary: SparkSummary) -> list[str]:
    t = summary.tables
    where = "Neo4j (through the Spark connector)" if summary.output == "neo4j" else "Parquet"
    return [
        f"read {summary.records} records in {summary.chunks} chunk(s) in {summary.seconds:.1f}s on Spark"
        + (" (candidates read back from the stages folder)" if summary.resumed else ""),
        f"wrote to {where}: {t['papers']} papers, {t['authors']} authors, {t['concepts']} concepts, {t['areas']} areas",
        f"co-author pairs {t['co_authored']}, shares-concept pairs {t['shares_concept']}",
    ]
