"""The score keeper page in a real browser (see :mod:`tests.web.browser`) against a real
``pickomino serve``: a game played with the real box, entered by tapping as people would.
"""

from __future__ import annotations

import json
import re

import httpx
import pytest
import sqlalchemy as sa
from playwright.sync_api import expect

from pickomino.core import Rules
from pickomino.i18n import Words
from pickomino.table.sheet import ScoreSheet
from pickomino.web.db.store import Store

from .browser import PHONE, Pages, no_horizontal_scroll
from .clicking import Sheet, grill_tile, player, tap
from .server_process import ServerProcess

WORDS = Words("en")

# A real server (one for the module) and browser: the full run (CI).
pytestmark = pytest.mark.slow


@pytest.fixture(scope="module")
def server(shared_server: ServerProcess) -> ServerProcess:
    """One server for the module's tests: each keeps sheets of its own (the lobby is only
    a way to the keeper's page)."""
    return shared_server


def test_a_whole_game_kept_on_a_phone(server: ServerProcess, pages: Pages) -> None:
    with pages.checked():
        phone = pages.open(server.url + "/keeper", PHONE)
        names = phone.get_by_test_id("name-input")
        names.nth(0).fill("Ann")
        names.nth(1).fill("Bob")
        phone.get_by_test_id("add-name").click()
        names.nth(2).fill("Cy")
        expect(phone.get_by_test_id("start-player")).to_have_value("0")
        phone.get_by_test_id("create-sheet").click()
        expect(phone).to_have_url(re.compile(r"/keeper/[\w-]+#[\w-]{20,}$"))
        sheet = phone.get_by_test_id("sheet")
        expect(sheet).to_have_attribute("data-count", "0")
        expect(phone.get_by_test_id("turn-who")).to_contain_text("Ann to play")
        expect(phone.get_by_test_id("turn-who")).to_be_focused()  # the form it was on is gone
        phone.go_back()  # the set-up screen, the new sheet first in the list, then the sheet again
        expect(phone.get_by_test_id("sheet-row").first).to_contain_text("Ann, Bob, and Cy")
        phone.go_forward()
        expect(sheet).to_have_attribute("data-count", "0")
        expect(player(phone, 0)).to_have_attribute("data-current", "true")
        expect(phone.get_by_test_id("undo-button")).to_be_disabled()
        expect(grill_tile(phone, 27)).to_have_attribute("data-entry", "take 27")
        assert no_horizontal_scroll(phone)

        tap(phone, "take 27")  # Ann takes 27 off the grill
        expect(grill_tile(phone, 27)).to_have_attribute("data-where", "taken")
        expect(player(phone, 0).get_by_test_id("player-worms")).to_have_text("2")
        expect(player(phone, 1)).to_have_attribute("data-current", "true")
        # Bob steals it: tapping the top of Ann's stack, the only stack with a tile.
        expect(phone.get_by_test_id("option")).to_have_accessible_name("Bob stole 27 from Ann")
        top = player(phone, 0).get_by_test_id("stack-top")
        expect(top).to_have_attribute("data-entry", "steal 27")
        top.click()
        expect(sheet).to_have_attribute("data-count", "2")
        expect(player(phone, 0).get_by_test_id("stack")).to_have_text("no tiles yet")
        expect(player(phone, 1).get_by_test_id("stack-top")).to_have_attribute("data-tile", "27")
        expect(phone.get_by_test_id("last-turn")).to_contain_text("Bob stole 27 from Ann")

        tap(phone, "bust")  # Cy has nothing to return: nothing is turned
        expect(phone.get_by_test_id("last-turn")).to_have_text("Turn 3 – Cy · Cy busts")
        expect(phone.get_by_test_id("grill").locator('[data-where="down"]')).to_have_count(0)
        tap(phone, "take 22")
        tap(phone, "bust")  # Bob returns 27 and the highest tile, 36, is turned face down
        expect(grill_tile(phone, 27)).to_have_attribute("data-where", "grill")
        expect(grill_tile(phone, 36)).to_have_attribute("data-where", "down")
        expect(phone.get_by_test_id("grill").locator("[data-entry]")).to_have_count(14)
        expect(player(phone, 1).get_by_test_id("player-worms")).to_have_text("0")
        expect(phone.get_by_test_id("log-line").last).to_have_text("36 is turned face down")

        expect(phone.get_by_test_id("undone")).to_be_hidden()
        phone.get_by_test_id("undo-button").click()
        expect(sheet).to_have_attribute("data-count", "4")
        # What was undone is seen beside the buttons and said aloud (the log just loses it).
        undone = "Undone: Bob busts · Bob puts 27 back on the grill · 36 is turned face down"
        expect(phone.get_by_test_id("undone")).to_have_text(undone)
        expect(phone.get_by_test_id("announcement").nth(-2)).to_have_text(undone)  # then Bob's turn
        expect(grill_tile(phone, 36)).to_have_attribute("data-where", "grill")
        expect(player(phone, 1).get_by_test_id("stack-top")).to_have_attribute("data-tile", "27")
        expect(phone.get_by_test_id("turn-who")).to_contain_text("Bob to play")
        phone.get_by_test_id("redo-button").click()
        expect(sheet).to_have_attribute("data-count", "5")
        expect(phone.get_by_test_id("undone")).to_be_hidden()
        expect(grill_tile(phone, 36)).to_have_attribute("data-where", "down")
        expect(phone.get_by_test_id("redo-button")).to_be_disabled()

        # Closing the page loses nothing: a reload, and the set-up screen's resume, show it all.
        log = phone.get_by_test_id("log-line").all_text_contents()
        phone.reload()
        expect(sheet).to_have_attribute("data-count", "5")
        expect(phone.get_by_test_id("log-line")).to_have_text(log)
        expect(grill_tile(phone, 36)).to_have_attribute("data-where", "down")
        expect(player(phone, 2)).to_have_attribute("data-current", "true")
        sheet_url = phone.url
        phone.goto(server.url + "/keeper")
        expect(phone.get_by_test_id("resume-last")).to_contain_text(
            "Ann, Bob, and Cy · 5 turns entered"
        )
        for n, name in enumerate(["Ann", "Bob", "Cy"]):  # remembered for the next game
            expect(phone.get_by_test_id("name-input").nth(n)).to_have_value(name)
        phone.get_by_test_id("resume-last-link").click()
        expect(phone).to_have_url(sheet_url)
        expect(sheet).to_have_attribute("data-count", "5")

        # The rest of the game as fast as taps go: each player takes the highest tile.
        offered = phone.get_by_test_id("grill").locator("[data-entry]")
        for count in range(6, 20):
            expect(sheet).to_have_attribute("data-count", str(count - 1))
            offered.last.click()
        expect(sheet).to_have_attribute("data-over", "true")
        expect(phone.get_by_test_id("end-panel")).to_be_visible()
        expect(phone.get_by_test_id("rank")).to_have_text(
            [re.compile(r"1\s*Cy\s*13 worms"), re.compile("2\\s*Ann"), re.compile("3\\s*Bob")]
        )
        expect(phone.get_by_test_id("tie-break")).to_have_text(
            "Cy wins the tie on worms with the highest tile (R20)."  # the ranking says the rest
        )
        expect(phone.get_by_test_id("turn-card")).to_be_hidden()
        expect(phone.get_by_test_id("dice-helper")).to_be_hidden()
        expect(phone.locator("[data-testid=sheet] [data-entry]")).to_have_count(0)
        expect(phone.get_by_test_id("undo-button")).to_be_enabled()
        assert no_horizontal_scroll(phone)


NOT_ENTERED = (
    "That tap was not entered: the sheet had changed meanwhile (on another phone, or by a"
    " tap just before). It now shows what is entered: check it, and tap again if need be."
)


def test_an_entry_from_a_stale_page_is_refused_and_nothing_is_lost(
    server: ServerProcess, pages: Pages
) -> None:
    sheet = Sheet(server, ["Ann", "Bob"])
    with pages.checked():
        page = pages.open(sheet.url)
        tap(page, "take 27")
        steal = page.get_by_test_id("option")
        expect(steal).to_have_attribute("data-entry", "steal 27")

        # Meanwhile another phone undoes Ann's 27 and enters 25 instead: the same count, but
        # not the sheet this page shows (its revision): the tap is not entered.
        assert sheet.post("undo").is_success
        assert sheet.post("entries", {"entry": "take 25", "count": 0}).is_success
        steal.click()
        expect(page.get_by_test_id("notice-text")).to_have_text(NOT_ENTERED)
        expect(player(page, 0).get_by_test_id("stack-top")).to_have_attribute("data-tile", "25")
        expect(page.get_by_test_id("option")).to_have_attribute("data-entry", "steal 25")
        assert sheet.get()["table"]["stacks"] == [[25], []]

        # Bob's bust entered elsewhere, then tapped again on this page: a stale count.
        assert sheet.post("entries", {"entry": "bust", "count": 1}).is_success
        page.get_by_test_id("notice-close").click()
        page.get_by_test_id("bust-button").click()
        expect(page.get_by_test_id("notice-text")).to_have_text(NOT_ENTERED)
        expect(page.get_by_test_id("sheet")).to_have_attribute("data-count", "2")
        expect(page.get_by_test_id("turn-who")).to_contain_text("Ann to play")
        assert sheet.get()["count"] == 2  # one bust, not two


def test_the_dice_helper_advises_on_a_roll(server: ServerProcess, pages: Pages) -> None:
    sheet = Sheet(server, ["Ann", "Bob"])
    with pages.checked():
        phone = pages.open(sheet.url, PHONE)
        phone.get_by_test_id("dice-helper-toggle").click()
        expect(phone.get_by_test_id("advice-for")).to_have_text(re.compile("^For Ann"))
        rolled = phone.get_by_test_id("rolled-add")
        for face in "1135WW44":
            rolled.locator(f'[data-face="{face}"]').click()
        expect(phone.get_by_test_id("rolled-count")).to_have_text("8 dice")
        expect(rolled.locator("button").first).to_be_disabled()  # 8 dice in all

        def advice_matches(kept: str, roll: str | None) -> dict:
            report = sheet.post("dice", {"kept": kept, "rolled": roll}).json()
            phone.get_by_test_id("advise-button").click()
            best = phone.get_by_test_id("advice-best")
            expect(best).to_have_attribute("data-action", report["best"])
            # the button kept the focus while asking (an audit: it fell to the page's body)
            assert phone.evaluate("document.activeElement.dataset.testid") == "advise-button"
            first = report["choices"][0]
            expect(best).to_contain_text(f"{round(first['win'] * 100)}% chance to win the game")
            expect(best).to_contain_text(f"{round(first['tile'] * 100)}% chance of a tile")
            expect(best).to_contain_text(f"{round(first['bust'] * 100)}% bust risk")
            rows = phone.get_by_test_id("hint-row")
            expect(rows).to_have_count(len(report["choices"]))
            expect(rows.first).to_have_attribute("data-action", report["best"])
            # heard in one sentence, from a status region there before the advice came
            said = phone.get_by_test_id("advice-said")
            expect(said).to_have_attribute("role", "status")
            chance = round(first["win"] * 100)
            expect(said).to_have_text(re.compile(rf"^Hint: best is .+, win chance {chance}%$"))
            return report

        report = advice_matches("", "1135WW44")
        assert report["phase"] == "keep"

        # The worms were kept: they move to the kept dice, and the advice is roll or stop.
        phone.locator('[data-testid=kept-choice][data-face="W"]').click()
        expect(phone.get_by_test_id("kept-count")).to_have_text("2 dice")
        expect(phone.get_by_test_id("rolled-count")).to_have_text("0 dice")
        expect(phone.get_by_test_id("advice")).to_be_hidden()
        report = advice_matches("WW", None)
        assert {choice["action"] for choice in report["choices"]} == {"roll", "stop"}

        # Dice that cannot be: the server says why.
        for face in "123":
            rolled.locator(f'[data-face="{face}"]').click()
        phone.get_by_test_id("advise-button").click()
        expect(phone.get_by_test_id("notice-text")).to_have_text(
            "3 dice rolled, but 6 are left to roll"
        )
        expect(phone.get_by_test_id("notice-rule")).to_have_text("rule R5")
        phone.get_by_test_id("clear-rolled").click()
        for _ in range(6):
            rolled.locator('[data-face="W"]').click()
        phone.get_by_test_id("advise-button").click()
        expect(phone.get_by_test_id("advice-bust")).to_have_text(re.compile("^Bust: .+R7"))

        # The dice belong to the turn: entering its result clears them.
        tap(phone, "bust")
        expect(phone.get_by_test_id("kept-count")).to_have_text("0 dice")
        expect(phone.get_by_test_id("advice-for")).to_have_text(re.compile("^For Bob"))
        assert no_horizontal_scroll(phone)


def test_set_up_refusals_and_the_list_of_sheets(server: ServerProcess, pages: Pages) -> None:
    with pages.checked():
        page = pages.open(server.url + "/")
        page.get_by_test_id("keeper-link").click()  # found from the lobby
        expect(page.get_by_test_id("sheets")).to_contain_text("No score sheet on this browser yet")
        names = page.get_by_test_id("name-input")
        names.nth(0).fill("Sam")
        names.nth(1).fill("SAM")  # the same player: case does not count
        expect(page.get_by_test_id("remove-name").first).to_be_disabled()  # 2 at least
        page.get_by_test_id("create-sheet").click()
        expect(page.get_by_test_id("name-row").nth(1).get_by_test_id("row-error")).to_have_text(
            "players 1 and 2 have the same name 'Sam'"
        )
        expect(names.nth(1)).to_have_attribute("aria-invalid", "true")
        for _ in range(5):
            page.get_by_test_id("add-name").click()
        expect(page.get_by_test_id("add-name")).to_be_disabled()  # 7 at most
        expect(names).to_have_count(7)
        page.get_by_test_id("remove-name").nth(6).click()
        for n in range(1, 6):
            names.nth(n).fill(f"P{n + 1}")
        page.get_by_test_id("start-player").select_option(label="P3")
        editor = page.get_by_test_id("rules")  # a control per option, from their description
        for option in Rules.options():
            expect(editor).to_contain_text(f"{WORDS(option.key)} ({option.rule})")
        expect(editor.get_by_test_id("opt-lower_tile")).to_contain_text(
            WORDS("option.lower_tile.any")
        )
        page.get_by_test_id("rules-preset").select_option("short")
        page.get_by_test_id("opt-lower_tile").select_option("any")
        expect(page.get_by_test_id("rules-preset")).to_have_value("custom")
        page.get_by_test_id("create-sheet").click()
        expect(page.get_by_test_id("turn-who")).to_contain_text("P3 to play")
        sheet_id, key = page.url.rsplit("/", 1)[1].split("#")
        rules = httpx.get(f"{server.url}/api/sheets/{sheet_id}", headers={"Sheet-Key": key}).json()[
            "rules"
        ]
        assert rules == {
            "flip_returned_highest": True, "exact_match_mandatory": False, "lower_tile": "any"
        }  # fmt: skip

        page.goto(server.url + "/keeper")
        row = page.get_by_test_id("sheet-row")
        expect(row).to_have_attribute("data-sheet-id", sheet_id)
        expect(row).to_contain_text("Sam, P2, P3, P4, P5, and P6")
        expect(row).to_contain_text("playing · 0 turns")
        row.get_by_test_id("open-sheet").click()
        expect(page.get_by_test_id("player")).to_have_count(6)

        page.goto(server.url + "/keeper/no-such-sheet")
        expect(page.get_by_test_id("missing-text")).to_contain_text("no score sheet opens")


#: Whether the notice covers the control with the focus (``null``: no notice, or no focus in
#: the page's bar).
OBSCURED = """() => {
    const box = document.getElementById("notice"), now = document.activeElement;
    if (box.hidden || !now || !now.closest(".bar")) return null;
    const a = box.getBoundingClientRect(), b = now.getBoundingClientRect();
    return a.left < b.right && b.left < a.right && a.top < b.bottom && b.top < a.bottom;
}"""


def test_a_tile_that_cannot_be_had_says_why(server: ServerProcess, pages: Pages) -> None:
    sheet = Sheet(server, ["Ann", "Bob"])
    for count, entry in enumerate(["take 21", "take 22", "take 23", "bust", "take 25"]):
        assert sheet.post("entries", {"entry": entry, "count": count}).is_success
    # Ann holds 21, 23, 25 (top); Bob busted, returning 22 and turning 36; Bob to play.
    with pages.checked():
        phone = pages.open(sheet.url, PHONE)
        expect(phone.get_by_test_id("turn-who")).to_contain_text("Bob to play")
        text, rule = phone.get_by_test_id("notice-text"), phone.get_by_test_id("notice-rule")
        grill_tile(phone, 36).click()
        expect(text).to_have_text("36 is face down: it is out of the game for good")
        expect(rule).to_have_text("rule R16")
        # The notice never hides the control the focus is on (an audit, WCAG 2.4.11: at the
        # top of the screen it covered the bar's controls while Tab went through them).
        phone.evaluate("document.activeElement.blur()")
        hidden_under = []
        for _ in range(8):
            phone.keyboard.press("Tab")
            hidden_under.append(phone.evaluate(OBSCURED))
        assert True in [found is not None for found in hidden_under]  # the bar, notice shown
        assert True not in hidden_under
        player(phone, 0).locator('[data-testid=stack-tile][data-tile="23"]').click()
        expect(text).to_have_text(
            "23 is under the top of Ann's stack: only the top tile can be stolen"
        )
        expect(rule).to_have_text("rule R14")
        grill_tile(phone, 25).click()  # its place on the grill: it is on top of Ann's stack
        expect(text).to_have_text("25 is in Ann's stack: tap it there to enter a steal")
        expect(phone.get_by_test_id("sheet")).to_have_attribute("data-count", "5")  # no entry
        tap(phone, "take 26")
        player(phone, 0).get_by_test_id("stack-top").click()  # Ann's own 25
        expect(text).to_have_text("25 is Ann's own: nobody steals from their own stack")
        expect(rule).to_have_text("rule R11")


def test_a_sheet_opens_only_by_its_link_and_is_listed_where_it_was_opened(
    server: ServerProcess, pages: Pages
) -> None:
    with pages.checked():
        ann = pages.open(server.url + "/keeper")
        names = ann.get_by_test_id("name-input")
        names.nth(0).fill("Ann")
        names.nth(1).fill("Bob")
        ann.get_by_test_id("create-sheet").click()
        tap(ann, "take 25")
        ann.get_by_test_id("share-toggle").click()
        link = ann.get_by_test_id("share-link")
        expect(link).to_have_value(ann.url)  # the address is the whole link, key included
        sheet_id, key = ann.url.rsplit("/", 1)[1].split("#")

        # Another browser does not see the sheet, nor open it without the key.
        other = pages.open(server.url + "/keeper")
        expect(other.get_by_test_id("sheets")).to_contain_text("No score sheet on this browser")
        other.goto(f"{server.url}/keeper/{sheet_id}")
        expect(other.get_by_test_id("missing-text")).to_have_text(
            "no score sheet opens with this link: ask for the sheet's whole link, key included"
        )
        assert httpx.get(f"{server.url}/api/sheets").status_code == 405  # no list to look at

        # With the link it is the same sheet, on both phones, and listed on both.
        other.goto(link.input_value())
        expect(other.get_by_test_id("sheet")).to_have_attribute("data-count", "1")
        tap(other, "bust")
        for page in (ann, other):
            page.goto(server.url + "/keeper")
            row = page.get_by_test_id("sheet-row")
            expect(row).to_have_attribute("data-sheet-id", sheet_id)
            expect(row).to_contain_text("Ann and Bob")
            expect(row).to_contain_text("playing · 2 turns")  # Bob's bust, entered elsewhere
        other.get_by_test_id("open-sheet").click()  # the link kept here has the key
        expect(other).to_have_url(f"{server.url}/keeper/{sheet_id}#{key}")
        other.goto(f"{server.url}/keeper/{sheet_id}")  # the bare address: the key kept here
        expect(other.get_by_test_id("sheet")).to_have_attribute("data-count", "2")
        expect(other).to_have_url(f"{server.url}/keeper/{sheet_id}#{key}")


def test_a_sheet_from_before_keys_is_still_listed_and_opens(
    server: ServerProcess, pages: Pages
) -> None:
    """A sheet stored by the previous version has no key: its id alone opens it, and the
    browser that remembered it as its last sheet lists it."""
    old = ScoreSheet(["Ann", "Bob"], entries=["take 30"])
    store = Store(str(server.database))
    with store.engine.begin() as db:
        db.execute(
            sa.text(
                "INSERT INTO sheets (id, data, status, created, updated, secret)"
                " VALUES ('oldSheet', :data, 'playing', 0, 0, NULL)"
            ),
            {"data": json.dumps(old.to_dict())},
        )
    store.engine.dispose()
    with pages.checked():
        page = pages.open(server.url + "/keeper")
        page.evaluate("localStorage.setItem('pickomino.keeper.sheet', '\"oldSheet\"')")
        page.reload()
        row = page.get_by_test_id("sheet-row")
        expect(row).to_contain_text("Ann and Bob")
        expect(row).to_contain_text("playing · 1 turn")
        row.get_by_test_id("open-sheet").click()
        expect(page).to_have_url(f"{server.url}/keeper/oldSheet")
        expect(player(page, 0).get_by_test_id("stack-top")).to_have_attribute("data-tile", "30")
