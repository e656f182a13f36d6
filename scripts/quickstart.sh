#!/usr/bin/env bash
# From a fresh clone, with only python3 (Debian 12 / Ubuntu 24.04's own is fine): a project-local
# virtual environment (.venv) with what serving needs, the sample listings ingested, and the API
# served at http://127.0.0.1:8000/ (the explorer; GraphQL at /graphql; extra arguments go to `kg serve`, e.g. --port 8001).
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/venv.sh
"$VENV_PY" -m pip install --quiet --disable-pip-version-check -e .
install_model
.venv/bin/kg ingest samples
exec .venv/bin/kg serve "$@"
