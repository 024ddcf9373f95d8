"""The pages: HTML that holds no words (the page's script puts them in, in its reader's
language) and no inline script (the Content-Security-Policy forbids it); an ES module does
the rest, reading a path's parameters itself. Each answers GET and HEAD (a link checker, a
monitor)."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from pathlib import Path

from fastapi import APIRouter
from fastapi.responses import FileResponse

#: The pages by path.
PAGES = {
    "/": "index.html",
    "/games/{game_id}": "game.html",
    "/keeper": "keeper.html",
    "/keeper/{sheet_id}": "keeper.html",
    "/rules": "rules.html",
    "/leaderboard": "leaderboard.html",
    "/profiles/{player}": "profile.html",
    "/mine": "mine.html",
}


def pages_router(static: Path) -> APIRouter:
    """The pages, from their files in ``static``."""
    router = APIRouter(include_in_schema=False)
    for path, file in PAGES.items():
        router.add_api_route(path, _page(static / file), methods=["GET", "HEAD"])
    return router


def _page(file: Path) -> Callable[[], Awaitable[FileResponse]]:
    async def page() -> FileResponse:
        return FileResponse(file)

    return page
