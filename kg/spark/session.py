"""The Spark session kg's engine runs in, and where the Neo4j connector comes from."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

from kg.errors import KGError

__all__ = ["CONNECTOR", "connector_jar", "spark_session"]

# The Neo4j Connector for Apache Spark (Scala 2.12 build, as pyspark 3.5 is). 5.0.3 is the newest
# release Maven Central serves under this name; it writes to Neo4j 5 from Spark 3.5 (tests/spark).
# Its jar carries its dependencies, but its POM names a "_common" module Central does not have, so
# `--packages` cannot resolve it: the jar is fetched on its own and passed as `spark.jars`.
CONNECTOR = ("org.neo4j", "neo4j-connector-apache-spark_2.12", "5.0.3_for_spark_3")


def connector_jar(configured: Path | None = None) -> Path:
    """The connector jar: ``KG_SPARK_CONNECTOR_JAR``, else Maven's local repository, fetched there if missing."""
    if configured is not None:
        if not configured.is_file():
            raise KGError(f"KG_SPARK_CONNECTOR_JAR={configured}: no such file")
        return configured
    group, artifact, version = CONNECTOR
    jar = Path.home() / ".m2" / "repository" / Path(*group.split(".")) / artifact / version / f"{artifact}-{version}.jar"
    if not jar.is_file():
        mvn = shutil.which("mvn")
        if mvn is None:
            raise KGError(
                f"the Neo4j Spark connector is not in {jar.parent} and Maven is not installed to fetch it; "
                "install Maven or set KG_SPARK_CONNECTOR_JAR"
            )
        done = subprocess.run(
            [mvn, "-B", "-q", "dependency:get", f"-Dartifact={group}:{artifact}:{version}", "-Dtransitive=false"],
            capture_output=True,
            text=True,
        )
        if done.returncode != 0 or not jar.is_file():
            raise KGError(
                f"could not fetch the Neo4j Spark connector from Maven Central: {done.stdout[-500:]}{done.stderr[-500:]}"
            )
    return jar


def _under_spark_submit() -> bool:
    """spark-submit (or pyspark's shell) started this process: its master, memory and jars stand."""
    return bool(os.environ.get("SPARK_ENV_LOADED")) or "spark.master" in os.environ.get("PYSPARK_SUBMIT_ARGS", "")


def spark_session(
    master: str | None = None, *, connector: bool = True, connector_path: Path | None = None, driver_memory: str = "4g"
):
    """A session for the ingest: ``master`` (``local[*]`` when nothing else is configured), the
    connector jar (when writing to Neo4j), and this interpreter for the Python workers.

    Under ``spark-submit`` what was given there wins (``--master``, ``--jars``): the session
    it configured is used as it is.
    """
    from pyspark.sql import SparkSession

    builder = SparkSession.builder.appName("kg ingest")
    if _under_spark_submit():
        return builder.getOrCreate()
    os.environ.setdefault("PYSPARK_PYTHON", sys.executable)
    builder = (
        builder.master(master or "local[*]")
        .config("spark.driver.memory", driver_memory)
        .config("spark.ui.showConsoleProgress", "false")
        .config("spark.sql.shuffle.partitions", "8")
    )
    if connector:
        builder = builder.config("spark.jars", str(connector_jar(connector_path)))
    spark = builder.getOrCreate()
    spark.sparkContext.setLogLevel("ERROR")
    return spark
