"""The web pages in a real browser: the system Chromium driven by Playwright against a real
``pickomino serve`` (the ``server`` fixture), people playing by clicking as they would.

On failure every page the test opened is saved as ``test-artifacts/<test name>[-n].png``
(see :mod:`tests.web.browser`).
"""

from __future__ import annotations

import random
import re

import pytest
from playwright.sync_api import Page, Route, WebSocketRoute, expect

from pickomino.bots import make_bot
from pickomino.core import Game
from pickomino.core.events import tie_break
from pickomino.web.db.store import Store

from .browser import PHONE, Pages, no_horizontal_scroll, relayed_page
from .clicking import create_game, play_until_over
from .clients import age
from .server_process import ServerProcess

# A real server and browser per test, whole games played by clicking: the full run (CI).
pytestmark = pytest.mark.slow


def store_moves(server: ServerProcess, moves: dict[str, list[str]]) -> None:
    """Write games' moves to the database while the server is stopped, as if they had been
    played: the server replays them when it starts again."""
    server.stop()
    store = Store(str(server.database))
    try:
        for game_id, game_moves in moves.items():
            store.append_moves(game_id, 0, game_moves)
    finally:
        store.close()
    server.start()


#: Marks the first element each selector finds; then whether each is still the marked one.
MARK_ELEMENTS = "(selectors) => selectors.forEach((s) => { document.querySelector(s).marked = 1 })"
STILL_MARKED = "(selectors) => selectors.map((s) => document.querySelector(s)?.marked === 1)"


def self_play(seed: int) -> Game:
    """A whole game of Ann and Robo, both played by the simple bot."""
    game, rng = Game(["Ann", "Robo"]), random.Random(seed)
    bots = [make_bot("simple", seed), make_bot("simple", seed + 1)]
    while not game.state.is_over:
        if game.state.is_chance():
            game.roll_random(rng)
        else:
            game.play(bots[game.state.current].choose(game.state))
    return game


# ------------------------------------------------------------------------- tests
@pytest.mark.long
def test_two_people_and_a_bot_play_a_whole_game(instant_bots: ServerProcess, pages: Pages) -> None:
    with pages.checked():
        ann = pages.open(instant_bots.url + "/")
        names, kinds = ann.get_by_test_id("seat-name"), ann.get_by_test_id("seat-kind")
        names.nth(0).fill("Ann")
        kinds.nth(1).select_option("")  # a person
        names.nth(1).fill("Bob")
        ann.get_by_test_id("add-seat").click()
        kinds.nth(2).select_option("medium")  # a bot that scores ends the game sooner
        names.nth(2).fill("Robo")
        ann.get_by_test_id("create-game").click()

        bob_link = ann.get_by_test_id("invite").filter(has_text="Bob").get_by_test_id("invite-link")
        expect(bob_link).to_have_value(re.compile(r"/games/.+\?token="))
        invite = bob_link.input_value()
        # Served on loopback: the page says friends elsewhere cannot open these links.
        expect(ann.get_by_test_id("loopback-warning")).to_contain_text("only this computer")
        ann.get_by_test_id("take-seat").click()
        expect(ann.get_by_test_id("waiting")).to_contain_text("Waiting for Bob")
        bob = pages.open(invite)
        for page in (ann, bob):
            expect(page.get_by_test_id("game")).to_have_attribute("data-status", "playing")
        expect(ann.get_by_test_id("waiting")).to_be_hidden()

        play_until_over(ann, {0: ann, 1: bob})

        turns = ann.get_by_test_id("game").get_attribute("data-turn")
        for page in (ann, bob):
            expect(page.get_by_test_id("end-panel")).to_be_visible()
            expect(page.get_by_test_id("rank")).to_have_count(3)
            expect(page.get_by_test_id("verdict")).to_have_text(
                re.compile("^(You won|You lost|Shared win)$")
            )
        expect(ann.get_by_test_id("chart-line")).to_have_count(3)
        expect(ann.get_by_test_id("chart-legend")).to_contain_text("Ann")

        # The replay steps through the turns, table and log lines included.
        step = ann.get_by_test_id("replay-turn")
        expect(step).to_contain_text(re.compile(r"^Turn \d+"))
        ann.get_by_test_id("replay-first").click()
        expect(step).to_contain_text("Start")
        ann.get_by_test_id("replay-next").click()
        expect(step).to_have_text("Turn 1 – Ann")
        expect(ann.get_by_test_id("replay-lines")).to_contain_text("Ann rolled")
        ann.get_by_test_id("replay-next").click()
        expect(step).to_have_text("Turn 2 – Bob")
        ann.get_by_test_id("replay-prev").click()
        expect(step).to_have_text("Turn 1 – Ann")
        ann.get_by_test_id("replay-slider").press("End")
        expect(ann.get_by_test_id("replay-next")).to_be_disabled()
        expect(ann.get_by_test_id("replay-table").get_by_test_id("tile")).to_have_count(16)

        record = ann.request.get(
            instant_bots.url + ann.get_by_test_id("download-record").get_attribute("href")
        )
        assert record.ok and record.json()["seats"] == ["Ann", "Bob", "Robo"]

        # The lobby lists the finished game with its turns and a way to its replay.
        ann.goto(instant_bots.url + "/")
        expect(ann.get_by_test_id("games-over").get_by_test_id("game-row")).to_contain_text(
            f"{turns} turns"
        )
        ann.get_by_test_id("games-over").get_by_test_id("replay-game").first.click()
        expect(ann.get_by_test_id("replay")).to_be_visible()


def test_reload_and_reconnect_keep_the_seat(server: ServerProcess, pages: Pages) -> None:
    game = create_game(server, [{"name": "Ann"}, {"name": "Robo", "bot": "easy"}])
    with pages.checked():
        ann = pages.open(server.url + game["seats"][0]["link"])
        root = ann.get_by_test_id("game")
        expect(root).to_have_attribute("data-seat", "0")
        # The token is kept by the browser, not in the address: copying it gives nothing away.
        expect(ann).to_have_url(f"{server.url}/games/{game['id']}")
        # A move that leaves the grill and the players as they were does not draw them again
        # (the same elements stay: nothing to lay out and paint).
        unchanged = ["[data-testid=grill] [data-tile]", "[data-testid=player]"]
        ann.evaluate(MARK_ELEMENTS, unchanged)
        ann.get_by_test_id("roll-button").click()
        expect(root).to_have_attribute("data-phase", "keep")
        ann.get_by_test_id("roll").locator("button").first.click()
        expect(root).to_have_attribute("data-seq", "2")
        assert ann.evaluate(STILL_MARKED, unchanged) == [True, True]
        assert ann.evaluate(STILL_MARKED, ["[data-testid=kept] .die"]) == [False]  # drawn
        lines = ann.get_by_test_id("log-line").count()

        ann.reload()
        expect(root).to_have_attribute("data-seat", "0")
        expect(root).to_have_attribute("data-seq", "2")
        expect(root).to_have_attribute("data-turn", "1")
        expect(ann.get_by_test_id("log-line")).to_have_count(lines)
        expect(ann.get_by_test_id("player").nth(0).get_by_test_id("you-marker")).to_be_visible()
        expect(ann.get_by_test_id("stop-button")).to_be_enabled()

        # The plain game link reopens the seat this browser remembers.
        ann.goto(f"{server.url}/games/{game['id']}")
        expect(root).to_have_attribute("data-seat", "0")
        expect(ann.get_by_test_id("watching-banner")).to_be_hidden()
        expect(ann.get_by_test_id("stop-button")).to_be_enabled()

        # A dropped connection comes back by itself, and play goes on.
        connection = ann.get_by_test_id("connection")
        expect(connection).to_have_attribute("data-status", "online")
        server.kill()
        expect(connection).to_have_attribute("data-status", re.compile("offline|connecting"))
        server.start()
        expect(connection).to_have_attribute("data-status", "online", timeout=20_000)
        ann.get_by_test_id("roll-button").click()
        expect(root).not_to_have_attribute("data-seq", "2")
        expect(root).to_have_attribute("data-phase", "keep")


def test_a_page_the_server_drops_says_why_and_reconnects(
    server: ServerProcess, pages: Pages
) -> None:
    game = create_game(server, [{"name": "Ann"}, {"name": "Robo", "bot": "easy"}])
    with pages.checked():
        ann, sockets = relayed_page(pages, server.url + game["seats"][0]["link"])
        connection = ann.get_by_test_id("connection")
        expect(connection).to_have_attribute("data-status", "online")
        said = ann.get_by_test_id("connection-said")  # the status region: no word yet
        expect(said).to_have_text("")
        sockets[0][0].close(code=4408, reason="too far behind")  # as the server drops a laggard
        expect(connection).to_contain_text(re.compile(r"^fell behind: reconnecting in \d"))
        expect(said).to_have_text("fell behind")  # once: not the countdown, not each try
        expect(connection).to_have_attribute("data-status", "online")
        expect(said).to_have_text("online")
        ann.get_by_test_id("roll-button").click()
        expect(ann.get_by_test_id("game")).to_have_attribute("data-seq", "1")
        sockets[1][0].close(code=4410, reason="idle")  # as the server closes a silent socket
        expect(connection).to_contain_text(re.compile(r"^quiet for too long: reconnecting in \d"))
        expect(connection).to_have_attribute("data-status", "online")
        assert len(sockets) == 3


def test_a_page_that_misses_a_change_asks_for_the_whole_state(
    server: ServerProcess, pages: Pages
) -> None:
    """Updates come as changes from the version the page holds: with one of them lost on the
    way (dropped by a relay), the next no longer applies, so the page asks ``sync`` and
    shows the game as it is, not a table with a move missing."""
    game = create_game(server, [{"name": "Ann"}, {"name": "Bob"}], start_player=1)
    sent: list[str] = []
    dropped: list[str] = []

    def relay(page_side: WebSocketRoute) -> None:
        server_side = page_side.connect_to_server()

        def from_server(message: str | bytes) -> None:
            if not dropped and isinstance(message, str) and '"type":"change"' in message:
                dropped.append(message)  # lost on the way
            else:
                page_side.send(message)

        def from_page(message: str | bytes) -> None:
            sent.append(str(message))
            server_side.send(message)

        server_side.on_message(from_server)
        page_side.on_message(from_page)

    with pages.checked():
        ann = pages.new()
        ann.route_web_socket(re.compile(r"/ws/games/"), relay)
        ann.goto(server.url + game["seats"][0]["link"])
        bob = pages.open(server.url + game["seats"][1]["link"])
        bobs = bob.get_by_test_id("game")
        expect(bobs).to_have_attribute("data-your-turn", "true")  # Bob's seat taken: the
        # change that says so (the game has begun) is the one Ann's page does not get
        bob.get_by_test_id("roll-button").click()
        expect(bobs).to_have_attribute("data-phase", "keep")
        bob.get_by_test_id("roll").locator("button").first.click()
        expect(bobs).to_have_attribute("data-seq", "2")
        expect(ann.get_by_test_id("game")).to_have_attribute("data-seq", "2")  # it asked
        expect(ann.get_by_test_id("game")).to_have_attribute("data-status", "playing")
        assert dropped and '{"type":"sync"}' in [text.replace(" ", "") for text in sent]
        # the log as a page that lost nothing shows it: no line missing, none twice
        lines = bob.get_by_test_id("log-line").all_inner_texts()
        assert lines and ann.get_by_test_id("log-line").all_inner_texts() == lines
        assert ann.get_by_test_id("kept").inner_text() == bob.get_by_test_id("kept").inner_text()


def test_a_spectator_sees_everything_but_has_no_controls(
    server: ServerProcess, pages: Pages
) -> None:
    game = create_game(server, [{"name": "Ann"}, {"name": "Robo", "bot": "easy"}])
    with pages.checked():
        ann = pages.open(server.url + game["seats"][0]["link"])
        watcher = pages.open(f"{server.url}/games/{game['id']}")
        expect(watcher.get_by_test_id("watching-banner")).to_be_visible()
        expect(watcher.get_by_test_id("player-name")).to_have_text(["Ann", "Robo"])
        expect(watcher.get_by_test_id("grill").get_by_test_id("tile")).to_have_count(16)
        expect(watcher.get_by_test_id("player").nth(0)).to_have_attribute("data-current", "true")
        expect(watcher.get_by_test_id("online-dot")).to_have_attribute("data-online", "true")
        expect(ann.get_by_test_id("watching-banner")).to_be_hidden()

        ann.get_by_test_id("roll-button").click()
        expect(watcher.get_by_test_id("game")).to_have_attribute("data-seq", "1")
        expect(watcher.get_by_test_id("roll").get_by_test_id("die")).to_have_count(8)
        expect(watcher.get_by_test_id("log")).to_contain_text("Ann rolled")
        expect(watcher.get_by_test_id("controls")).to_be_hidden()
        expect(watcher.locator("main button:visible")).to_have_count(0)

        # The person to move can ask for a hint: one row per face they may keep.
        keeps = (
            ann.get_by_test_id("roll")
            .locator("button")
            .evaluate_all("dice => new Set(dice.map(d => d.dataset.face)).size")
        )
        ann.get_by_test_id("hint-button").click()
        expect(ann.get_by_test_id("hint-row")).to_have_count(keeps)
        expect(ann.get_by_test_id("hint-table")).to_contain_text("Bust risk")
        # win chance first, best first: the column after the choice falls from row to row
        header = ann.get_by_test_id("hint-table").locator("thead th")
        expect(header.nth(1)).to_have_text("Win chance")
        wins = ann.get_by_test_id("hint-row").evaluate_all(
            "rows => rows.map(row => parseFloat(row.cells[1].textContent))"
        )
        assert wins == sorted(wins, reverse=True) and all(0 < win < 100 for win in wins)
        # An audit: the table is no live region, and the focus stays: a screen reader heard
        # nothing. The best choice and its chance are said, as the table's first row shows.
        best = (
            ann.get_by_test_id("hint-row")
            .first.locator("th")
            .evaluate("th => th.firstChild.textContent")
        )
        chance = ann.get_by_test_id("hint-row").first.locator("td").first.text_content()
        said = f"Hint: best is {best}, win chance {chance}"
        expect(ann.get_by_test_id("announcement").filter(has_text="Hint:")).to_have_text([said])


def test_refusals_are_shown(server: ServerProcess, pages: Pages) -> None:
    with pages.checked():
        lobby = pages.open(server.url + "/")
        names = lobby.get_by_test_id("seat-name")
        names.nth(0).fill("")
        expect(lobby.get_by_test_id("start-player").locator("option")).to_have_text(
            ["Random", "Player 1", "Player 2: Bot 2"]  # no "Player 1: ?" for a name not typed
        )
        names.nth(0).fill("Sam")
        names.nth(1).fill(" sam")  # the same name: case and spaces do not count
        lobby.get_by_test_id("create-game").focus()
        lobby.keyboard.press("Enter")
        error = lobby.get_by_test_id("seat-row").nth(1).get_by_test_id("row-error")
        expect(error).to_have_text("players 1 and 2 have the same name 'Sam'")
        expect(names.nth(0)).to_have_attribute("aria-invalid", "true")
        expect(lobby.get_by_test_id("form-error")).to_be_hidden()
        # An audit: the focus fell to the page's body (the button, disabled while sending,
        # lost it) and the message was tied to no field. It goes to the first name to mend,
        # which the message describes.
        expect(names.nth(0)).to_be_focused()
        for name in (names.nth(0), names.nth(1)):
            expect(name).to_have_attribute("aria-describedby", error.get_attribute("id"))
        names.nth(1).fill("Bob")  # an edit clears the marks
        expect(error).to_have_count(0)
        expect(names.nth(0)).not_to_have_attribute("aria-invalid", "true")
        expect(names.nth(0)).not_to_have_attribute("aria-describedby", re.compile("."))
        # A name's own problem (an invisible character) is shown at its row too, not only
        # above the form.
        names.nth(1).fill("Bo\u200bb")
        lobby.get_by_test_id("create-game").click()
        error = lobby.get_by_test_id("seat-row").nth(1).get_by_test_id("row-error")
        expect(error).to_contain_text("Player 2: a name may not hold invisible characters")
        expect(names.nth(1)).to_have_attribute("aria-invalid", "true")
        expect(names.nth(1)).to_be_focused()
        expect(lobby.get_by_test_id("form-error")).to_be_hidden()
        names.nth(1).fill("Bob")

        # The server refuses a move (here one changed on its way): the page says why and
        # lets the player go on.
        game = create_game(server, [{"name": "Ann"}, {"name": "Robo", "bot": "easy"}])

        def tamper(socket: WebSocketRoute) -> None:
            server_side = socket.connect_to_server()
            socket.on_message(lambda message: server_side.send(message.replace("roll", "stop")))

        ann = pages.new()
        ann.route_web_socket(re.compile(r"/ws/games/"), tamper)
        ann.goto(server.url + game["seats"][0]["link"])
        ann.get_by_test_id("roll-button").click()
        expect(ann.get_by_test_id("notice-text")).to_have_text(
            "you cannot stop now: the dice must be rolled first"
        )
        expect(ann.get_by_test_id("notice-rule")).to_have_text("rule R8")
        expect(ann.get_by_test_id("rule-link")).to_have_attribute("href", "/rules#R8")
        expect(ann.get_by_test_id("roll-button")).to_be_enabled()
        ann.get_by_test_id("notice-close").click()
        expect(ann.get_by_test_id("notice")).to_be_hidden()

        # A link with a forged seat token: the reason shows and the page stops trying.
        forged = pages.open(f"{server.url}/games/{game['id']}?token=forged")
        expect(forged.get_by_test_id("fatal")).to_contain_text("not valid")
        expect(forged.locator("#announcer")).to_contain_text("not valid")  # heard too (an audit)
        expect(forged.get_by_test_id("connection")).to_have_attribute("data-status", "closed")
        forged.goto(f"{server.url}/games/no-such-game")
        expect(forged.get_by_test_id("fatal")).to_contain_text("there is no game")


def test_the_lobby_offers_only_open_seats(server: ServerProcess, pages: Pages) -> None:
    invited = create_game(server, [{"name": "Ann"}, {"name": "Bob"}])
    with pages.checked():
        # The creator makes a game with a friend's open seat, in the form.
        ann = pages.open(server.url + "/")
        addresses: list[str] = []  # every request's: none carries a seat's secret (the logs)
        ann.on("request", lambda request: addresses.append(request.url))
        names, kinds = ann.get_by_test_id("seat-name"), ann.get_by_test_id("seat-kind")
        names.nth(0).fill("Ann")
        kinds.nth(1).select_option("open")
        expect(names.nth(1)).to_have_value("Guest 2")
        ann.get_by_test_id("create-game").click()
        expect(ann.get_by_test_id("open-seat")).to_contain_text("anyone can join")
        expect(ann.get_by_test_id("invite-link")).to_have_count(1)  # Ann's own
        ann.get_by_test_id("take-seat").click()
        expect(ann.get_by_test_id("waiting")).to_contain_text("Waiting for Guest 2")

        lobby = pages.open(server.url + "/")
        lobby.on("request", lambda request: addresses.append(request.url))
        rows = lobby.get_by_test_id("games-open").get_by_test_id("game-row")
        only_invited = lobby.locator(f'[data-game-id="{invited["id"]}"]')
        expect(only_invited).to_contain_text("waiting for invited players")
        expect(only_invited.get_by_test_id("join-game")).to_have_count(0)
        row = rows.filter(has_text="Guest 2")
        expect(row).to_contain_text("1 open seat")
        row.get_by_test_id("join-game").click()
        lobby.get_by_test_id("join-name").fill("Ann")  # taken
        lobby.get_by_test_id("join-submit").click()
        expect(lobby.get_by_test_id("join-error")).to_contain_text("already playing")
        lobby.get_by_test_id("join-name").fill("Cy")
        lobby.get_by_test_id("join-submit").click()

        expect(lobby.get_by_test_id("game")).to_have_attribute("data-seat", "1")
        expect(lobby).to_have_url(re.compile(r"/games/[^?]+$"))
        expect(lobby.get_by_test_id("player-name")).to_have_text(["Ann", "Cy"])
        for page in (ann, lobby):
            expect(page.get_by_test_id("game")).to_have_attribute("data-status", "playing")
    # An audit read live secrets in access logs: "Go to my seat" and the lobby's Join opened
    # /games/<id>?token=<the seat's secret>. The secret is kept in the browser first.
    assert [address for address in addresses if "token=" in address] == []


def hold_options(page: Page) -> list[Route]:
    """The page's requests for /api/options, held until the test lets each go on."""
    held: list[Route] = []

    def hold(route: Route) -> None:
        held.append(route)

    page.route("**/api/options", hold)
    return held


def test_the_form_buttons_wait_for_the_form(server: ServerProcess, pages: Pages) -> None:
    """Until /api/options has come (a slow network, a loaded server), the lobby's and the
    keeper's "add a player" and "create" buttons are disabled: a click then did nothing."""
    with pages.checked():
        for path, buttons in (("/", ("add-seat", "create-game")),
                              ("/keeper", ("add-name", "create-sheet"))):  # fmt: skip
            page = pages.new()
            held = hold_options(page)  # its answer waits
            page.goto(server.url + path)
            page.wait_for_function("() => !document.documentElement.classList.contains('wordless')")
            for button in buttons:
                expect(page.get_by_test_id(button)).to_be_disabled()
            held[0].continue_()
            for button in buttons:
                expect(page.get_by_test_id(button)).to_be_enabled()


def test_player_rows_keep_what_was_typed(server: ServerProcess, pages: Pages) -> None:
    with pages.checked():
        lobby = pages.open(server.url + "/")
        names, kinds = lobby.get_by_test_id("seat-name"), lobby.get_by_test_id("seat-kind")
        lobby.get_by_test_id("add-seat").click()  # a person, to type the name of
        expect(kinds.nth(2)).to_have_value("")
        expect(names.nth(2)).to_be_focused()
        lobby.keyboard.type("Dora")
        kinds.nth(2).select_option("easy")
        kinds.nth(2).select_option("")
        expect(names.nth(2)).to_have_value("Dora")  # a typed name stays
        kinds.nth(1).focus()  # the bot the form starts with becomes a person, by keyboard:
        lobby.keyboard.press("Home")  # the first kind, an invited person
        expect(kinds.nth(1)).to_have_value("")
        expect(names.nth(1)).to_have_value("")  # its given name "Bot 2" goes
        # the focus stays (an audit: it went into the empty name, the next arrows with it)
        expect(kinds.nth(1)).to_be_focused()


def test_an_abandoned_game_is_listed_as_finished_and_replays(
    server: ServerProcess, pages: Pages
) -> None:
    game = create_game(server, [{"name": "Ann"}, {"name": "Robo", "bot": "easy"}], start_player=0)
    with pages.checked():  # a roll: a game with a move has a replay worth a look
        ann = pages.open(server.url + game["seats"][0]["link"])
        ann.get_by_test_id("roll-button").click()
        expect(ann.get_by_test_id("game")).to_have_attribute("data-seq", "1")
    server.stop()
    age(str(server.database), game["id"], 8 * 24 * 3600)  # a week and a day without a move
    server.start()
    with pages.checked():
        lobby = pages.open(server.url + "/")
        row = lobby.get_by_test_id("games-over").get_by_test_id("game-row")
        expect(row).to_contain_text("Abandoned")
        expect(lobby.get_by_test_id("games-playing")).not_to_contain_text("Ann, Robo")
        row.get_by_test_id("replay-game").click()
        expect(lobby.get_by_test_id("turn-info")).to_contain_text("Abandoned")
        expect(lobby.get_by_test_id("result")).to_contain_text("Nobody played on")
        expect(lobby.get_by_test_id("replay")).to_be_visible()


def test_a_game_stopped_at_the_turn_limit_says_so_and_shows_its_standings(
    tmp_path, pages: Pages
) -> None:
    server = ServerProcess(tmp_path / "games.sqlite3", options=("--turn-limit", "4")).start()
    try:
        game = create_game(server, [{"name": "Robo", "bot": "easy"}, {"name": "Cy", "bot": "easy"}])
        with pages.checked():
            page = pages.open(server.url + f"/games/{game['id']}")
            expect(page.get_by_test_id("turn-info")).to_contain_text("Stopped after 4 turns")
            expect(page.get_by_test_id("result")).to_contain_text("4 turns at most")
            expect(page.get_by_test_id("rank")).to_have_count(2)
            expect(page.get_by_test_id("replay")).to_be_visible()
            lobby = pages.open(server.url + "/")
            row = lobby.get_by_test_id("games-over").get_by_test_id("game-row")
            expect(row).to_contain_text("Stopped after 4 turns, the most a game may last")
    finally:
        server.stop()


def test_the_table_fits_a_phone(server: ServerProcess, pages: Pages) -> None:
    seats = [{"name": "Ann"}] + [{"name": f"Bot {n}", "bot": "easy"} for n in range(2, 8)]
    game = create_game(server, seats)
    with pages.checked():
        phone = pages.open(server.url + game["seats"][0]["link"], PHONE)
        expect(phone.get_by_test_id("player")).to_have_count(7)
        expect(phone.get_by_test_id("roll-button")).to_be_in_viewport()
        expect(phone.get_by_test_id("stop-button")).to_be_visible()
        assert no_horizontal_scroll(phone)
        phone.get_by_test_id("roll-button").click()
        expect(phone.get_by_test_id("roll").get_by_test_id("die")).to_have_count(8)
        for die in phone.get_by_test_id("roll").get_by_test_id("die").all():
            expect(die).to_be_in_viewport()
        assert no_horizontal_scroll(phone)

        phone.goto(server.url + "/")
        expect(phone.get_by_test_id("game-row")).to_have_count(1)
        assert no_horizontal_scroll(phone)


def test_the_api_docs_work_offline_under_a_strict_policy(
    server: ServerProcess, pages: Pages
) -> None:
    """Every request leaving this server is blocked, and the docs page is served with a
    Content-Security-Policy that allows no inline script or style: Swagger UI still shows
    the API."""
    strict = (
        "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:;"
        " frame-ancestors 'none'"
    )
    with pages.checked():
        page = pages.new()
        outside: list[str] = []
        errors: list[str] = []
        page.on("console", lambda message: message.type == "error" and errors.append(message.text))

        def block(route: Route) -> None:
            outside.append(route.request.url)
            route.abort()

        def with_policy(route: Route) -> None:
            response = route.fetch()
            headers = {**response.headers, "content-security-policy": strict}
            route.fulfill(response=response, headers=headers)

        page.route(re.compile(r"^(?!http://127\.0\.0\.1:\d+/)"), block)
        page.route(re.compile(r"/api/docs$"), with_policy)
        page.goto(server.url + "/api/docs")
        entries = page.locator(".opblock").filter(has_text="/api/sheets/{sheet_id}/entries")
        expect(entries).to_be_visible()
        entries.locator(".opblock-summary").click()
        expect(entries).to_contain_text("Sheet-Key")
        assert outside == [] and errors == []


#: The replay's first two lower tiles of a seat's stack lie side by side (true once the table is
#: laid out: the end panel appearing above it moves it while it settles, on a busy machine).
SIDE_BY_SIDE = """seat => {
  const player = document.querySelectorAll(
    "[data-testid=replay-table] [data-testid=player]")[seat];
  const [first, second] = [...player.querySelectorAll("[data-testid=stack-tile]")]
    .map(tile => tile.getBoundingClientRect());
  return first.top === second.top && second.left > first.left;
}"""


def test_the_end_screen_says_who_won_and_shows_the_table_once(
    server: ServerProcess, pages: Pages
) -> None:
    seats = [{"name": "Ann"}, {"name": "Robo", "bot": "easy"}]
    games: dict[str, tuple[dict, Game]] = {}  # Ann's verdict -> the game, played out below
    for seed in range(20):
        played = self_play(seed)
        verdict = "You won" if played.state.ranking()[0].seat == 0 else "You lost"
        if verdict not in games and max(map(len, played.state.stacks)) >= 4:
            games[verdict] = (create_game(server, seats, start_player=0), played)
    assert set(games) == {"You won", "You lost"}
    store_moves(server, {game["id"]: played.record.moves for game, played in games.values()})
    with pages.checked():
        for verdict, (game, played) in games.items():
            ann = pages.open(server.url + game["seats"][0]["link"])
            expect(ann.get_by_test_id("verdict")).to_have_text(verdict)
            expect(ann.get_by_test_id("end-panel").locator("h2")).to_have_text(
                f"Game over after {played.state.turn} turns"
            )
            expect(ann.get_by_test_id("rank")).to_have_count(2)
            decided = tie_break(played.state.ranking())
            expect(ann.get_by_test_id("tie-break")).to_have_count(0 if decided is None else 1)
            expect(ann.get_by_test_id("result")).to_have_count(0)  # no ranking said twice
            expect(ann.get_by_test_id("replay")).to_be_visible()
            expect(ann.get_by_test_id("grill")).to_be_hidden()  # the replay shows the table
            expect(ann.get_by_test_id("players")).to_be_hidden()

            # The replay's stacks lie as on the live table: lower tiles side by side.
            longest = max(range(2), key=lambda seat: len(played.state.stacks[seat]))
            replayed = ann.get_by_test_id("replay-table").get_by_test_id("player").nth(longest)
            under = replayed.get_by_test_id("stack-tile")
            expect(under).to_have_count(len(played.state.stacks[longest]) - 1)
            ann.wait_for_function(SIDE_BY_SIDE, arg=longest, polling=20)  # once laid out
            first, second = under.nth(0).bounding_box(), under.nth(1).bounding_box()
            assert first and second and first["y"] == second["y"] and second["x"] > first["x"]

        watcher = pages.open(f"{server.url}/games/{game['id']}")
        expect(watcher.get_by_test_id("rank")).to_have_count(2)
        expect(watcher.get_by_test_id("verdict")).to_have_count(0)  # a spectator won nothing
        expect(watcher.get_by_test_id("winner")).to_have_text(re.compile(r"^(Ann|Robo) wins\.$"))
        shared = watcher.evaluate(
            """async () => (await import("/static/end.js")).verdict(
                [{seat: 1, rank: 1}, {seat: 0, rank: 1}, {seat: 2, rank: 3}], 0)"""
        )
        assert shared == "shared"


def test_choosing_a_tile_shows_the_tiles_without_roll_or_stop(
    server: ServerProcess, pages: Pages
) -> None:
    seats = [{"name": "Ann"}, {"name": "Robo", "bot": "easy"}]
    game = create_game(server, seats, rules="official,lower_tile=any", start_player=0)
    # 40 with a worm: there is no tile 40, so any lower grill tile may be taken (R11c).
    store_moves(server, {game["id"]: ["dice WWWWW555", "keep W", "roll", "dice 555", "keep 5"]})
    with pages.checked():
        ann = pages.open(server.url + game["seats"][0]["link"])
        watcher = pages.open(f"{server.url}/games/{game['id']}")
        expect(ann.get_by_test_id("game")).to_have_attribute("data-phase", "claim")
        expect(ann.get_by_test_id("claim")).to_have_count(16)
        expect(ann.get_by_test_id("hint-button")).to_be_enabled()
        expect(ann.get_by_test_id("roll-button")).to_have_count(0)
        expect(ann.get_by_test_id("stop-button")).to_have_count(0)
        for page in (ann, watcher):
            expect(page.get_by_test_id("roll")).to_have_text(
                "no more rolling: a tile must be chosen"
            )
        ann.get_by_test_id("claim").filter(has_text="36").click()
        top = watcher.get_by_test_id("player").nth(0).get_by_test_id("stack-top")
        expect(top).to_have_attribute("data-tile", "36")
        # the one that may be stolen, heard so (an audit: "on top" was only a picture's)
        expect(top).to_have_accessible_name("36, 4 worms, on top")
