"""The pages' words live in the catalogues, not in the pages: the HTML holds no text of its
own, every message id the pages ask for has English words, and what the browser knows of the
game's rules agrees with the engine. (The pages as the server puts them together, and the
scripts' files: fast, no browser.)"""

from __future__ import annotations

import json
import re
from html.parser import HTMLParser
from pathlib import Path

import pytest

from pickomino.core.events import BUST_RULES
from pickomino.i18n import LANGUAGES, catalogue
from pickomino.web.api.pages import PAGES, Page

STATIC = Path(__file__).resolve().parents[2] / "src" / "pickomino" / "web" / "static"
#: Text an HTML page may hold: a close button's cross.
SYMBOLS = {"×"}


class PageText(HTMLParser):
    """The text of a page outside scripts and styles, the message ids it names, and whether
    it starts hidden (``<html class="wordless">``) and has inline scripts or styles."""

    def __init__(self) -> None:
        super().__init__()
        self.texts: list[str] = []
        self.ids: list[str] = []
        self.wordless = False
        self.inline: list[str] = []
        self._in: list[str] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        values = dict(attrs)
        self._in.append(tag)
        if tag == "html":
            self.wordless = "wordless" in (values.get("class") or "").split()
        if tag == "style" or "style" in values or (tag == "script" and "src" not in values):
            self.inline.append(tag)
        self.ids += [v for k, v in attrs if k in ("data-i18n", "data-i18n-label") and v]

    def handle_endtag(self, tag: str) -> None:
        if tag in self._in:
            del self._in[len(self._in) - 1 - self._in[::-1].index(tag) :]

    def handle_data(self, data: str) -> None:
        if data.strip() and not {"script", "style"} & set(self._in):
            self.texts.append(data.strip())


def english() -> dict:
    return {**catalogue("en", "game"), **catalogue("en", "web")}


def read_page(page: Page) -> PageText:
    parser = PageText()
    parser.feed(page.render())
    return parser


@pytest.mark.parametrize("shown", PAGES, ids=lambda shown: shown.name)  # /api/docs: Swagger's
def test_a_page_holds_no_words_of_its_own_and_starts_hidden(shown: Page) -> None:
    name, page = shown.name, read_page(shown)
    assert set(page.texts) <= SYMBOLS, f"{name} holds text: {page.texts}"
    assert page.wordless, f"{name} would show before its words are loaded"
    assert page.inline == [], f"{name} has inline {page.inline}: the CSP blocks them"
    missing = [key for key in page.ids if key not in english()]
    assert page.ids and not missing, f"{name} names messages with no words: {missing}"


def test_every_message_the_scripts_ask_for_has_english_words() -> None:
    """Every message id written in the scripts (as ``"family.name"``) is in a catalogue."""
    scripts = "\n".join(p.read_text(encoding="utf-8") for p in STATIC.glob("*.js"))
    families = {key.split(".")[0] for key in english() if "." in key}
    written = set(re.findall(r'"([a-z_]+(?:\.[A-Za-z0-9_]+)+)"', scripts))
    asked = {key for key in written if key.split(".")[0] in families}
    assert len(asked) > 150
    assert sorted(asked - set(english())) == []


def test_the_pages_know_the_rule_behind_each_bust_as_the_engine_does() -> None:
    text = (STATIC / "events.js").read_text(encoding="utf-8")
    found = re.search(r"BUST_RULES = (\{[^}]*\})", text)
    assert found
    pages = json.loads(re.sub(r"(\w+):", r'"\1":', found[1]))
    assert pages == BUST_RULES


@pytest.mark.parametrize("language", LANGUAGES)
def test_the_tab_title_marks_your_turn_in_every_language(language: str) -> None:
    """A tab among many says it is your turn by the same "●" before the title, in any
    language (a person scanning their tabs looks for the mark, not for words)."""
    title = catalogue(language, "web")["table.title_your_turn"]
    assert title.startswith("● ") and title.endswith("{title}"), title
