"""The documentation's pictures of the explorer, made from the quick start's own data.

    .venv/bin/python scripts/screenshots.py [OUT_DIR]     # default: docs/

Ingests ``samples/`` (what ``scripts/quickstart.sh`` ingests) into a fresh embedded store, serves it
with ``kg serve``, and photographs each page in headless Chromium (Debian's, through Playwright, as
the explorer tests do): the first page (the field map), a concept, an author and a paper. What each
picture shows (nodes and edges drawn, labels) goes to ``screenshots.json`` beside them, which
``tests/api/test_explorer.py`` checks against the same pages, so the README's picture is one a
newcomer's first run reproduces.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path
from urllib.parse import quote

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tests"))

# page name -> how to find its path from the API's answers (the first of each kind the API lists)
PAGES = {"home": None, "concept": "concepts", "author": "authors", "paper": "papers"}


def page_paths(base: str) -> dict[str, str]:
    import httpx

    query = "{ concepts(first: 1) { edges { node { id } } } authors(first: 1) { edges { node { id } } } papers(first: 1) { edges { node { id } } } }"
    data = httpx.post(f"{base}/graphql", json={"query": query}, timeout=60).json()["data"]
    return {
        name: "/" if kind is None else f"/{name}/{quote(data[kind]['edges'][0]['node']['id'])}" for name, kind in PAGES.items()
    }


def shoot(base: str, out: Path) -> dict:
    from playwright.sync_api import sync_playwright

    chromium = os.environ.get("KG_CHROMIUM") or shutil.which("chromium") or shutil.which("chromium-browser")
    shown = {}
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=chromium, args=["--no-sandbox", "--disable-dev-shm-usage"])
        page = browser.new_page(viewport={"width": 1280, "height": 800})
        for name, path in page_paths(base).items():
            page.goto(base + path)
            page.wait_for_selector("body[data-ready='1']", state="attached", timeout=60_000)  # no eval: the page's CSP forbids it
            page.screenshot(path=str(out / f"explorer-{name}.png"))
            shown[name] = {
                "path": path,
                **page.evaluate(
                    "({ nodes: kgExplorer.graph.order, edges: kgExplorer.graph.size, labels: [...kgExplorer.labelled].sort() })"
                ),
            }
        browser.close()
    return shown


def main() -> None:
    from helpers import kg_serving

    out = Path(sys.argv[1]) if len(sys.argv) > 1 else ROOT / "docs"
    out.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory() as tmp:
        env = dict(os.environ, KG_DATA_DIR=str(Path(tmp) / "kg-data"))
        env.pop("NEO4J_URI", None)
        subprocess.run([sys.executable, "-m", "kg.cli", "ingest", str(ROOT / "samples")], env=env, check=True)
        with kg_serving({"KG_DATA_DIR": env["KG_DATA_DIR"]}) as base:
            shown = shoot(base, out)
    (out / "screenshots.json").write_text(json.dumps(shown, indent=1) + "\n")
    print(f"wrote {', '.join(f'explorer-{n}.png' for n in shown)} and screenshots.json into {out}")


if __name__ == "__main__":
    main()
