"""Profiles, ratings and absent people in the browser (the system Chromium against a real
``pickomino serve``): names claimed and a recovery code carried to another device, a rated
game between two profiles and a bot that took an absent person's seat, and the leaderboard
and profile pages after it."""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest
from playwright.sync_api import Page, expect

from pickomino.web.db.store import Store

from .browser import Pages
from .clients import profile_store
from .server_process import ServerProcess
from .test_profiles import establish, finish_offline

pytestmark = pytest.mark.slow  # a real server and browser


def claim_name(page: Page, name: str) -> str:
    """Claims ``name`` in the lobby's profile panel; the recovery code it shows."""
    page.get_by_test_id("profile-name").fill(name)
    page.get_by_test_id("claim-name").click()
    code = page.get_by_test_id("recovery-code")
    expect(code).to_have_value(re.compile(r"^[0-9A-Z]{4}(-[0-9A-Z]{1,4}){8}$"))
    expect(page.get_by_test_id("my-profile-link")).to_have_text(name)
    return code.input_value()


def claim_from(url: str, name: str, address: str) -> str:
    """Claims ``name`` through the API from another loopback address (another person: two
    profiles claimed from one /24 do not rate each other); its recovery code."""
    transport = httpx.HTTPTransport(local_address=address)
    with httpx.Client(transport=transport) as client:
        answer = client.post(url + "/api/profiles", json={"name": name})
    assert answer.status_code == 201, answer.text
    return answer.json()["code"]


@pytest.fixture
def behind_a_proxy(tmp_path: Path) -> Iterator[ServerProcess]:
    """A server that takes the address its loopback proxy forwards (``X-Forwarded-For``):
    two browsers on this one machine are two people at two addresses. (Two profiles whose
    seats are played from one address do not rate each other.)"""
    options = ("--forwarded-allow-ips", "127.0.0.1")
    running = ServerProcess(tmp_path / "games.sqlite3", options=options).start()
    yield running
    running.stop()


def test_two_profiles_play_a_rated_game_and_the_leaderboard_shows_it(
    behind_a_proxy: ServerProcess, pages: Pages
) -> None:
    server = behind_a_proxy
    with pages.checked():
        ann = pages.open(server.url + "/")
        claim_name(ann, "Ann")
        code = claim_from(server.url, "Bob", "127.0.1.2")  # another /24: another person
        bob = pages.new()  # another device, at another address: the code brings Bob there
        bob.context.set_extra_http_headers({"X-Forwarded-For": "198.51.100.20"})
        bob.goto(server.url + "/")
        bob.get_by_test_id("import-code").fill(code.lower().replace("-", " "))
        bob.get_by_test_id("import-profile").click()
        expect(bob.get_by_test_id("my-profile-link")).to_have_text("Bob")
        bob.goto(server.url + "/leaderboard")
        expect(bob.get_by_test_id("leaderboard-empty")).to_be_visible()

        # Ann creates a rated game for herself, Bob and Cy; Cy never comes.
        names, kinds = ann.get_by_test_id("seat-name"), ann.get_by_test_id("seat-kind")
        names.nth(0).fill("Ann")
        kinds.nth(1).select_option("")
        names.nth(1).fill("Bob")
        ann.get_by_test_id("create-game").click()  # Bob's name is his profile's: refused
        expect(ann.get_by_test_id("form-error")).to_contain_text("Bob is a player's profile")
        names.nth(1).fill("Robert")
        ann.get_by_test_id("add-seat").click()
        names.nth(2).fill("Cy")
        expect(ann.get_by_test_id("rated")).to_be_checked()
        ann.get_by_test_id("create-game").click()
        invite = ann.get_by_test_id("invite").filter(has_text="Robert")
        bob_link = invite.get_by_test_id("invite-link").input_value()
        ann.get_by_test_id("take-seat").click()
        absent = ann.get_by_test_id("absent-seat")
        expect(absent).to_have_count(2)
        cy = absent.filter(has_text="Cy")
        cy.get_by_test_id("bot-level").select_option("easy")
        cy.get_by_test_id("give-to-bot").click()
        expect(ann.get_by_test_id("absent-seat")).to_have_count(1)
        expect(ann.get_by_test_id("player-name").nth(2)).to_have_text("Bot 3")

        asked: list[str] = []  # a rated game: his page asks before his profile takes it
        bob.once("dialog", lambda dialog: (asked.append(dialog.message), dialog.accept()))
        bob.goto(bob_link)  # his invite link: he takes the seat as his profile
        for page in (ann, bob):
            expect(page.get_by_test_id("game")).to_have_attribute("data-status", "playing")
        assert len(asked) == 1 and "rated" in asked[0] and "Bob" in asked[0]
        bob_name = ann.get_by_test_id("player-name").nth(1)
        expect(bob_name).to_have_text("Bob")
        expect(bob_name).to_have_attribute("href", re.compile(r"^/profiles/[0-9a-z]{10}$"))
        for page in (ann, bob):  # a rated game is played without the coach and the hint
            expect(page.get_by_test_id("coach-setup")).to_be_hidden()
            expect(page.get_by_test_id("hint-button")).to_have_count(0)
        to_move = ann.locator("[data-testid=player][aria-current=true]")
        expect(to_move).to_have_attribute("data-seat", re.compile("^[01]$"))  # a person's turn
        mover = ann if to_move.get_attribute("data-seat") == "0" else bob
        mover.keyboard.press("h")  # the keyboard help lists H: here it says why there is none
        expect(mover.get_by_test_id("notice-text")).to_have_text(
            "a rated game is played without the hint and the coach"
        )
        game_id = ann.url.rstrip("/").split("/")[-1]

        # The rest of the game is played by bots while the server is down; it ends at start.
        # Ann has met five other people's profiles before (stored behind the server's back):
        # her games move the bot's rating too.
        server.stop()
        ann_id = ann.evaluate("JSON.parse(localStorage.getItem('pickomino.profile')).id")
        store = Store(str(server.database))
        try:
            establish(store.engine, ann_id)
        finally:
            store.close()
        finish_offline(str(server.database), {"id": game_id})
        server.start()
        ann.reload()
        expect(ann.get_by_test_id("end-panel")).to_be_visible()

        ann.get_by_test_id("lobby-link").click()
        ann.get_by_test_id("leaderboard-link").click()
        rows = ann.get_by_test_id("board-row")
        expect(rows).to_have_count(3)  # Ann, Bob and the easy bot
        for name in ("Ann", "Bob", "Bot: Easy"):
            row = rows.filter(has_text=name)
            expect(row).to_have_attribute("data-games", "1")
            expect(row).not_to_have_attribute("data-ordinal", "0")
            expect(row.get_by_test_id("provisional")).to_be_visible()  # one game, few opponents
        # The game's review, made at the start and kept with the results: asking for it
        # waits for it.
        review = ann.request.get(f"{server.url}/api/games/{game_id}/analysis")
        decisions = review.json()["players"][1]["decisions"]
        rows.filter(has_text="Bob").get_by_test_id("player-link").click()
        expect(ann.get_by_test_id("profile-name")).to_have_text("Bob")
        expect(ann.get_by_test_id("stat-games")).to_contain_text("1")
        expect(ann.get_by_test_id("chart-line")).to_have_count(1)
        expect(ann.get_by_test_id("result-row")).to_have_count(1)
        shown = ann.request.get(server.url + "/api/profiles/" + ann.url.split("/")[-1]).json()
        accuracy = str(round(shown["accuracy"]["value"]))
        expect(ann.get_by_test_id("stat-accuracy")).to_contain_text(accuracy)
        expect(ann.get_by_test_id("accuracy-note")).to_contain_text(
            f"In the last reviewed game ({decisions} decisions). Luck of the dice: "
        )
        expect(ann.get_by_test_id("result-review")).to_contain_text(f"accuracy {accuracy}, luck")


def test_the_creator_calls_off_a_game_nobody_came_to(server: ServerProcess, pages: Pages) -> None:
    with pages.checked():
        ann = pages.open(server.url + "/")
        names = ann.get_by_test_id("seat-name")
        names.nth(0).fill("Ann")
        ann.get_by_test_id("seat-kind").nth(1).select_option("")  # a person, invited
        names.nth(1).fill("Bob")
        ann.get_by_test_id("create-game").click()
        ann.get_by_test_id("take-seat").click()
        expect(ann.get_by_test_id("absent-seat")).to_have_count(1)  # Bob never comes
        ann.once("dialog", lambda dialog: dialog.dismiss())  # asked first: not this time
        ann.get_by_test_id("cancel-game").click()
        expect(ann.get_by_test_id("game")).to_have_attribute("data-status", "open")
        ann.once("dialog", lambda dialog: dialog.accept())
        ann.get_by_test_id("cancel-game").click()
        expect(ann.get_by_test_id("game")).to_have_attribute("data-status", "abandoned")
        expect(ann.get_by_test_id("end-panel")).to_be_visible()


def test_a_game_the_player_left_says_so_on_their_page(server: ServerProcess, pages: Pages) -> None:
    """A result counted as left (a stand-in played the seat): the page says where it counted."""
    answer = httpx.post(server.url + "/api/profiles", json={"name": "Ann"})
    assert answer.status_code == 201, answer.text
    ann = answer.json()["id"]
    store = Store(str(server.database))
    profiles = profile_store(store)
    try:  # a rated game against a bot that Ann's stand-in played, as a game's end records it
        ranking = [{"seat": 0, "rank": 1, "worms": 9}, {"seat": 1, "rank": 2, "worms": 3}]
        meta = {"rated": True, "profiles": [ann, None], "bots": [None, "easy"], "left": [0]}
        profiles.expect_results("leftgame")
        assert profiles.record("leftgame", {**meta, "ranking": ranking}, 2)
    finally:
        store.close()
    with pages.checked():
        page = pages.open(f"{server.url}/profiles/{ann}")
        expect(page.get_by_test_id("result-row")).to_contain_text(
            "Left the game: counted as place 2 of 2"
        )
