"""The ingest on Apache Spark (``kg ingest --engine spark``; ``pip install kg[spark]``).

Same stages and rules as the single-machine ingest, so the same input gives the same graph:
``job`` runs the stages as RDD jobs over the functions in ``stages``, ``tables`` merges the
chunks into node and relationship tables, ``neo4j_out`` writes them through the Neo4j
Connector for Apache Spark, ``engine`` ties it together (with Parquet copies of the stages).
Nothing here is imported by the single-machine path: it needs no Java and no pyspark.
"""
