"""What ships in kg/api/static is exactly what `npm run build --prefix explorer` makes from the sources."""

from __future__ import annotations

import shutil
import subprocess

import pytest

from helpers import IN_CI, ROOT

STATIC = ROOT / "kg" / "api" / "static"


def test_the_shipped_explorer_is_the_build_of_its_sources(tmp_path):
    if not (ROOT / "explorer" / "node_modules").is_dir() or shutil.which("node") is None:
        message = "explorer's npm packages are not installed: npm ci --prefix explorer"
        if IN_CI:
            pytest.fail(message)
        pytest.skip(message)
    subprocess.run(["node", str(ROOT / "explorer" / "build.mjs"), str(tmp_path)], check=True, capture_output=True)
    built = sorted(p.relative_to(tmp_path) for p in tmp_path.rglob("*") if p.is_file())
    shipped = sorted(p.relative_to(STATIC) for p in STATIC.rglob("*") if p.is_file())
    assert built == shipped, "kg/api/static differs from the build: run `npm run build --prefix explorer` and commit"
    for rel in built:
        assert (tmp_path / rel).read_bytes() == (STATIC / rel).read_bytes(), f"{rel} differs from its build"


def test_graphiql_loads_nothing_from_a_cdn():
    from fastapi.testclient import TestClient

    from kg.api.app import create_app
    from kg.config import Settings
    from kg.service import KGService
    from kg.store.embedded import EmbeddedStore

    settings = Settings(KG_DATA_DIR=ROOT / "no-such-store")
    with TestClient(create_app(KGService(EmbeddedStore(settings.data_dir), settings))) as client:
        page = client.get("/graphql", headers={"accept": "text/html"}).text
        assert "unpkg.com" not in page and "/static/vendor/graphiql@3.8.3/graphiql.min.js" in page
        for url in (
            "/static/vendor/graphiql@3.8.3/graphiql.min.js",
            "/static/vendor/react@18.2.0/umd/react.production.min.js",
            "/",
            "/author/x",
            "/concept/y",
        ):
            assert client.get(url).status_code == 200, url
