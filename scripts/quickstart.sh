#!/usr/bin/env bash
# From a fresh clone: install, ingest the sample listings, serve GraphQL at http://127.0.0.1:8000/graphql
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/install.sh
python3 -m kg.cli ingest samples
exec python3 -m kg.cli serve "$@"
