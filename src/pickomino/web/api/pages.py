"""The pages: HTML that holds no words (the page's script puts them in, in its reader's
language) and no inline script (the Content-Security-Policy forbids it); an ES module does
the rest, reading a path's parameters itself.

Every page is one shell (``pages/shell.html``: the head, which loads the page's module
``/static/{name}.js``, and the body's class ``{name}-page``) around a bar and the page's own
markup (``pages/{name}.html``). Most bars are alike: the brand, a title, a few links and the
language switch (``pages/bar.html``, made from the page's :class:`Bar`); the game's and the
score keeper's are their own (their controls, a title their script fills with the players'
names), written out in their markup. A page's markup may place the parts pages share:
``$notice``, the notice its script shows refusals in (``pages/notice.html``), and ``$log``,
the table's log (``pages/log.html``: the game's and the score keeper's).

Each page is put together once, when the app is made, and answers GET and HEAD (a link
checker, a monitor).
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from importlib.resources import files
from pathlib import Path
from string import Template

from fastapi import APIRouter
from fastapi.responses import HTMLResponse

PARTS = Path(str(files("pickomino.web") / "pages"))
#: The links a bar may show, by name (its test id is ``{name}-link``): address and words.
LINKS = {
    "lobby": ("/", "rulespage.lobby"),
    "keeper": ("/keeper", "lobby.keeper_link"),
    "mine": ("/mine", "page.mine"),
    "leaderboard": ("/leaderboard", "page.leaderboard"),
    "rules": ("/rules", "page.rules"),
    "analyse": ("/analyse", "analyse.title"),
}
#: The parts a page's markup may place (``$notice``, ``$log``).
SHARED_PARTS = ("notice", "log")
#: The links that open in a tab of their own (the rules, read beside a game).
NEW_TAB = frozenset({"rules"})


@dataclass(frozen=True)
class Bar:
    """A page's bar: its title (a message id) and the links it shows (:data:`LINKS`' names).
    The title is the page's heading (``h1``) unless the page has one of its own."""

    title: str
    links: tuple[str, ...]
    heading: bool = True

    def render(self) -> str:
        links = "\n      ".join(map(_link, self.links))
        tag = "h1" if self.heading else "span"
        return _part("bar").substitute(title=self.title, links=links, tag=tag)


@dataclass(frozen=True)
class Page:
    """A page by its name (its markup, module and body class), the addresses it answers, and
    its bar (``None``: its markup has a bar of its own) and the id of its ``main``, which the
    page's first link skips to, past the bar's controls (WCAG 2.4.1)."""

    name: str
    paths: tuple[str, ...]
    bar: Bar | None
    main: str = "main"

    def render(self) -> str:
        shared = {part: _part(part).template.rstrip() for part in SHARED_PARTS}
        body = _part(self.name).substitute(shared)
        bar = self.bar.render() if self.bar else ""
        return _part("shell").substitute(name=self.name, bar=bar, body=body, main=self.main)


#: The bar's links on the pages about players: the leaderboard, a profile, "My games".
PLAYERS_LINKS = ("lobby", "leaderboard", "rules")
PAGES = (
    Page(
        "lobby", ("/",), Bar("lobby.tagline", ("rules", "keeper", "mine", "leaderboard", "analyse"))
    ),
    Page("game", ("/games/{game_id}",), None, main="game"),
    Page("keeper", ("/keeper", "/keeper/{sheet_id}"), None),
    Page("rules", ("/rules",), Bar("page.rules", ("lobby", "keeper"), heading=False)),
    Page("leaderboard", ("/leaderboard",), Bar("leaderboard.title", PLAYERS_LINKS)),
    Page("profile", ("/profiles/{player}",), Bar("profile.page", PLAYERS_LINKS)),
    Page("mine", ("/mine",), Bar("mine.title", PLAYERS_LINKS)),
    Page("analyse", ("/analyse",), Bar("analyse.title", ("lobby", "rules"))),
)


def pages_router() -> APIRouter:
    router = APIRouter(include_in_schema=False)
    for page in PAGES:
        html = page.render().encode()
        for path in page.paths:
            router.add_api_route(path, _answer(html), methods=["GET", "HEAD"])
    return router


def _answer(html: bytes) -> Callable[[], Awaitable[HTMLResponse]]:
    async def page() -> HTMLResponse:
        return HTMLResponse(html)

    return page


def _link(name: str) -> str:
    address, words = LINKS[name]
    tab = ' target="_blank" rel="noopener"' if name in NEW_TAB else ""
    return (
        f'<a class="bar-link" href="{address}"{tab} data-testid="{name}-link"'
        f' data-i18n="{words}"></a>'
    )


def _part(name: str) -> Template:
    return Template((PARTS / f"{name}.html").read_text(encoding="utf-8"))
