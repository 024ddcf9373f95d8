"""The score keeper page in a real browser (see :mod:`tests.web.browser`) against a real
``pickomino serve``: a game played with the real box, entered by tapping as people would.
"""

from __future__ import annotations

import re

import httpx
import pytest
from playwright.sync_api import Page, expect

from pickomino.web.process import ServerProcess

from .browser import PHONE, Pages, browser, no_horizontal_scroll, pages

__all__ = ["browser", "pages"]  # the fixtures the tests below use

# A real server and browser per test: the full run (CI).
pytestmark = pytest.mark.slow


def new_sheet(server: ServerProcess, names: list[str], **spec: object) -> dict:
    response = httpx.post(f"{server.url}/api/sheets", json={"names": names, **spec})
    response.raise_for_status()
    return response.json()


def tap(page: Page, entry: str) -> None:
    """Taps the tile or button entering `entry` and waits for the sheet to show it."""
    sheet = page.get_by_test_id("sheet")
    expect(sheet).to_have_attribute("data-count", re.compile(r"^\d+$"))  # the sheet is drawn
    count = int(sheet.get_attribute("data-count"))
    page.locator(f'[data-testid=sheet] [data-entry="{entry}"]').click()
    expect(sheet).to_have_attribute("data-count", str(count + 1))


def grill_tile(page: Page, number: int):
    return page.get_by_test_id("grill").locator(f'[data-tile="{number}"]')


def player(page: Page, seat: int):
    return page.get_by_test_id("player").nth(seat)


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
        expect(phone).to_have_url(re.compile(r"/keeper/[\w-]+$"))
        sheet = phone.get_by_test_id("sheet")
        expect(sheet).to_have_attribute("data-count", "0")
        expect(phone.get_by_test_id("turn-who")).to_contain_text("Ann to play")
        expect(player(phone, 0)).to_have_attribute("data-current", "true")
        expect(phone.get_by_test_id("undo-button")).to_be_disabled()
        expect(grill_tile(phone, 27)).to_have_attribute("data-entry", "take 27")
        assert no_horizontal_scroll(phone)

        tap(phone, "take 27")  # Ann takes 27 off the grill
        expect(grill_tile(phone, 27)).to_have_attribute("data-where", "taken")
        expect(player(phone, 0).get_by_test_id("player-worms")).to_have_text("2")
        expect(player(phone, 1)).to_have_attribute("data-current", "true")
        # Bob steals it: tapping the top of Ann's stack, the only stack with a tile.
        expect(phone.get_by_test_id("option")).to_have_accessible_name("Stole 27 from Ann")
        top = player(phone, 0).get_by_test_id("stack-top")
        expect(top).to_have_attribute("data-entry", "steal 27")
        top.click()
        expect(sheet).to_have_attribute("data-count", "2")
        expect(player(phone, 0).get_by_test_id("stack")).to_have_text("no tiles yet")
        expect(player(phone, 1).get_by_test_id("stack-top")).to_have_attribute("data-tile", "27")
        expect(phone.get_by_test_id("last-turn")).to_contain_text("Bob stole 27 from Ann")

        tap(phone, "bust")  # Cy has nothing to return: nothing is turned
        expect(phone.get_by_test_id("last-turn")).to_have_text("Turn 3: Cy · Cy busts")
        expect(phone.get_by_test_id("grill").locator('[data-where="down"]')).to_have_count(0)
        tap(phone, "take 22")
        tap(phone, "bust")  # Bob returns 27 and the highest tile, 36, is turned face down
        expect(grill_tile(phone, 27)).to_have_attribute("data-where", "grill")
        expect(grill_tile(phone, 36)).to_have_attribute("data-where", "down")
        expect(phone.get_by_test_id("grill").locator("[data-entry]")).to_have_count(14)
        expect(player(phone, 1).get_by_test_id("player-worms")).to_have_text("0")
        expect(phone.get_by_test_id("log-line").last).to_have_text("36 is turned face down")

        phone.get_by_test_id("undo-button").click()
        expect(sheet).to_have_attribute("data-count", "4")
        expect(grill_tile(phone, 36)).to_have_attribute("data-where", "grill")
        expect(player(phone, 1).get_by_test_id("stack-top")).to_have_attribute("data-tile", "27")
        expect(phone.get_by_test_id("turn-who")).to_contain_text("Bob to play")
        phone.get_by_test_id("redo-button").click()
        expect(sheet).to_have_attribute("data-count", "5")
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
        expect(phone.get_by_test_id("resume-last")).to_contain_text("Ann, Bob, Cy · 5 turns")
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
        expect(phone.get_by_test_id("result")).to_have_text(
            "1. Cy 13 worms, highest tile 35; 2. Ann 13 worms, highest tile 34; 3. Bob 10 worms,"
            " highest tile 33 (Cy wins the tie on worms with the highest tile, R20)"
        )
        expect(phone.get_by_test_id("turn-card")).to_be_hidden()
        expect(phone.get_by_test_id("dice-helper")).to_be_hidden()
        expect(phone.locator("[data-testid=sheet] [data-entry]")).to_have_count(0)
        expect(phone.get_by_test_id("undo-button")).to_be_enabled()
        assert no_horizontal_scroll(phone)


def test_an_entry_from_a_stale_page_is_refused_and_nothing_is_lost(
    server: ServerProcess, pages: Pages
) -> None:
    sheet = new_sheet(server, ["Ann", "Bob"])
    api = f"{server.url}/api/sheets/{sheet['id']}"
    with pages.checked():
        page = pages.open(f"{server.url}/keeper/{sheet['id']}")
        tap(page, "take 27")
        steal = page.get_by_test_id("option")
        expect(steal).to_have_attribute("data-entry", "steal 27")

        # Meanwhile another phone undoes Ann's 27 and enters 25 instead: same count, so
        # the server checks the entry itself.
        assert page.request.post(f"{api}/undo").ok
        assert page.request.post(f"{api}/entries", data={"entry": "take 25", "count": 0}).ok
        steal.click()
        expect(page.get_by_test_id("notice-text")).to_have_text(
            "27 is not on top of another player's stack (tops: 25)"
        )
        expect(player(page, 0).get_by_test_id("stack-top")).to_have_attribute("data-tile", "25")
        expect(page.get_by_test_id("option")).to_have_attribute("data-entry", "steal 25")
        assert page.request.get(api).json()["table"]["stacks"] == [[25], []]

        # Bob's bust entered elsewhere, then tapped again on this page: a stale count.
        assert page.request.post(f"{api}/entries", data={"entry": "bust", "count": 1}).ok
        page.get_by_test_id("notice-close").click()
        page.get_by_test_id("bust-button").click()
        expect(page.get_by_test_id("notice-text")).to_contain_text("the sheet changed meanwhile")
        expect(page.get_by_test_id("notice-text")).to_contain_text("reloaded")
        expect(page.get_by_test_id("sheet")).to_have_attribute("data-count", "2")
        expect(page.get_by_test_id("turn-who")).to_contain_text("Ann to play")
        assert page.request.get(api).json()["count"] == 2  # one bust, not two


def test_the_dice_helper_advises_on_a_roll(server: ServerProcess, pages: Pages) -> None:
    sheet = new_sheet(server, ["Ann", "Bob"])
    api = f"{server.url}/api/sheets/{sheet['id']}"
    with pages.checked():
        phone = pages.open(f"{server.url}/keeper/{sheet['id']}", PHONE)
        phone.get_by_test_id("dice-helper-toggle").click()
        expect(phone.get_by_test_id("advice-for")).to_have_text(re.compile("^For Ann"))
        rolled = phone.get_by_test_id("rolled-add")
        for face in "1135WW44":
            rolled.locator(f'[data-face="{face}"]').click()
        expect(phone.get_by_test_id("rolled-count")).to_have_text("8 dice")
        expect(rolled.locator("button").first).to_be_disabled()  # 8 dice in all

        def advice_matches(kept: str, roll: str | None) -> dict:
            report = phone.request.post(f"{api}/dice", data={"kept": kept, "rolled": roll}).json()
            phone.get_by_test_id("advise-button").click()
            best = phone.get_by_test_id("advice-best")
            expect(best).to_have_attribute("data-action", report["best"])
            first = report["choices"][0]
            expect(best).to_contain_text(f"{round(first['tile'] * 100)}% chance of a tile")
            expect(best).to_contain_text(f"{round(first['bust'] * 100)}% bust risk")
            rows = phone.get_by_test_id("hint-row")
            expect(rows).to_have_count(len(report["choices"]))
            expect(rows.first).to_have_attribute("data-action", report["best"])
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
            "3 dice rolled, but 6 are left after keeping 2 (R5)"
        )
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
        expect(page.get_by_test_id("sheets")).to_contain_text("No score sheet yet")
        names = page.get_by_test_id("name-input")
        names.nth(0).fill("Sam")
        names.nth(1).fill("Sam")
        expect(page.get_by_test_id("remove-name").first).to_be_disabled()  # 2 at least
        page.get_by_test_id("create-sheet").click()
        expect(page.get_by_test_id("setup-error")).to_have_text(
            "each player needs a different name"
        )
        for _ in range(5):
            page.get_by_test_id("add-name").click()
        expect(page.get_by_test_id("add-name")).to_be_disabled()  # 7 at most
        expect(names).to_have_count(7)
        page.get_by_test_id("remove-name").nth(6).click()
        for n in range(1, 6):
            names.nth(n).fill(f"P{n + 1}")
        page.get_by_test_id("start-player").select_option(label="P3")
        page.get_by_test_id("rules-preset").select_option("short")
        page.get_by_test_id("opt-lower").select_option("any")
        expect(page.get_by_test_id("rules-preset")).to_have_value("custom")
        page.get_by_test_id("create-sheet").click()
        expect(page.get_by_test_id("turn-who")).to_contain_text("P3 to play")
        sheet_id = page.url.rsplit("/", 1)[1]
        rules = page.request.get(f"{server.url}/api/sheets/{sheet_id}").json()["rules"]
        assert rules == {
            "flip_returned_highest": True, "exact_match_mandatory": False, "lower_tile": "any"
        }  # fmt: skip

        page.goto(server.url + "/keeper")
        row = page.get_by_test_id("sheet-row")
        expect(row).to_have_attribute("data-sheet-id", sheet_id)
        expect(row).to_contain_text("Sam, P2, P3, P4, P5, P6")
        expect(row).to_contain_text("playing · 0 turns")
        row.get_by_test_id("open-sheet").click()
        expect(page.get_by_test_id("player")).to_have_count(6)

        page.goto(server.url + "/keeper/no-such-sheet")
        expect(page.get_by_test_id("missing-text")).to_contain_text("there is no score sheet")
