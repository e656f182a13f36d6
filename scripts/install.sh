#!/usr/bin/env bash
# Everything the tests need, in the project's own virtual environment (.venv): kg (editable) with
# its dev and spark extras and the spaCy English pipeline (hash-checked). PYTHON picks the interpreter that
# creates .venv (default: python3; Debian/Ubuntu's own works, see README).
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/venv.sh
install_model  # first, hash-checked: kg's own dependency on it is then met
"$VENV_PY" -m pip install --quiet --disable-pip-version-check -e ".[dev,spark]"
