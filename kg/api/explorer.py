"""The explorer: a single page at / (and at every view's own URL), served from ``kg/api/static``.

The page is a client of the public GraphQL API. Its files are built from
``explorer/`` with npm (``npm ci --prefix explorer && npm run build --prefix explorer``)
and ship in the package, so running it needs only Python.
"""

from __future__ import annotations

from pathlib import Path

from fastapi import FastAPI
from fastapi.responses import FileResponse
from fastapi.staticfiles import StaticFiles

__all__ = ["STATIC", "VIEWS", "add_explorer"]

STATIC = Path(__file__).resolve().parent / "static"
VIEWS = ("author", "paper", "concept")  # /author/<id>, /paper/<id>, /concept/<id>: deep links the page routes itself


def add_explorer(app: FastAPI) -> None:
    """Mount the built files at /static and answer / and each view's URL with the page."""
    app.mount("/static", StaticFiles(directory=STATIC), name="static")
    page = STATIC / "explorer" / "index.html"

    async def explorer_page() -> FileResponse:
        return FileResponse(page, media_type="text/html")

    app.add_api_route("/", explorer_page, methods=["GET"], include_in_schema=False)
    for view in VIEWS:
        app.add_api_route(f"/{view}/{{rest:path}}", explorer_page, methods=["GET"], include_in_schema=False)
