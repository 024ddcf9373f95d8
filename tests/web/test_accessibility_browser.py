"""Everyone can play (issue 26), in a real browser against a real ``pickomino serve``:
axe-core finds no WCAG 2.0, 2.1 or 2.2 (A and AA) violation on any page in its main states,
at desktop and phone size; a turn is played with the keyboard alone, the focus following the
game after every action; a bot's turn is told by the live region, dice, total and tile, in
English and in German; the score keeper is kept by keyboard and heard too.

One server for the module, its games set up once (moves written while it is stopped), so
the module stays quick.
"""

from __future__ import annotations

import json
import re
import time
from collections.abc import Iterator
from dataclasses import dataclass

import httpx
import pytest
from axe_playwright_python.sync_playwright import Axe
from playwright.sync_api import Page, expect

from pickomino.web.db.store import Store

from .browser import DESKTOP, Pages, no_horizontal_scroll, relayed_page
from .clicking import Sheet, create_game, play_one_action
from .server_process import ServerProcess
from .test_profiles import finish_offline, token

pytestmark = pytest.mark.slow  # a real server and browser

#: The rules axe checks: WCAG 2.0, 2.1 and 2.2, levels A and AA.
WCAG = ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "wcag22a", "wcag22aa"]
AXE_OPTIONS = {"runOnly": {"type": "tag", "values": WCAG}, "resultTypes": ["violations"]}
BOT = {"name": "Robo", "bot": "easy"}
#: Ann kept five worms (25) and rolls three fives: 40, and no tile 40, so any lower tile of
#: the grill may be chosen (R11c with lower_tile=any).
CHOOSING = ["dice WWWWW555", "keep W", "roll", "dice 555", "keep 5"]
#: Ann rolled: the dice wait to be kept.
ROLLED = ["dice 1233W455"]

# Where the focus is: the test id of the element (its face, for a die), or the tag.
FOCUSED = """() => {
    const now = document.activeElement;
    if (!now || now === document.body) return "body";
    return now.dataset.testid ?? now.tagName.toLowerCase();
}"""
# What the focus should be on now, from what the page shows: the first die to keep, Roll,
# the first tile to choose; the turn line while others play; the end's heading.
EXPECTED_FOCUS = """() => {
    const game = document.querySelector("[data-testid=game]").dataset;
    if (game.over === "true") return "h2";
    if (game.yourTurn !== "true") return "turn-info";
    if (document.querySelector("[data-testid=claim]")) return "claim";
    return game.phase === "keep" ? "die" : "roll-button";
}"""


@dataclass
class Table:
    """The module's server and what it holds: games in every state, a sheet, a profile."""

    server: ServerProcess
    games: dict[str, dict]
    sheet: Sheet
    profile: dict

    def seat(self, game: str, seat: int = 0) -> str:
        return self.server.url + self.games[game]["seats"][seat]["link"]


@pytest.fixture(scope="module")
def table(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Table]:
    server = ServerProcess(tmp_path_factory.mktemp("a11y") / "games.sqlite3").start()
    try:
        profile = httpx.post(server.url + "/api/profiles", json={"name": "Pia"}).json()
        games = {
            "waiting": create_game(server, [{"name": "Ann"}, {"name": "Bob"}]),
            "to roll": create_game(server, [{"name": "Ann"}, BOT], start_player=0),
            "rolled": create_game(server, [{"name": "Ann"}, BOT], start_player=0),
            "choosing": create_game(
                server, [{"name": "Ann"}, BOT], rules="official,lower_tile=any", start_player=0
            ),
            "keyboard": create_game(server, [{"name": "Ann"}, BOT], start_player=0),
            "single keys": create_game(server, [{"name": "Ann"}, BOT], start_player=0),
        }
        over = httpx.post(
            server.url + "/api/games",
            json={"seats": [{"name": "Pia"}, BOT], "start_player": 0},
            headers={"Profile-Key": profile["code"]},
        )
        games["over"] = over.raise_for_status().json()
        server.stop()  # moves written as if played: the server replays them as it starts
        store = Store(str(server.database))
        try:
            store.append_moves(games["rolled"]["id"], 0, ROLLED)
            store.append_moves(games["choosing"]["id"], 0, CHOOSING)
        finally:
            store.close()
        finish_offline(str(server.database), games["over"])  # rated: the leaderboard has it
        server.start()
        sheet = Sheet(server, ["Ann", "Bob", "Cy"])
        sheet.post("entries", {"entry": "take 23", "count": 0}).raise_for_status()
        yield Table(server, games, sheet, profile)
    finally:
        server.stop()


def axe_violations(page: Page) -> list[str]:
    """axe's WCAG violations on the page as it is: one line per rule and element."""
    found = Axe().run(page, options=AXE_OPTIONS).response["violations"]
    return [
        f"{violation['id']} ({violation['impact']}): {node['target']} {node['failureSummary']}"
        for violation in found
        for node in violation["nodes"]
    ]


# ------------------------------------------------------------------------- axe
#: The elements that run past the window's right edge inside a parent that does not: what makes
#: a page scroll sideways.
WIDEST = """() => {
    const past = (node) => node.getBoundingClientRect().right > window.innerWidth + 0.5;
    const name = (node) => `${node.tagName.toLowerCase()}.${[...node.classList].join(".")}`;
    return [...document.querySelectorAll("body *")]
        .filter((node) => past(node) && !past(node.parentElement))
        .slice(0, 5)
        .map((node) => `${name(node)} in ${name(node.parentElement)}`);
}"""
#: A page whose words have not come yet (i18n.js): its title still empty. A page's ready mark
#: can be in its markup (the analysis page's file field), so a check also waits for this to go:
#: axe once read the analysis page before its title was set.
WORDLESS = "html.wordless"
#: The narrowest screen WCAG 1.4.10 (reflow) asks for: 320 CSS pixels (a 1280 px window at
#: 400% zoom); narrower than the phone of the other tests.
NARROW = {"width": 320, "height": 720}


@pytest.mark.parametrize("viewport", [DESKTOP, NARROW], ids=["desktop", "narrow phone"])
def test_no_page_in_any_state_breaks_wcag(
    table: Table, pages: Pages, viewport: dict[str, int]
) -> None:
    url = table.server.url
    states = [  # (name, address, what shows when the page is ready)
        ("lobby", url + "/", "[data-testid=games-over] [data-testid=game-row]"),
        ("waiting for players", table.seat("waiting"), "[data-testid=waiting]:visible"),
        ("my turn to roll", table.seat("to roll"), "[data-testid=roll-button]:enabled"),
        ("dice to keep", table.seat("rolled"), "[data-testid=roll] button.die"),
        ("a tile to choose", table.seat("choosing"), "[data-testid=claim]"),
        ("game over", table.seat("over"), "[data-testid=chart-line]"),
        ("keeper", url + "/keeper", "[data-testid=create-sheet]:enabled"),
        ("a score sheet", table.sheet.url, "[data-testid=sheet][data-count='1']"),
        ("leaderboard", url + "/leaderboard", "[data-testid=board-row]"),
        ("profile", f"{url}/profiles/{table.profile['id']}", "[data-testid=chart-line]"),
        ("rules", url + "/rules", "#R1"),
        ("my games", url + "/mine", "[data-testid=mine-over] li"),  # this browser's seats
        ("analyse a file", url + "/analyse", "[data-testid=record-file]"),
    ]
    found: dict[str, list[str]] = {}
    with pages.checked():
        page = pages.new(viewport)
        for name, address, ready in states:
            page.goto(address)
            expect(page.locator(ready).first).to_be_attached()
            expect(page.locator(WORDLESS)).to_have_count(0)
            found[name] = axe_violations(page)
            if not no_horizontal_scroll(page):  # WCAG 1.4.10: nothing cut off, no sideways scroll
                found[name].append(f"scrolls sideways: {page.evaluate(WIDEST)}")
            headings = page.locator("h1").all_inner_texts()  # a screen reader's way in
            if len(headings) != 1 or not headings[0].strip():
                found[name].append(f"the page's headings one: {headings}")
            if name == "my turn to roll":  # the shortcuts' help, over the table
                page.keyboard.press("?")
                expect(page.get_by_test_id("help-dialog")).to_be_visible()
                found["shortcuts"] = axe_violations(page)
                page.keyboard.press("Escape")
                page.get_by_test_id("coach-about-button").click()  # what the coach does
                expect(page.get_by_test_id("coach-about")).to_be_visible()
                found["the coach explained"] = axe_violations(page)
            if name == "game over":  # the Analysis, asked for
                page.get_by_test_id("analysis-open").click()
                expect(page.get_by_test_id("analysis-player").first).to_be_visible(timeout=60_000)
                page.get_by_test_id("analysis-all").check()
                page.get_by_test_id("analysis-decision").first.click()
                expect(page.get_by_test_id("analysis-detail")).to_be_visible()
                for chart_table in page.get_by_test_id("chart-table").all():  # the charts' values
                    chart_table.locator("summary").click()
                found["analysis"] = axe_violations(page)
                if not no_horizontal_scroll(page):
                    found["analysis"].append(f"scrolls sideways: {page.evaluate(WIDEST)}")
    assert {name: lines for name, lines in found.items() if lines} == {}


@pytest.mark.parametrize("locale", ["de-DE", "fr-FR", "nl-NL", "fi-FI", "da-DK"])
def test_no_page_scrolls_sideways_at_320_px_in_any_language(
    table: Table, pages: Pages, locale: str
) -> None:
    """An audit: the score sheet's Undo / Redo / Save row ran 119 px past a 320 px screen in
    German (18–25 px in French, Dutch, Finnish), and the table's bar with the coach's choice
    past it in Dutch, Finnish and Danish: longer words than English's, which the test above
    reads."""
    url = table.server.url
    states = [
        ("lobby", url + "/", "[data-testid=games-over] [data-testid=game-row]"),
        ("my turn to roll", table.seat("to roll"), "[data-testid=roll-button]:enabled"),
        ("keeper", url + "/keeper", "[data-testid=create-sheet]:enabled"),
        ("a score sheet", table.sheet.url, "[data-testid=sheet][data-count='1']"),
        ("game over", table.seat("over"), "[data-testid=chart-line]"),
    ]
    wide: dict[str, list[str]] = {}
    with pages.checked():
        page = pages.new(NARROW, locale)
        for name, address, ready in states:
            page.goto(address)
            expect(page.locator(ready).first).to_be_attached()
            expect(page.locator(WORDLESS)).to_have_count(0)
            if not no_horizontal_scroll(page):
                wide[name] = page.evaluate(WIDEST)
    assert wide == {}


#: An element's colour (``outline-color`` or ``border-top-color``) and the background behind
#: it (the nearest ancestor's that is not transparent), as [r, g, b] each.
COLOURS = """([node, property]) => {
    const rgb = (text) => text.match(/[\\d.]+/g).slice(0, 3).map(Number);
    const seen = (text) => !/rgba\\(.*, 0\\)$/.test(text) && text !== "transparent";
    let behind = node.parentElement;
    while (behind && !seen(getComputedStyle(behind).backgroundColor)) behind = behind.parentElement;
    return [rgb(getComputedStyle(node)[property]), rgb(getComputedStyle(behind).backgroundColor)];
}"""


def contrast(one: list[float], other: list[float]) -> float:
    """WCAG's contrast ratio of two sRGB colours."""

    def luminance(rgb: list[float]) -> float:
        linear = [c / 255 / 12.92 if c <= 10 else ((c / 255 + 0.055) / 1.055) ** 2.4 for c in rgb]
        return 0.2126 * linear[0] + 0.7152 * linear[1] + 0.0722 * linear[2]

    light, dark = sorted((luminance(one), luminance(other)), reverse=True)
    return (light + 0.05) / (dark + 0.05)


#: One of each thing the style sheet moves (a die rolling, a tile offered, a notice fading,
#: a summary's arrow), put in a page to read how it moves.
MOVING_THINGS = """<div class="animate"><div class="dice rolling"><button class="die">1</button>
</div></div><div class="grill"><div class="tile offered"></div></div>
<div class="notice fading"></div><details class="dice-helper"><summary>a</summary></details>
<details class="share"><summary>b</summary></details>"""
#: Every rule of the style sheets that moves something (a transition or an animation) and how
#: long each thing of MOVING_THINGS it applies to moves, in seconds; a rule no such thing
#: shows is named too (the things above must then show it).
HOW_THINGS_MOVE = """(things) => {
    const probe = document.createElement("div");
    probe.innerHTML = things;
    document.body.append(probe);
    const seconds = (text) => Math.max(0, ...text.split(",").map(
        (d) => parseFloat(d) / (d.trim().endsWith("ms") ? 1000 : 1)));
    const found = [];
    for (const sheet of document.styleSheets) {
        for (const rule of sheet.cssRules) {  // those outside a media query: what moves
            if (!(rule instanceof CSSStyleRule)) continue;
            const style = rule.style;
            if (!(parseFloat(style.transitionDuration) > 0) && !style.animationName) continue;
            for (const part of rule.selectorText.split(",")) {
                const [selector, pseudo] = part.trim().split("::");
                const shown = [...probe.querySelectorAll("*")].filter((e) => e.matches(selector));
                if (!shown.length) found.push([part.trim(), null]);
                for (const element of shown) {
                    const moves = getComputedStyle(element, pseudo ? `::${pseudo}` : null);
                    found.push([part.trim(), Math.max(
                        seconds(moves.transitionDuration), seconds(moves.animationDuration))]);
                }
            }
        }
    }
    probe.remove();
    return found;
}"""


def test_with_reduced_motion_nothing_moves(table: Table, pages: Pages) -> None:
    """An audit (WCAG 2.3.3, and this page's promise): with the system's "reduce motion" the
    notice still faded for 0.8 s (its rule, later in the style sheet, won over the reduced
    one), and an offered tile still rose. Every rule that moves something is checked."""
    with pages.checked():
        page = pages.open(table.server.url + "/")
        moving = page.evaluate(HOW_THINGS_MOVE, MOVING_THINGS)
        assert not [rule for rule, seconds in moving if seconds is None], moving  # all shown
        assert any(seconds for _, seconds in moving)  # without "reduce motion" they move
        page.emulate_media(reduced_motion="reduce")
        still = page.evaluate(HOW_THINGS_MOVE, MOVING_THINGS)
        assert [(rule, seconds) for rule, seconds in still if seconds > 0.01] == []


def test_the_players_cards_and_the_rules_tables_are_named(table: Table, pages: Pages) -> None:
    """An audit (WCAG 1.3.1, 4.1.2): the players' cards were articles with no name, and the
    rules' wide tables, Tab stops to scroll them, had none either."""
    with pages.checked():
        ann = pages.open(table.seat("to roll"))
        for name in ("Ann", "Robo"):
            expect(ann.get_by_role("article", name=name, exact=True)).to_have_count(1)
        rules = pages.open(table.server.url + "/rules")
        tables = rules.locator("#rules table")
        expect(tables.first).to_be_visible()
        for index in range(tables.count()):
            expect(tables.nth(index)).to_have_attribute("tabindex", "0")
            expect(tables.nth(index)).to_have_accessible_name(re.compile(r"\w"))


def test_the_first_tab_offers_to_skip_the_bar(table: Table, pages: Pages) -> None:
    """An audit (WCAG 2.4.1): Roll was the table's tenth Tab stop, after the bar's controls.
    The first is a link past them, shown while it has the focus, on every page."""
    with pages.checked():
        for url in (table.seat("to roll"), table.server.url + "/"):
            page = pages.open(url)
            page.wait_for_function("() => !document.documentElement.classList.contains('wordless')")
            page.keyboard.press("Tab")
            skip = page.get_by_test_id("skip-link")
            expect(skip).to_be_focused()
            expect(skip).to_have_text("Skip to the main content")
            assert skip.evaluate("(link) => link.getBoundingClientRect().width > 50")  # seen
            page.keyboard.press("Enter")
            page.keyboard.press("Tab")
            assert page.evaluate("() => document.activeElement.closest('main') !== null"), url


def test_the_help_opens_on_its_title_and_fits_320_px(table: Table, pages: Pages) -> None:
    """An audit (WCAG 1.4.10, 2.4.3): at 320 px the shortcuts' table was wider than the help
    (its keys kept on one line: "1 2 3 4 5 6 W"), and the help opened with the focus on its
    first control, under the table, scrolled past the title."""
    with pages.checked():
        ann = pages.open(table.seat("to roll"), NARROW)
        expect(ann.get_by_test_id("roll-button")).to_be_enabled()
        ann.get_by_test_id("help-button").click()
        help_dialog = ann.get_by_test_id("help-dialog")
        expect(help_dialog.get_by_role("heading")).to_be_focused()
        assert help_dialog.evaluate("(dialog) => dialog.scrollWidth <= dialog.clientWidth")
        ann.keyboard.press("Escape")
        expect(ann.get_by_test_id("help-button")).to_be_focused()


def test_the_focus_ring_and_the_fields_edges_stand_out_where_they_are(
    table: Table, pages: Pages
) -> None:
    """An audit (WCAG 1.4.11, 2.4.7): the blue focus ring on the bar's brick red was 1.4:1,
    and the fields' edges 1.9:1 against the card; 3:1 at least."""
    with pages.checked():
        page = pages.open(table.server.url + "/")
        expect(
            page.locator("[data-testid=games-over] [data-testid=game-row]").first
        ).to_be_attached()
        for _ in range(10):  # by keyboard: the bar's first controls
            page.keyboard.press("Tab")
            if page.evaluate("document.activeElement.closest('.bar') !== null"):
                break
        ring, bar = page.evaluate(
            COLOURS, [page.evaluate_handle("document.activeElement"), "outlineColor"]
        )
        assert contrast(ring, bar) >= 3, (ring, bar)
        field = page.get_by_test_id("seat-name").first.element_handle()
        edge, card = page.evaluate(COLOURS, [field, "borderTopColor"])
        assert contrast(edge, card) >= 3, (edge, card)


#: WCAG 1.4.12's text spacing, as a reader's style sheet sets it (through the page's own
#: sheet: the Content-Security-Policy takes no style of another origin or inline).
TEXT_SPACING = """() => {
    const sheet = [...document.styleSheets].find((one) => one.href);
    sheet.insertRule(`* { line-height: 1.5 !important; letter-spacing: 0.12em !important;
        word-spacing: 0.16em !important; }`, sheet.cssRules.length);
    sheet.insertRule("p { margin-bottom: 2em !important; }", sheet.cssRules.length);
}"""


def test_with_wider_text_spacing_no_page_scrolls_sideways_at_320_px(
    table: Table, pages: Pages
) -> None:
    """An audit (WCAG 1.4.12 with 1.4.10): the bar's "Score keeper for the real box" would not
    wrap and ran 24–39 px past a 320 px screen under a reader's text spacing."""
    wide: dict[str, list[str]] = {}
    with pages.checked():
        page = pages.new(NARROW)
        for name, address, ready in (
            ("lobby", table.server.url + "/", "[data-testid=seat-name]"),
            ("rules", table.server.url + "/rules", "#R1"),
            ("my turn to roll", table.seat("to roll"), "[data-testid=roll-button]:enabled"),
        ):
            page.goto(address)
            expect(page.locator(ready).first).to_be_attached()
            expect(page.locator(WORDLESS)).to_have_count(0)
            page.evaluate(TEXT_SPACING)
            if not no_horizontal_scroll(page):
                wide[name] = page.evaluate(WIDEST)
    assert wide == {}


def test_the_lobby_s_fields_keep_their_size_with_the_browser_s_text_at_200_percent(
    table: Table, pages: Pages
) -> None:
    """An audit: with the browser's text size at 32 px (200%) on a wide screen, a seat's name
    field in the lobby's form shrank to 40 px and axe found targets too small. The row
    stacks as on a phone then."""
    with pages.checked():
        page = pages.new(DESKTOP)
        cdp = page.context.new_cdp_session(page)
        cdp.send("Page.setFontSizes", {"fontSizes": {"standard": 32, "fixed": 26}})
        page.goto(table.server.url + "/")
        name = page.get_by_test_id("seat-name").first
        expect(name).to_be_visible()
        box = name.bounding_box()
        assert box is not None and box["width"] >= 200, box
        assert axe_violations(page) == []


# -------------------------------------------------------------------- keyboard
#: Presses R on the page as a keyboard would; whether the page took it as its shortcut.
PRESS_R = """() => {
    const key = new KeyboardEvent("keydown", {key: "r", bubbles: true, cancelable: true});
    document.body.dispatchEvent(key);
    return key.defaultPrevented;
}"""


def test_single_key_shortcuts_can_be_turned_off_and_stay_off(table: Table, pages: Pages) -> None:
    """An audit (WCAG 2.1.4, level A): R, S, 1–6, W, H worked whenever the focus was outside
    a field, and a stray key or a dictated "r" rolled. The help has a switch for them, which
    this browser remembers."""
    with pages.checked():
        ann = pages.open(table.seat("single keys"))
        game = ann.get_by_test_id("game")
        expect(ann.get_by_test_id("roll-button")).to_be_enabled()
        ann.get_by_test_id("help-button").click()
        switch = ann.get_by_test_id("single-keys")
        expect(switch).to_be_checked()
        switch.uncheck()
        ann.keyboard.press("Escape")
        assert ann.evaluate(PRESS_R) is False  # nothing: not even "?" opens the help
        ann.reload()
        expect(ann.get_by_test_id("roll-button")).to_be_enabled()
        assert ann.evaluate(PRESS_R) is False  # remembered
        expect(game).to_have_attribute("data-phase", "roll")
        ann.get_by_test_id("help-button").click()
        ann.get_by_test_id("single-keys").check()
        ann.keyboard.press("Escape")
        assert ann.evaluate(PRESS_R) is True
        expect(game).not_to_have_attribute("data-phase", "roll")  # it rolled


#: The game and the test id of the control with the focus ("body": none).
FOCUSED_GAME = """() => {
    const now = document.activeElement;
    if (!now || now === document.body) return "body";
    return `${now.closest("[data-game-id]")?.dataset.gameId} ${now.dataset.testid}`;
}"""
REFRESH = "document.getElementById('refresh').click()"  # as the page's timer does: no focus moved


def test_the_lobby_s_lists_asked_again_keep_the_focus_on_the_same_game(
    table: Table, pages: Pages
) -> None:
    """An audit (WCAG 2.4.3): the lobby's lists, drawn anew every 10 s, sent a keyboard user's
    focus to the page's body (from a Join button, a Watch or a Replay link; and /mine's every
    15 s), and a Join dialog closed after it went back to the body too. A list is drawn again
    only when it changed, and the focus stays on the same game's control."""
    open_seat = [{"name": "Ann"}, {"name": "Guest", "open": True}]
    guest = create_game(table.server, open_seat)
    with pages.checked():
        lobby = pages.open(table.server.url + "/")
        join = lobby.locator(f"[data-game-id='{guest['id']}']").get_by_test_id("join-game")
        join.focus()
        join.evaluate("(button) => { button.dataset.seen = 'yes'; }")
        lobby.evaluate(REFRESH)
        lobby.wait_for_load_state("networkidle")
        expect(join).to_have_attribute("data-seen", "yes")  # the same list: not drawn again

        def a_game_more() -> None:
            newer = create_game(table.server, open_seat)
            lobby.evaluate(REFRESH)
            expect(lobby.locator(f"[data-game-id='{newer['id']}']")).to_have_count(1)

        a_game_more()  # the list changes while the focus is on the game's Join
        expect(join).not_to_have_attribute("data-seen", "yes")  # drawn anew
        assert lobby.evaluate(FOCUSED_GAME) == f"{guest['id']} join-game"
        lobby.keyboard.press("Enter")  # and while its dialog is open
        expect(lobby.locator("#join-dialog")).to_have_attribute("open", "")
        a_game_more()
        lobby.keyboard.press("Escape")
        lobby.wait_for_function(f"() => ({FOCUSED_GAME})() === '{guest['id']} join-game'")


def test_my_games_asked_again_keeps_the_focus_on_the_same_game(table: Table, pages: Pages) -> None:
    """My games (/mine) is asked for again every 15 s and when shown again: a list that
    changed meanwhile (a game more) is drawn anew with the focus on the same game's link (the
    audit's LOW: only the lobby's test covered the code both share)."""
    people = [{"name": "Ann"}, {"name": "Bob"}]
    games = [create_game(table.server, people) for _ in range(2)]
    hold = "([id, token]) => localStorage.setItem(`pickomino.token.${id}`, JSON.stringify(token))"
    with pages.checked():
        mine = pages.open(table.server.url + "/rules")  # the site's storage, then the list
        mine.evaluate(hold, [games[0]["id"], token(games[0], 0)])
        mine.goto(table.server.url + "/mine")
        link = mine.locator(f"[data-game-id='{games[0]['id']}']").get_by_test_id("mine-open")
        link.focus()
        link.evaluate("(a) => { a.dataset.seen = 'yes'; }")
        mine.evaluate(hold, [games[1]["id"], token(games[1], 0)])
        mine.evaluate("document.dispatchEvent(new Event('visibilitychange'))")  # asked again
        expect(mine.locator(f"[data-game-id='{games[1]['id']}']")).to_have_count(1)
        expect(link).not_to_have_attribute("data-seen", "yes")  # drawn anew
        assert mine.evaluate(FOCUSED_GAME) == f"{games[0]['id']} mine-open"


#: How many of a group's buttons Tab stops at.
TAB_STOPS = """(group) => [...document.querySelectorAll(`${group} button`)]
    .filter((button) => button.tabIndex >= 0).length"""
#: Which of the roll's dice to keep has the focus (-1: none).
FOCUSED_DIE = "[...document.querySelectorAll('#roll button')].indexOf(document.activeElement)"


#: Keeps where the focus goes from now on, in ``window.focusTrail`` (as FOCUSED names it).
FOCUS_TRAIL = """() => {
    window.focusTrail = [];
    document.addEventListener("focusin", (event) =>
        window.focusTrail.push(event.target.dataset.testid ?? event.target.tagName.toLowerCase()));
}"""


def expect_focus_follows(page: Page) -> str:
    """Waits until the focus is where the game says (never the body); returns where."""
    page.wait_for_function(f"() => ({FOCUSED})() === ({EXPECTED_FOCUS})()", polling=20)
    return page.evaluate(FOCUSED)


def test_a_turn_played_with_the_keyboard_alone(table: Table, pages: Pages) -> None:
    with pages.checked():
        ann = pages.open(table.seat("keyboard"))
        game = ann.get_by_test_id("game")
        expect(game).to_have_attribute("data-your-turn", "true")
        # Roll comes before the dice in the page's order: as the turn is played.
        assert ann.evaluate(
            """() => {
                const roll = document.querySelector("[data-testid=roll-button]");
                const dice = document.querySelector("[data-testid=roll]");
                return (roll.compareDocumentPosition(dice) & Node.DOCUMENT_POSITION_FOLLOWING) > 0;
            }"""
        )
        # A key pressed in a field is the field's: R in the language list rolls nothing.
        ann.get_by_test_id("lang-switch").focus()
        ann.keyboard.press("r")
        ann.wait_for_timeout(300)
        expect(game).to_have_attribute("data-phase", "roll")
        for _ in range(10):  # on to Roll with Tab: the table's first control after the bar
            if ann.evaluate(FOCUSED) == "roll-button":
                break
            ann.keyboard.press("Tab")
        assert ann.evaluate(FOCUSED) == "roll-button"

        # The help dialog opens with "?", closes with Escape, and the focus comes back.
        ann.keyboard.press("?")
        expect(ann.get_by_test_id("help-dialog")).to_be_visible()
        expect(ann.get_by_test_id("shortcut").first).to_contain_text("Roll the dice")
        ann.keyboard.press("Escape")
        expect(ann.get_by_test_id("help-dialog")).to_be_hidden()
        assert ann.evaluate(FOCUSED) == "roll-button"

        # One turn: Enter on what has the focus (Roll, a die) or the shortcut (R, a face's
        # number or W), S to stop once it takes a tile; the focus checked after every action,
        # and every place it went to on the way (an audit: through the turn line, its words
        # stale, while each answer was on its way).
        ann.evaluate(FOCUS_TRAIL)
        places, toolbar_seen = [], False
        for step in range(24):
            now = game.get_attribute("data-seq")
            place = ann.evaluate(FOCUSED)
            if place == "roll-button":
                total = int(ann.get_by_test_id("total").get_attribute("data-total") or 0)
                worm = ann.get_by_test_id("kept").locator('[data-face="W"]').count() > 0
                stop = worm and total >= 25 and ann.get_by_test_id("stop-button").is_enabled()
                key = "s" if stop else ("r" if step % 2 else "Enter")
            elif place == "die":
                if not toolbar_seen:  # the dice to keep are one Tab stop, a toolbar
                    toolbar_seen = True
                    expect(ann.get_by_role("toolbar", name="The dice rolled")).to_be_visible()
                    assert ann.evaluate(TAB_STOPS, "[data-testid=roll]") == 1
                    ann.keyboard.press("ArrowRight")
                    assert ann.evaluate(FOCUSED_DIE) == 1
                    ann.keyboard.press("ArrowLeft")
                    assert ann.evaluate(FOCUSED_DIE) == 0
                face = ann.evaluate("document.activeElement.dataset.face")
                key = "Enter" if step % 2 else ("w" if face == "W" else face)
            else:  # a tile to choose
                key = "Enter"
            ann.keyboard.press(key)
            expect(game).not_to_have_attribute("data-seq", now)
            places.append(expect_focus_follows(ann))
            if game.get_attribute("data-your-turn") != "true":
                break
        assert places[-1] == "turn-info" and "die" in places and "roll-button" in places
        assert toolbar_seen
        trail = ann.evaluate("window.focusTrail")
        assert trail[-1] == "turn-info" and "turn-info" not in trail[:-1], trail  # at the end only
        # Robo plays; then the turn is Ann's again, and the focus is on Roll.
        expect(game).to_have_attribute("data-current", "0", timeout=20_000)
        if game.get_attribute("data-over") != "true":
            expect(ann.get_by_test_id("roll-button")).to_be_focused()


def test_a_tile_chosen_with_the_keyboard_and_only_my_moves_said(table: Table, pages: Pages) -> None:
    with pages.checked():
        ann, sockets = relayed_page(pages, table.seat("choosing"))
        expect(ann.get_by_test_id("claim")).to_have_count(16)
        ann.keyboard.press("?")  # only Ann's moves said from now on
        ann.get_by_test_id("announce-mine").check()
        ann.keyboard.press("Escape")
        for _ in range(20):
            if ann.evaluate(FOCUSED) == "claim":
                break
            ann.keyboard.press("Tab")
        expect(ann.get_by_test_id("claim").first).to_be_focused()  # the first tile: 21
        # The tiles are one Tab stop (a toolbar): the arrows, Home and End move among them.
        claims = ann.get_by_role("toolbar", name="The tiles to choose from")
        expect(claims.get_by_test_id("claim")).to_have_count(16)
        assert ann.evaluate(TAB_STOPS, "[data-testid=claims]") == 1
        ann.keyboard.press("End")
        expect(ann.get_by_test_id("claim").last).to_be_focused()
        ann.keyboard.press("ArrowRight")  # round to the first
        expect(ann.get_by_test_id("claim").first).to_be_focused()
        ann.keyboard.press("ArrowRight")
        second = ann.get_by_test_id("claim").nth(1)
        expect(second).to_be_focused()
        # A state arriving meanwhile (as when somebody comes or votes) draws the tiles anew:
        # the focus stays on the tile it was on (it went back to the first, where Enter took
        # another tile than the one chosen).
        ann.evaluate("document.querySelector('[data-testid=claims]').dataset.drawn = 'before'")
        sockets[0][1].send(json.dumps({"type": "sync"}))  # the page's own ask: a whole state
        expect(ann.locator("[data-drawn=before]")).to_have_count(0)  # drawn anew
        expect(second).to_be_focused()
        assert ann.evaluate(TAB_STOPS, "[data-testid=claims]") == 1
        ann.keyboard.press("Enter")  # the second tile: 22
        said = ann.get_by_test_id("announcer")
        expect(said).to_contain_text("Ann took 22 from the grill with 40")
        assert expect_focus_follows(ann) in ("turn-info", "roll-button")  # Robo's turn, or Ann's
        expect(said).to_contain_text("Turn 3 · Your turn: roll the dice", timeout=20_000)
        expect(ann.get_by_test_id("roll-button")).to_be_focused()
        assert "Robo" not in said.text_content()


def test_with_the_others_results_said_a_bots_turn_is_how_it_ends(
    table: Table, pages: Pages
) -> None:
    """An audit: another's turn took some 14 s of speech (every roll and keep), the table
    gone on meanwhile; "Only my moves" left out how it ended. A third choice says my moves
    and how the others' turns end: whose turn, a tile taken or stolen, a bust."""
    players = [{"name": "Ann"}, {"name": "Robo", "bot": "medium"}]
    game = create_game(table.server, players, start_player=0)
    with pages.checked():
        ann = pages.new()
        ann.add_init_script("localStorage.setItem('pickomino.announce', '\"results\"')")
        ann.goto(table.server.url + game["seats"][0]["link"])
        ann.keyboard.press("?")
        expect(ann.get_by_test_id("announce-results")).to_be_checked()
        ann.keyboard.press("Escape")
        root = ann.get_by_test_id("game")
        while True:  # Ann's first turn, played quickly
            play_one_action(ann)
            expect(root).to_have_attribute("data-waiting", "false")
            if root.get_attribute("data-current") != "0":
                break
        said = ann.get_by_test_id("announcement")
        expect(said.last).to_have_text(re.compile("Your turn"), timeout=30_000)  # Robo's ended
        lines = said.all_text_contents()
        robo_at = next((n for n, line in enumerate(lines) if "Robo" in line), None)
        assert robo_at is not None, lines  # Robo's turn heard
        robo = lines[robo_at:]
        assert any(re.match(r"^Turn 2\b.*Robo", line) for line in robo), lines  # whose turn
        assert any(re.match(r"^Robo (took|stole|busts) ", line) for line in robo), lines
        assert not [line for line in robo if re.match(r"^Robo (rolled|kept) ", line)], lines


def test_in_forced_colours_the_player_to_move_and_who_is_online_still_show(
    table: Table, pages: Pages
) -> None:
    """An audit (WCAG 1.4.11): in forced colours (Windows high contrast) the online dot and
    the outline of the player to move vanished with the backgrounds and shadows."""
    with pages.checked():
        ann = pages.new(DESKTOP, None)
        ann.emulate_media(forced_colors="active")
        ann.goto(table.seat("rolled"))
        dot = ann.get_by_test_id("online-dot").first
        expect(dot).to_be_visible()
        # its own colours kept (the system would paint it as the page's background)
        assert dot.evaluate("d => getComputedStyle(d).forcedColorAdjust") == "none"
        current = ann.locator(".player.current")
        assert current.evaluate("c => getComputedStyle(c).outlineStyle") == "solid"


def test_a_notice_stays_while_it_holds_the_focus_which_then_goes_back(
    table: Table, pages: Pages
) -> None:
    """An audit (WCAG 2.2.1, 2.4.3): a notice faded after 7 s with the focus on its close
    button, the focus lost to the page's body. It stays while read; closed, the focus goes
    back to where it came from. (Timers on the page's own clock, run forward.)"""
    with pages.checked():
        ann = pages.new(DESKTOP, None)
        ann.clock.install()
        ann.goto(table.seat("rolled"))
        roll = ann.get_by_test_id("die").first
        roll.focus()
        ann.evaluate("import('/static/notice.js').then((m) => m.notice('Read me slowly'))")
        close, box = ann.get_by_test_id("notice-close"), ann.locator("#notice")
        expect(box).to_be_visible()
        close.focus()
        ann.clock.run_for(60_000)  # a minute of reading
        expect(box).to_be_visible()
        expect(box).not_to_have_class(re.compile("fading"))  # (opacity 0 is "visible")
        expect(close).to_be_focused()
        ann.keyboard.press("Enter")
        expect(box).to_be_hidden()
        expect(roll).to_be_focused()
        ann.evaluate("import('/static/notice.js').then((m) => m.notice('Unread'))")
        expect(box).to_be_visible()
        ann.clock.run_for(8_000)  # left alone, it fades as before
        expect(box).to_be_hidden()


def test_dice_and_charts_are_heard_as_they_are_seen(table: Table, pages: Pages) -> None:
    """An audit: a screen reader spelled the log's and the Analysis' dice "W" (the eye reads a
    worm), the charts said only their titles, and a decision picked in the Analysis was
    explained far below the list, with no way there but walking the whole page."""
    with pages.checked():
        ann = pages.open(table.seat("rolled"))  # Ann rolled 1233W455
        line = ann.get_by_test_id("log-line").filter(has_text="Ann rolled")
        heard = line.aria_snapshot()
        assert "1, 2, 3, 3, 4, 5, 5, and worm" in heard and " W" not in heard, heard
        expect(line).to_contain_text("1 2 3 3 4 5 5 W")  # seen as before

        pia = pages.open(table.seat("over"))
        frames = httpx.get(f"{table.server.url}/api/games/{table.games['over']['id']}/replay")
        final = frames.raise_for_status().json()["frames"][-1]["table"]["worms"]
        worms = pia.get_by_test_id("chart-table").first
        worms.locator("summary").click()
        rows = worms.locator("tbody tr")
        expect(rows).to_have_count(len(frames.json()["frames"]))
        expect(rows.last.locator("td")).to_have_text([str(count) for count in final])
        expect(worms.locator("thead th")).to_have_text(["Turn", "Pia", "Robo"])

        pia.get_by_test_id("analysis-open").click()
        pia.get_by_test_id("analysis-all").check()
        decisions = pia.get_by_test_id("analysis-decision")
        detail = pia.get_by_test_id("analysis-detail")
        for n in range(decisions.count()):  # a decision whose dice show a worm
            decisions.nth(n).focus()
            pia.keyboard.press("Enter")
            dice = detail.locator("p.muted").first
            expect(dice).to_be_visible()
            if " W" in dice.inner_text():
                break
        heard = dice.aria_snapshot()
        assert "worm" in heard and " W" not in heard, heard
        # from the picked decision to its explanation and back, by keyboard
        expect(pia.locator("[data-testid=analysis-decision].selected")).to_be_focused()
        pia.keyboard.press("Tab")
        expect(pia.get_by_test_id("analysis-goto")).to_be_focused()
        pia.keyboard.press("Enter")
        expect(detail.locator("h4")).to_be_focused()
        pia.get_by_test_id("analysis-back").focus()
        pia.keyboard.press("Enter")
        expect(pia.locator("[data-testid=analysis-decision].selected")).to_be_focused()


def test_the_keeper_is_kept_by_keyboard_and_heard(table: Table, pages: Pages) -> None:
    sheet = Sheet(table.server, ["Ann", "Bob"])
    with pages.checked():
        page = pages.open(sheet.url)
        expect(page.get_by_test_id("sheet")).to_have_attribute("data-count", "0")
        # An audit: the sixteen tiles offered were sixteen Tab stops. One, the arrows along.
        grill = page.get_by_test_id("grill")
        expect(grill).to_have_attribute("role", "toolbar")
        offered = grill.locator("[data-entry]")
        expect(offered).to_have_count(16)
        expect(grill.locator('[data-entry][tabindex="0"]')).to_have_count(1)
        offered.first.focus()
        page.keyboard.press("ArrowRight")
        expect(offered.nth(1)).to_be_focused()
        page.keyboard.press("End")
        expect(offered.last).to_be_focused()
        page.keyboard.press("Tab")  # past the grill at once
        assert page.evaluate("!document.activeElement.closest('[data-testid=grill]')")
        page.keyboard.press("Shift+Tab")  # back on the tile it left
        expect(offered.last).to_be_focused()
        page.keyboard.press("Home")
        expect(page.locator('[data-testid=grill] [data-entry="take 21"]')).to_be_focused()
        page.keyboard.press("Enter")
        said = page.get_by_test_id("announcer")
        expect(said).to_contain_text("Ann took 21 from the grill")
        expect(said).to_contain_text("Turn 2 – Bob")
        expect(page.get_by_test_id("turn-who")).to_be_focused()
        page.keyboard.press("b")  # Bob busts
        expect(said).to_contain_text("Bob busts")
        expect(page.get_by_test_id("sheet")).to_have_attribute("data-count", "2")
        page.keyboard.press("u")  # undone: Bob is to play again
        expect(page.get_by_test_id("sheet")).to_have_attribute("data-count", "1")
        expect(said.get_by_test_id("announcement").last).to_have_text("Turn 2 – Bob")
        expect(said.get_by_test_id("announcement").nth(-2)).to_have_text("Undone: Bob busts")
        assert page.evaluate(FOCUSED) != "body"


# ------------------------------------------------------------------ live region
#: How each language says a roll (its dice), a keep (the total) and a tile won (the total).
SAYS = {
    "en": {
        "rolled": r"\w+ rolled (.+)",
        "kept": r"\w+ kept .+ \(total (\d+)\)",
        "won": r"\w+ (?:took \d+ from the grill|stole \d+ from \w+) with (\d+)",
    },
    "de": {
        "rolled": r"\w+ würfelt (.+)",
        "kept": r"\w+ legt .+ heraus \(Summe (\d+)\)",
        "won": r"\w+ (?:nimmt|klaut \w+) mit (\d+) die \d+(?: vom Grill)?",
    },
}
WORM = {"en": "worm", "de": "Wurm"}


def first_won_after_a_roll(lines: list[str], says: dict[str, re.Pattern[str]]) -> int | None:
    """The index of the first line telling of a tile won after a line telling of a roll."""
    rolled = False
    for n, line in enumerate(lines):
        if rolled and says["won"].match(line):
            return n
        rolled = rolled or bool(says["rolled"].match(line))
    return None


@pytest.mark.parametrize("language", ["en", "de"])
def test_the_live_region_tells_a_bots_turn(table: Table, pages: Pages, language: str) -> None:
    """Two bots play; a watcher hears their turns, one line an event, in their language:
    each roll's dice (faces as words), each keep with the total, and the tile won with it."""
    says = {what: re.compile(f"^{pattern}$") for what, pattern in SAYS[language].items()}
    # medium bots stop as soon as a tile can be claimed: a tile is won within a few turns
    # (two easy bots once went 99 turns without one, past the wait below)
    bots = [{"name": "Robo", "bot": "medium"}, {"name": "Mimi", "bot": "medium"}]
    with pages.checked():
        game = create_game(table.server, bots, start_player=0)
        page = pages.open(f"{table.server.url}/games/{game['id']}", locale=language)
        said = page.get_by_test_id("announcement")
        # The first tile won after a roll the page heard: the page may open mid-turn.
        deadline = time.monotonic() + 60
        while (won := first_won_after_a_roll(lines := said.all_text_contents(), says)) is None:
            assert time.monotonic() < deadline, lines
            page.wait_for_timeout(50)  # polling, not timing anything
        kept = [says["kept"].match(line) for line in lines[:won]]
        rolled = [says["rolled"].match(line) for line in lines[:won]]
        assert any(rolled) and any(kept), lines
        last_keep = [match for match in kept if match][-1]
        assert says["won"].match(lines[won])[1] == last_keep[1], lines
        for roll in filter(None, rolled):
            faces = re.split(r", | and | und ", roll[1].replace(", and ", ", "))
            assert set(faces) <= {"1", "2", "3", "4", "5", WORM[language]}, roll[0]
