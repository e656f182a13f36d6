"""``spark-submit … kg/spark_submit.py FILE…``: the Spark ingest under a cluster's own spark-submit."""

import sys

from kg.cli import main

if __name__ == "__main__":
    main(["ingest", "--engine", "spark", *sys.argv[1:]])
