"""The API's documentation page, ``/api/docs``, working with no internet and under a strict
Content-Security-Policy (no inline script): Swagger UI's script and style are served from
the ``fastapi-offline`` package, which ships the files FastAPI's own page loads from a CDN,
and our page starts Swagger UI from a script file of its own instead of an inline one."""

from __future__ import annotations

from importlib.resources import files
from pathlib import Path

from fastapi import FastAPI
from fastapi.responses import FileResponse
from fastapi.staticfiles import StaticFiles

#: Swagger UI's files (swagger-ui-bundle.js, swagger-ui.css), as the package ships them.
SWAGGER_UI = Path(str(files("fastapi_offline") / "static"))
DOCS_URL = "/api/docs"


def add_api_docs(app: FastAPI, page: Path) -> None:
    """Serve ``page`` (the docs' HTML) at ``/api/docs`` and Swagger UI's files under it;
    the app must be made with ``docs_url=None`` (FastAPI's page loads them from a CDN)."""
    app.mount(f"{DOCS_URL}/assets", StaticFiles(directory=SWAGGER_UI), name="api-docs")

    @app.get(DOCS_URL, include_in_schema=False)
    async def api_docs() -> FileResponse:
        return FileResponse(page)
