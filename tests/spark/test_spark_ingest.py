"""The Spark engine (issue 13): the same input gives the same graph as the single-machine ingest.

A real local Spark (pyspark, ``local[2]``) writes through the real Neo4j Connector for Apache
Spark into the test Neo4j. The input is the first 300 papers of ICLR 2024 plus the other formats
(a listing folder, BibTeX, OpenAlex and Semantic Scholar lines with source author ids and
affiliations), in chunks of 250 records, so that the chunked (streaming) rules are exercised too.
The whole of ICLR 2024 and the 95k corpus are ``bench/spark.py``'s.
"""

from __future__ import annotations

import json
import os

import pytest

from helpers import IN_CI, need_shared
from kg.config import Settings
from kg.errors import StoreError
from kg.service import KGService

pytestmark = [pytest.mark.neo4j, pytest.mark.slow]

HERE = os.path.dirname(__file__)
FORMATS = os.path.join(HERE, "..", "fixtures", "formats")
SAMPLES = os.path.join(HERE, "..", "..", "samples")
LIBRARY = os.path.join(HERE, "..", "fixtures", "library")
CHUNK = 250
ICLR_PAPERS = 300

DUMP_NODES = """
MATCH (n) WHERE NOT n:KgMigration AND NOT n:KgIngestLock
RETURN labels(n) AS labels, properties(n) AS props
"""
DUMP_RELATIONSHIPS = """
MATCH (a)-[r]->(b)
RETURN type(r) AS type, properties(r) AS props, labels(a)[0] AS a_label, coalesce(a.id, a.key, a.path) AS a,
       labels(b)[0] AS b_label, coalesce(b.id, b.key, b.path) AS b
"""


def _dump(driver) -> tuple[list, list]:
    """Every node and relationship with every property, in a comparable order."""
    with driver.session() as session:
        nodes = sorted(json.dumps([sorted(r["labels"]), r["props"]], sort_keys=True) for r in session.run(DUMP_NODES))
        rels = sorted(json.dumps(r.data(), sort_keys=True) for r in session.run(DUMP_RELATIONSHIPS))
    return nodes, rels


@pytest.fixture(scope="module")
def spark():
    try:
        import pyspark  # noqa: F401
    except ImportError:
        if IN_CI:
            pytest.fail("pyspark is not installed under CI (scripts/install.sh installs kg[spark])")
        pytest.skip("pyspark is not installed: pip install -e '.[spark]'")
    from kg.spark.session import spark_session

    session = spark_session("local[2]")
    yield session
    session.stop()


@pytest.fixture(scope="module")
def inputs(tmp_path_factory):
    iclr = tmp_path_factory.mktemp("spark") / "papers-iclr2024-head.jsonl"
    with open(need_shared("papers-iclr2024.jsonl"), encoding="utf-8") as handle:
        iclr.write_text("".join(line for _, line in zip(range(ICLR_PAPERS), handle)), encoding="utf-8")
    # German surnames written with and without their umlauts: two blocks, one person (a family of blocks); and given
    # names (Jürgen Sturm is Juergen Sturm; Michael is no Michal)
    names = ["Oliver Kroemer", "Oliver Krömer", "Alin Albu-Schäffer", "Alin Albu-Schaeffer", "Yiming Xu", "Yiming Xue"]
    names += ["Juergen Sturm", "Jürgen Sturm", "Jurgen Sturm", "Michael Moeller", "Michal Moeller"]
    twins = iclr.with_name("umlauts.jsonl")
    twins.write_text(
        "".join(
            json.dumps(
                {
                    "id": f"umlaut-{i:02d}",
                    "title": f"Torque-controlled grasping {i}",
                    "abstract": "We present a torque-controlled robot arm that learns grasping from tactile feedback.",
                    "authors": [name, "Jan Peters"],
                    "venue": "IROS 2015",
                    "year": 2015,
                }
            )
            + "\n"
            for i, name in enumerate(names)
        ),
        encoding="utf-8",
    )
    # the library fixture's arXiv feed first, its other exports last: records chunks apart that are one paper (sources,
    # merged fields, keys and references added to a paper an earlier chunk made)
    return [os.path.join(LIBRARY, "arxiv.atom"), str(iclr), SAMPLES, FORMATS, str(twins), LIBRARY]


def _settings(tmp_path, **extra) -> Settings:
    return Settings(
        NEO4J_URI=os.environ["KG_TEST_NEO4J_URI"], KG_DATA_DIR=tmp_path / "unused", KG_INGEST_CHUNK=CHUNK, KG_WORKERS=2, **extra
    )


def test_spark_ingest_gives_the_single_machine_graph(neo4j_driver, spark, inputs, tmp_path):
    from kg.spark.engine import ingest_spark
    from kg.store.neo4j.store import Neo4jStore
    from neo4j_support import wipe

    settings = _settings(tmp_path)
    wipe(neo4j_driver)
    with KGService(Neo4jStore.from_settings(settings), settings) as service:
        local = service.ingest(inputs)
    expected = _dump(neo4j_driver)

    wipe(neo4j_driver)
    summary = ingest_spark(inputs, settings, spark=spark)
    got = _dump(neo4j_driver)

    assert summary.records == local.records and summary.papers == local.papers_added
    assert summary.chunks == -(-local.records // CHUNK) > 1
    labels = {json.loads(n)[0][0] for n in got[0]}
    assert {"Paper", "Author", "Concept", "ResearchArea", "Institution", "AuthorId"} <= labels
    assert len(got[0]) == len(expected[0]) and len(got[1]) == len(expected[1])
    assert got[0] == expected[0]
    assert got[1] == expected[1]
    with neo4j_driver.session() as session:
        rows = session.run(
            "MATCH (a:Author)-[:AUTHORED]->(p:Paper) WHERE p.id STARTS WITH 'umlaut-' AND a.name <> 'Jan Peters' "
            "RETURN p.id AS paper, a.key AS key ORDER BY paper"
        ).data()
    keys = [r["key"] for r in rows]
    assert len(keys) == 11 and keys[0] == keys[1] and keys[2] == keys[3] and keys[4] != keys[5]
    assert keys[6] == keys[7] == keys[8] and keys[9] != keys[10]

    with pytest.raises(StoreError, match="first load into an empty database"):
        ingest_spark(inputs, settings, spark=spark)


def test_parquet_stages_are_written_and_resumed(spark, tmp_path, monkeypatch):
    from kg.readers import expand_paths
    import kg.extract
    from kg.spark.engine import _Candidates, _fingerprint, ingest_spark

    settings = Settings(KG_DATA_DIR=tmp_path / "unused", KG_INGEST_CHUNK=60)
    stages = tmp_path / "stages"
    first = ingest_spark([FORMATS, SAMPLES], settings, output="parquet", stages_dir=stages, spark=spark)
    assert not first.resumed and first.tables["papers"] == first.papers > 0
    papers = spark.read.parquet(str(stages / "tables" / "papers"))
    assert papers.count() == first.papers and "concept_norm" in papers.columns
    assert spark.read.parquet(str(stages / "candidates")).count() == first.papers
    assert spark.read.parquet(str(stages / "records")).count() == first.records

    again = ingest_spark([FORMATS, SAMPLES], settings, output="parquet", stages_dir=stages, spark=spark)
    assert again.resumed and again.tables == first.tables

    # Other stage settings would not read these candidates back (decided before any Spark work).
    files = expand_paths([FORMATS, SAMPLES])
    assert _Candidates(spark, stages, _fingerprint(files, settings), settings).resumed
    changed = Settings(KG_DATA_DIR=tmp_path / "unused", KG_INGEST_CHUNK=60, KG_CONCEPTS_PER_PAPER=5)
    assert not _Candidates(spark, stages, _fingerprint(files, changed), changed).resumed
    assert _Candidates(spark, stages, _fingerprint(files, changed), changed).resumed  # the marker now holds these
    # ...nor would a kg whose extraction code or data differ (an upgrade between two runs).
    monkeypatch.setattr(kg.extract, "digest", lambda candidates_only=False: "another kg")
    assert not _Candidates(spark, stages, _fingerprint(files, changed), changed).resumed


def test_a_bad_line_fails_before_anything_is_written(neo4j_driver, spark, tmp_path):
    from kg.errors import ReaderError
    from kg.spark.engine import ingest_spark
    from neo4j_support import wipe

    wipe(neo4j_driver)
    bad = tmp_path / "bad.jsonl"
    bad.write_text('{"title": "A", "abstract": "Fine.", "authors": ["Ann Lee"]}\n\n{"title": 5}\n', encoding="utf-8")
    with pytest.raises(ReaderError, match=r"bad\.jsonl:3"):
        ingest_spark([bad], _settings(tmp_path), spark=spark)
    with neo4j_driver.session() as session:
        assert session.run("MATCH (p:Paper) RETURN count(p) AS n").single()["n"] == 0
