"""Every page the server answers is the one shell around the page's own markup: the same head
(the page's words come later, so it starts hidden; only this server's style sheet and the
page's own module, no inline script for the CSP to block), and a bar titled for the page."""

from __future__ import annotations

import re
from collections.abc import Iterator
from html.parser import HTMLParser
from pathlib import Path

import pytest
from fastapi.testclient import TestClient

from pickomino.web import create_app
from pickomino.web.api.pages import PAGES


class Head(HTMLParser):
    """What a page's head loads and says, and its bar's title."""

    def __init__(self) -> None:
        super().__init__()
        self.html: dict[str, str | None] = {}
        self.title: dict[str, str | None] = {}
        self.styles: list[str | None] = []
        self.scripts: list[dict[str, str | None]] = []
        self.inline: list[str] = []
        self.bar_titles: list[dict[str, str | None]] = []
        self._in_head = False

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        found = dict(attrs)
        if tag == "html":
            self.html = found
        elif tag == "head":
            self._in_head = True
        elif tag == "title":
            self.title = found
        elif tag == "link" and found.get("rel") == "stylesheet":
            self.styles.append(found.get("href"))
        elif tag == "script":
            self.scripts.append(found)
        if tag == "style" or "style" in found or (tag == "script" and "src" not in found):
            self.inline.append(tag)
        if "title" in (found.get("class") or "").split() and not self._in_head:
            self.bar_titles.append(found)

    def handle_endtag(self, tag: str) -> None:
        if tag == "head":
            self._in_head = False


@pytest.fixture(scope="module")
def client(tmp_path_factory: pytest.TempPathFactory) -> Iterator[TestClient]:
    database = Path(tmp_path_factory.mktemp("pages")) / "games.sqlite3"
    with TestClient(create_app(database)) as client:
        yield client


#: Each page's bar title: its words, and the id its script fills it by (the game's names).
TITLES = {
    "lobby": ("lobby.tagline", None),
    "game": (None, "game-title"),
    "keeper": ("keeper.tagline", "keeper-title"),
    "rules": ("page.rules", None),
    "leaderboard": ("leaderboard.title", None),
    "profile": ("profile.page", None),
    "mine": ("mine.title", None),
    "analyse": ("analyse.title", None),
}


@pytest.mark.parametrize("page", PAGES, ids=lambda page: page.name)
def test_every_page_is_the_shell_around_its_own_module_and_bar(client: TestClient, page):
    for path in page.paths:
        answer = client.get(re.sub(r"\{\w+\}", "x7", path))  # the page reads the rest itself
        assert answer.status_code == 200, path
        assert answer.headers["content-type"] == "text/html; charset=utf-8", path
        head = Head()
        head.feed(answer.text)
        assert head.html == {"lang": "en", "class": "wordless"}, path
        assert head.title == {"data-i18n": "game.name"}, path
        assert head.styles == ["/static/style.css"], path
        assert head.scripts == [{"type": "module", "src": f"/static/{page.name}.js"}], path
        assert head.inline == [], path
        for url in ("/static/style.css", f"/static/{page.name}.js"):  # this server's: no CDN
            assert client.get(url).status_code == 200, url
        [title] = head.bar_titles
        words, filled = TITLES[page.name]
        assert title.get("data-i18n") == words and title.get("id") == filled, path
        assert title.get("data-testid") == filled, path
