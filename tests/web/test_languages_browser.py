"""The web pages in the reader's language, in a real browser against a real server: the
browser's languages choose it the first time, the switch on every page changes it and is
remembered, an unknown language is English; whole games (and a score sheet) in Finnish and
German show no English word; a refusal's rule badge opens that rule in the same language.

"No English word" is checked against the catalogues themselves: every word of the English
``game.json`` and ``web.json`` that the other language's catalogues do not use too must not
be seen on the page (its text, its accessible names and its title), nor any message id.
"""

from __future__ import annotations

import json
import re
from functools import cache
from importlib.resources import files

import pytest
from playwright.sync_api import Page, WebSocketRoute, expect

from .browser import PHONE, Pages, no_horizontal_scroll
from .clicking import create_game, grill_tile, play_until_over, tap
from .server_process import ServerProcess

pytestmark = pytest.mark.slow


@pytest.fixture(scope="module")
def server(shared_server: ServerProcess) -> ServerProcess:
    """One server for the module's tests but the whole games (``instant_bots``): each opens
    games and sheets of its own and none reads the lobby's list, so they can share it."""
    return shared_server


I18N = files("pickomino.i18n")
#: Names the tests type: people's words, in no catalogue.
NAMES = {"ann", "bob", "cyd", "robo"}
WORD = re.compile(r"[^\W\d_]{3,}")  # letters only; shorter ones say little
PLACEHOLDER = re.compile(r"\{\w+\}")
# Everything a reader meets besides the text: accessible names, tooltips, placeholders.
LABELS = """() => [...document.querySelectorAll("[aria-label], [title], [placeholder]")]
    .flatMap((node) => ["aria-label", "title", "placeholder"].map((a) => node.getAttribute(a)))
    .concat(document.title)
    .filter(Boolean)
    .join("\\n")"""


def catalogues(language: str) -> dict:
    messages: dict = {}
    for kind in ("game", "web"):
        path = I18N / language / f"{kind}.json"
        if path.is_file():
            messages.update(json.loads(path.read_text(encoding="utf-8")))
    return messages


def words_of(messages: dict) -> set[str]:
    texts = [t for v in messages.values() for t in (v.values() if isinstance(v, dict) else [v])]
    return {word.lower() for text in texts for word in WORD.findall(PLACEHOLDER.sub(" ", text))}


@cache
def english_words(language: str) -> frozenset[str]:
    """The English words that must not show in ``language``: those the language's own
    catalogues do not use as well (a game's name, a loanword)."""
    return frozenset(words_of(catalogues("en")) - words_of(catalogues(language)) - NAMES)


def message_ids() -> set[str]:
    return {key for key in catalogues("en") if "." in key}


def assert_no_english(page: Page, language: str, where: str) -> None:
    """The page speaks ``language``: no English word in sight, and no message id."""
    expect(page.locator("html")).to_have_attribute("lang", language)
    expect(page.locator("html")).not_to_have_class(re.compile("wordless"))
    text = page.inner_text("body") + "\n" + page.evaluate(LABELS)
    english = sorted({w.lower() for w in WORD.findall(text)} & english_words(language))
    assert not english, f"{where}: English words in {language}: {english}\n{text}"
    ids = sorted(key for key in message_ids() if key in text)
    assert not ids, f"{where}: message ids instead of words: {ids}"


LOCALES = [("fi", "fi-FI"), ("de", "de-DE")]


def game_name(language: str) -> str:
    return catalogues(language)["game.name"]


# ------------------------------------------------------------------- choosing
def test_the_browser_chooses_first_then_the_switch_is_remembered(
    server: ServerProcess, pages: Pages
) -> None:
    with pages.checked():
        page = pages.open(server.url + "/", locale="fi-FI")
        html = page.locator("html")
        expect(html).to_have_attribute("lang", "fi")
        switch = page.get_by_test_id("lang-switch")
        expect(switch).to_have_value("fi")
        expect(switch.locator("option")).to_have_text(
            ["English", "Deutsch", "Français", "Nederlands", "Suomi", "Dansk"]
        )

        switch.select_option("de")  # the page comes back in German
        expect(html).to_have_attribute("lang", "de")
        expect(page.locator(".brand")).to_have_text(game_name("de"))
        expect(page).to_have_title(game_name("de"))
        for path in ("/keeper", "/rules", "/"):  # every page, and after a reload
            page.goto(server.url + path)
            expect(html).to_have_attribute("lang", "de")
            expect(page.get_by_test_id("lang-switch")).to_have_value("de")
        page.reload()
        expect(html).to_have_attribute("lang", "de")

        page.get_by_test_id("lang-switch").select_option("en")
        expect(html).to_have_attribute("lang", "en")
        expect(page.get_by_test_id("create-game")).to_have_text("Create game")


def test_arrow_keys_on_the_switch_change_nothing_until_asked_and_the_focus_comes_back(
    server: ServerProcess, pages: Pages
) -> None:
    """An audit (WCAG 3.2.2): one arrow key on the switch reloaded the page in the next
    language, the focus lost to the page's start; a keyboard user passing over the languages
    got each in turn. Arrows and letters now only offer a button; Enter (on the list or the
    button) switches, and the focus is on the switch again in the new language."""
    with pages.checked():
        page = pages.open(server.url + "/", locale="en-GB")
        html, switch = page.locator("html"), page.get_by_test_id("lang-switch")
        apply = page.get_by_test_id("lang-apply")
        switch.focus()
        page.keyboard.press("ArrowDown")  # English → Deutsch, on the closed list
        expect(switch).to_have_value("de")
        expect(apply).to_be_visible()
        expect(apply).to_have_text(catalogues("en")["lang.apply"].format(language="Deutsch"))
        page.wait_for_timeout(300)  # a reload would have begun by now
        expect(html).to_have_attribute("lang", "en")
        page.keyboard.press("Tab")
        expect(apply).to_be_focused()
        page.keyboard.press("Enter")
        expect(html).to_have_attribute("lang", "de")
        expect(page.get_by_test_id("lang-switch")).to_be_focused()
        expect(page.get_by_test_id("lang-apply")).to_be_hidden()
        page.keyboard.press("ArrowUp")  # back to English, and Enter on the list itself
        page.keyboard.press("Enter")
        expect(html).to_have_attribute("lang", "en")
        expect(page.get_by_test_id("lang-switch")).to_be_focused()


@pytest.mark.parametrize("how", ["browser", "remembered"])
def test_an_unknown_language_is_english_without_an_error(
    server: ServerProcess, pages: Pages, how: str
) -> None:
    with pages.checked():  # no script error
        if how == "browser":
            page = pages.open(server.url + "/", locale="sw-KE")  # Swahili: no catalogue
        else:
            page = pages.open(server.url + "/")
            page.evaluate("localStorage.setItem('pickomino.lang', '\"tlh\"')")
            page.reload()
        expect(page.locator("html")).to_have_attribute("lang", "en")
        expect(page.get_by_test_id("lang-switch")).to_have_value("en")
        expect(page.get_by_test_id("create-game")).to_have_text("Create game")


def test_a_refusal_links_to_its_rule_in_the_readers_language(
    server: ServerProcess, pages: Pages
) -> None:
    game = create_game(server, [{"name": "Ann"}, {"name": "Robo", "bot": "easy"}])

    def tamper(socket: WebSocketRoute) -> None:  # the roll becomes a stop on its way
        server_side = socket.connect_to_server()
        socket.on_message(lambda message: server_side.send(message.replace("roll", "stop")))

    with pages.checked():
        ann = pages.new(locale="de-DE")
        ann.route_web_socket(re.compile(r"/ws/games/"), tamper)
        ann.goto(server.url + game["seats"][0]["link"])
        ann.get_by_test_id("roll-button").click()
        expect(ann.get_by_test_id("notice-text")).to_have_text(
            catalogues("de")["error.no_stop_now"].format(waiting=catalogues("de")["waiting.roll"])
        )
        badge = ann.get_by_test_id("notice-rule").get_by_test_id("rule-link")
        expect(badge).to_have_attribute("href", "/rules#R8")
        with ann.context.expect_page() as opened:
            badge.click()
        rules = opened.value  # watched for errors as every page of the test
        expect(rules.locator("html")).to_have_attribute("lang", "de")
        expect(rules).to_have_url(re.compile(r"/rules#R8$"))
        heading = rules.locator("h3.target")
        expect(heading).to_have_count(1)
        expect(heading.locator("#R8")).to_have_count(1)
        expect(heading).to_be_in_viewport()
        german = re.search(r'<a id="R8"></a>([^\n]+)', (I18N / "de" / "rules.md").read_text())
        assert german
        expect(heading).to_have_text(german[1].strip())

        # From every page's bar too.
        for path in ("/", "/keeper"):
            ann.goto(server.url + path)
            expect(ann.get_by_test_id("rules-link")).to_have_attribute("href", "/rules")


# ----------------------------------------------------------- whole games
@pytest.mark.long
@pytest.mark.parametrize(("language", "locale"), LOCALES)
def test_a_whole_game_against_a_bot_shows_no_english(
    instant_bots: ServerProcess, pages: Pages, language: str, locale: str
) -> None:
    with pages.checked():
        ann = pages.open(instant_bots.url + "/", locale=locale)
        assert_no_english(ann, language, "lobby")
        ann.get_by_test_id("seat-name").nth(0).fill("Ann")
        ann.get_by_test_id("seat-kind").nth(1).select_option("medium")  # it scores: a shorter game
        ann.get_by_test_id("seat-name").nth(1).fill("Robo")
        ann.get_by_test_id("create-game").click()
        expect(ann.get_by_test_id("created")).to_be_visible()
        assert_no_english(ann, language, "the game created")

        ann.get_by_test_id("take-seat").click()
        root = ann.get_by_test_id("game")
        expect(root).to_have_attribute("data-status", "playing")
        ann.get_by_test_id("roll-button").click()
        expect(root).to_have_attribute("data-phase", "keep")
        ann.get_by_test_id("hint-button").click()
        expect(ann.get_by_test_id("hint-table")).to_be_visible()
        assert_no_english(ann, language, "the table")

        play_until_over(ann, {0: ann})
        expect(ann.get_by_test_id("replay")).to_be_visible()
        expect(ann.get_by_test_id("chart")).to_be_visible()
        assert_no_english(ann, language, "the end screen")
        ann.get_by_test_id("replay-first").click()
        ann.get_by_test_id("replay-next").click()
        expect(ann.get_by_test_id("replay-lines").locator("li").first).to_be_visible()
        assert_no_english(ann, language, "the replay")

        ann.goto(instant_bots.url + "/")
        expect(ann.get_by_test_id("game-result")).to_be_visible()  # who won, in words
        assert_no_english(ann, language, "the lobby's finished game")


@pytest.mark.parametrize(("language", "locale"), LOCALES)
def test_the_score_keeper_shows_no_english(
    server: ServerProcess, pages: Pages, language: str, locale: str
) -> None:
    with pages.checked():
        phone = pages.open(server.url + "/keeper", PHONE, locale=locale)
        assert_no_english(phone, language, "the keeper's set-up")
        names = phone.get_by_test_id("name-input")
        for n, name in enumerate(["Ann", "Bob"]):
            names.nth(n).fill(name)
        phone.get_by_test_id("add-name").click()
        names.nth(2).fill("Cyd")
        phone.get_by_test_id("create-sheet").click()
        tap(phone, "take 27")
        phone.get_by_test_id("option").click()  # Bob steals Ann's 27
        expect(phone.get_by_test_id("sheet")).to_have_attribute("data-count", "2")
        tap(phone, "bust")  # Cyd has nothing to return
        tap(phone, "take 22")
        tap(phone, "bust")  # Bob returns 27, and 36 is turned face down
        expect(grill_tile(phone, 36)).to_have_attribute("data-where", "down")
        assert_no_english(phone, language, "the sheet")

        phone.get_by_test_id("undo-button").click()
        expect(phone.get_by_test_id("sheet")).to_have_attribute("data-count", "4")
        phone.get_by_test_id("redo-button").click()
        expect(phone.get_by_test_id("sheet")).to_have_attribute("data-count", "5")
        grill_tile(phone, 36).click()  # face down: the page says why not, with its rule
        expect(phone.get_by_test_id("notice-rule")).to_have_text(re.compile("R16"))
        assert_no_english(phone, language, "a tile that cannot be had")

        phone.get_by_test_id("dice-helper-toggle").click()
        for face in "1135WW44":
            phone.get_by_test_id("rolled-add").locator(f'[data-face="{face}"]').click()
        phone.get_by_test_id("advise-button").click()
        expect(phone.get_by_test_id("advice-best")).to_be_visible()
        expect(phone.get_by_test_id("kept-choice").first).to_be_visible()
        assert_no_english(phone, language, "the dice helper")

        sheet = phone.get_by_test_id("sheet")
        offered = phone.get_by_test_id("grill").locator("[data-entry]")
        for count in range(6, 40):  # the highest tile for each, to the end
            if sheet.get_attribute("data-over") == "true":
                break
            offered.last.click()
            expect(sheet).to_have_attribute("data-count", str(count))
        expect(phone.get_by_test_id("end-panel")).to_be_visible()
        assert_no_english(phone, language, "the sheet's end")

        phone.goto(server.url + "/keeper")
        expect(phone.get_by_test_id("sheet-row")).to_have_count(1)
        assert_no_english(phone, language, "the list of sheets")


# ----------------------------------------------------------- a phone
@pytest.mark.parametrize("language", ["fi", "de", "fr", "nl", "da"])
def test_a_phone_needs_no_sideways_scroll_in_any_language(
    server: ServerProcess, pages: Pages, language: str
) -> None:
    """Long words ("todennäköisyys", "Fehlwurfrisiko") must not widen the table on a phone,
    with the hint's table open (its headers are the longest words of the page)."""
    game = create_game(server, [{"name": "Ann"}, {"name": "Robo", "bot": "easy"}])
    with pages.checked():
        ann = pages.open(server.url + game["seats"][0]["link"], viewport=PHONE, locale=language)
        ann.get_by_test_id("roll-button").click()
        expect(ann.get_by_test_id("roll").locator("button.die").first).to_be_visible()
        ann.get_by_test_id("hint-button").click()
        expect(ann.get_by_test_id("hint-table")).to_be_visible()
        assert no_horizontal_scroll(ann), language
