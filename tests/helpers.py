"""Paths and small helpers shared by tests (importable as `helpers`)."""

from __future__ import annotations

import os
import socket
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
SAMPLES = ROOT / "samples"
SHARED_DATA = ROOT.parent / "shared" / "data"
IN_CI = os.environ.get("CI", "").lower() in {"1", "true", "yes"}


def need_shared(name: str) -> Path:
    """A file of ../shared/data; under CI a missing file fails, elsewhere it skips."""
    path = SHARED_DATA / name
    if not path.exists():
        if IN_CI:
            pytest.fail(f"{path} is missing under CI")
        pytest.skip(f"{path} is not here (a clone without ../shared)")
    return path


def free_port() -> int:
    """A loopback port nobody listens on right now."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]
