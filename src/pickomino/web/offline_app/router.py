"""``/app/``: the offline app served by ``pickomino serve``, made once when the server starts."""

from __future__ import annotations

import mimetypes
from pathlib import Path

from fastapi import APIRouter
from fastapi.responses import FileResponse, RedirectResponse, Response

from pickomino.web.errors import refused
from pickomino.web.offline_app.build import app_files

mimetypes.add_type("text/javascript", ".mjs")  # Pyodide's modules (Python 3.11 knows no .mjs)
mimetypes.add_type("application/manifest+json", ".webmanifest")


def offline_app_router(runtime: Path) -> APIRouter:
    """The app's files at ``/app/`` (its addresses are relative: ``/app`` sends there)."""
    made = app_files(runtime)
    router = APIRouter(include_in_schema=False)

    @router.get("/app")
    async def app_root() -> RedirectResponse:
        return RedirectResponse("/app/")  # the app's addresses are relative to its folder

    @router.api_route("/app/{path:path}", methods=["GET", "HEAD"])
    async def app_file(path: str) -> Response:
        content = made.get(path or "index.html")
        if content is None:
            raise refused(404, "no_app_file")
        kind = mimetypes.guess_type(path or "index.html")[0] or "application/octet-stream"
        if isinstance(content, Path):
            return FileResponse(content, media_type=kind)
        return Response(content, media_type=kind)

    return router
