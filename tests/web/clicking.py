"""How the browser tests play: games created over the API and played by clicking as people
do, and score sheets kept by tapping."""

from __future__ import annotations

import re

import httpx
import pytest
from playwright.sync_api import Page, expect

from .server_process import ServerProcess

#: The dice of the whole games played by clicking (``serve --dice-seed``): each such game is
#: then the same from run to run (its people click as :data:`QUICK_CHOICE` says), so a
#: failure comes back the same, and the suite's time does not swing with the games' lengths.
#: Chosen among ten seeds for short games: test_browser's whole game takes 181 clicks (134 to
#: 244 over the ten), the languages' 108 (104 to 153), the cluster's 216 (216 to 332 over five).
DICE_SEED = 2


# What the observing page shows once it has moved on from version ``seen`` (``null`` until
# then): the game is over, or a person (which seat) is to move.
PERSON_TO_MOVE = """(seen) => {
    const game = document.querySelector("[data-testid=game]").dataset;
    if (game.seq === seen) return null;
    if (game.over === "true") return {over: true};
    if (game.awaiting) return {over: false, seat: Number(game.awaiting), seq: game.seq};
    return null;
}"""


def create_game(server: ServerProcess, seats: list[dict[str, str]], **options: object) -> dict:
    response = httpx.post(f"{server.url}/api/games", json={"seats": seats, **options})
    response.raise_for_status()
    return response.json()


# What a quick player clicks, read from the page in one go once it shows version ``seq``
# with the controls (``null`` until then): a tile when the turn ends with a choice of them;
# else the worms or the highest face of the roll; stop once a worm is kept and the total is
# 21 (a tile may be there: a game then takes a fifth fewer clicks than stopping at 25, and
# its longest a half); else roll. The answer is a selector for Playwright to click as a
# person would.
QUICK_CHOICE = """(seq) => {
    const game = document.querySelector("[data-testid=game]").dataset;
    if ((seq !== null && game.seq !== seq) || game.yourTurn !== "true") return null;
    if (game.waiting === "true") return null; // its last click's answer is on its way
    if (document.querySelector("[data-testid=claim]")) return "[data-testid=claim] >> nth=0";
    const dice = document.querySelectorAll("[data-testid=roll] button");
    const faces = [...dice].map((die) => die.dataset.face);
    if (faces.length) {
        const face = faces.includes("W") ? "W" : faces.sort().at(-1);
        return `[data-testid=roll] button[data-face="${face}"] >> nth=0`;
    }
    const stop = document.querySelector("[data-testid=stop-button]");
    const total = Number(document.querySelector("[data-testid=total]").dataset.total || 0);
    const worm = document.querySelector('[data-testid=kept] [data-face="W"]') !== null;
    return !stop.disabled && worm && total >= 21
        ? "[data-testid=stop-button]" : "[data-testid=roll-button]";
}"""


def play_one_action(page: Page, seq: str | None = None) -> None:
    """One click of a quick player (:data:`QUICK_CHOICE`), once the page shows version
    ``seq`` (any, if not given) and that it is this player's turn. The page is read in one
    round trip: the whole games of the browser tests are hundreds of these."""
    choice = page.wait_for_function(QUICK_CHOICE, arg=seq, polling=20).json_value()
    page.locator(choice).click()


def play_until_over(observer: Page, players: dict[int, Page], most_actions: int = 2000) -> None:
    """Whoever's page has the controls clicks, until the observer sees the game over; after
    each click the observer must move on from the version it saw."""
    seen = None
    for _ in range(most_actions):
        now = observer.wait_for_function(PERSON_TO_MOVE, arg=seen, polling=20).json_value()
        if now["over"]:
            return
        seen = now["seq"]
        play_one_action(players[now["seat"]], seen)  # on the version the observer saw
    pytest.fail(f"the game was not over after {most_actions} actions")


class Sheet:
    """A sheet made through the API, and requests about it with its key (a second phone)."""

    def __init__(self, server: ServerProcess, names: list[str], **spec: object) -> None:
        response = httpx.post(f"{server.url}/api/sheets", json={"names": names, **spec})
        response.raise_for_status()
        created = response.json()
        self.id, self.url = created["id"], server.url + created["link"]
        self.api, self.headers = f"{server.url}/api/sheets/{self.id}", {"Sheet-Key": created["key"]}

    def get(self) -> dict:
        return httpx.get(self.api, headers=self.headers).raise_for_status().json()

    def post(self, what: str, body: dict | None = None) -> httpx.Response:
        return httpx.post(f"{self.api}/{what}", json=body, headers=self.headers)


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
