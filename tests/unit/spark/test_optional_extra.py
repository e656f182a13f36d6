"""The Spark engine is an optional extra: the single-machine path never imports pyspark, and
`kg ingest --engine spark` without it says how to install it."""

from __future__ import annotations

import subprocess
import sys

from helpers import SAMPLES

NO_PYSPARK = "import sys; sys.modules['pyspark'] = None\n"


def test_the_single_machine_path_imports_no_pyspark():
    code = (
        "import sys, kg.cli, kg.service, kg.ingest, kg.spark.stages, kg.spark.tables\n"
        "assert not any(m == 'pyspark' or m.startswith('pyspark.') for m in sys.modules), 'pyspark was imported'\n"
    )
    subprocess.run([sys.executable, "-c", code], check=True)


def test_the_spark_engine_without_pyspark_says_how_to_install_it(tmp_path):
    code = NO_PYSPARK + "from kg.cli import main\nmain(['ingest', '--engine', 'spark', sys.argv[1]])\n"
    done = subprocess.run([sys.executable, "-c", code, str(SAMPLES)], capture_output=True, text=True, cwd=tmp_path)
    assert done.returncode != 0
    assert "pip install 'kg[spark]'" in done.stderr
