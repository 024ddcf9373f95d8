"""The words of the browser's pages, for the browser to choose from: the list of languages,
each language's catalogues (``game``: events, refusals, rankings; ``web``: the pages) and its
rules as HTML. The server never translates: it sends events and message ids, and every page
words them in its reader's language from these files.

- ``GET /i18n/languages.json`` → ``{"en": "English", "de": "Deutsch", …}``
- ``GET /i18n/{language}/game.json`` and ``…/web.json`` → the catalogue as stored
- ``GET /i18n/{language}/rules.html`` → the rules, with an anchor per rule id (``#R7``)
"""

from __future__ import annotations

from functools import cache
from typing import Literal

from fastapi import APIRouter
from fastapi.responses import HTMLResponse, JSONResponse
from markdown_it import MarkdownIt

from pickomino.i18n import LANGUAGES, catalogue, rules_text
from pickomino.web.db.ids import shown_id
from pickomino.web.errors import refused

#: Long-lived: the files change only with a new version of the program.
CACHED = {"Cache-Control": "public, max-age=3600"}


@cache
def rules_html(language: str) -> str:
    """The rules as HTML. Our own text, so its HTML (the rule anchors) is kept."""
    return MarkdownIt("commonmark", {"html": True}).enable("table").render(rules_text(language))


def words_router() -> APIRouter:
    router = APIRouter(prefix="/i18n", include_in_schema=False)

    def known(language: str) -> str:
        if language not in LANGUAGES:
            raise refused(404, "no_language", language=shown_id(language, 8))
        return language

    @router.get("/languages.json")
    async def languages() -> JSONResponse:
        return JSONResponse(LANGUAGES, headers=CACHED)

    @router.get("/{language}/rules.html")
    async def rules(language: str) -> HTMLResponse:
        return HTMLResponse(rules_html(known(language)), headers=CACHED)

    @router.get("/{language}/{kind}.json")
    async def words(language: str, kind: Literal["game", "web"]) -> JSONResponse:
        return JSONResponse(catalogue(known(language), kind), headers=CACHED)

    return router
