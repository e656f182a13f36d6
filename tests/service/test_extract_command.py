"""`kg extract`: JSON lines in, concepts out, in order, exactly what `kg ingest` links."""

from __future__ import annotations

import json
import os
import subprocess
import sys

from kg.graph.build import merge_records
from kg.readers import read_path

from helpers import SAMPLES


def kg_extract(payload: str) -> subprocess.CompletedProcess:
    env = dict(os.environ, KG_WORKERS="1")
    return subprocess.run(
        [sys.executable, "-m", "kg.cli", "extract"], input=payload, capture_output=True, text=True, env=env, timeout=300
    )


def test_extract_matches_what_ingest_links(seeded_embedded):
    records = [r for f in sorted(SAMPLES.glob("*.txt")) for r in read_path(f)]
    merged = merge_records(records)
    payload = "".join(json.dumps({"id": m.id, "text": m.record.abstract}) + "\n" for m in merged)
    result = kg_extract(payload)
    assert result.returncode == 0, result.stderr
    rows = [json.loads(line) for line in result.stdout.splitlines()]
    assert [r["id"] for r in rows] == [m.id for m in merged]
    linked = seeded_embedded.store.concepts_of_papers([m.id for m in merged])
    for row, concepts in zip(rows, linked, strict=True):
        assert row["concepts"] == [c.name for c in concepts]
        assert row["concepts"]


def test_bad_line_names_the_line():
    result = kg_extract('{"id": 1, "text": "Fine."}\n{"id": 2}\n')
    assert result.returncode != 0 and "<stdin>:2" in result.stderr
