"""Clocks and absent players against a real ``pickomino serve`` process: killed with SIGKILL
in the middle of a running clock and started again; and in the system Chromium, people
whose time runs out, who leave and come back, and a vote for a bot.

The server is started with ``--clock-minimum 0`` (so a game may have a 2-second clock) and
``--away-after 1`` (a person to move is away after a second): test settings, the same code.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from pathlib import Path

import pytest
from playwright.sync_api import Page, WebSocketRoute, expect

from .browser import Pages
from .clicking import create_game, play_one_action, player
from .server_process import ServerProcess
from .test_server import open_seat, play_until, receive

# Real server processes and browsers: the full run (CI).
pytestmark = pytest.mark.slow

TEST_TIMES = ("--clock-minimum", "0", "--away-after", "1")


@pytest.fixture
def quick(tmp_path: Path) -> Iterator[ServerProcess]:
    """A server whose bots take 0.4 s a step (the pages can follow them), with short times."""
    running = ServerProcess(tmp_path / "games.sqlite3", bot_delay=0.4, options=TEST_TIMES)
    yield running.start()
    running.stop()


@pytest.fixture
def still(tmp_path: Path) -> Iterator[ServerProcess]:
    """A server whose bots wait a minute before each step (what a page shows while a bot
    plays for its person stays on it), with short times."""
    running = ServerProcess(tmp_path / "games.sqlite3", bot_delay=60, options=TEST_TIMES)
    yield running.start()
    running.stop()


# ------------------------------------------------------------ kill -9
def test_a_sigkill_in_the_middle_of_a_running_clock_keeps_its_deadline(server):
    spec = [{"name": "Ann"}, {"name": "Robo", "bot": "easy"}]
    game = create_game(server, spec, clock={"bank": 600, "increment": 30}, start_player=0)
    with open_seat(server, game, 0) as ann:  # Ann plays turn 1, Robo turn 2: Ann's bank is used
        running = play_until(ann, lambda s: s["table"]["turn"] == 3 and s["clock"]["seat"] == 0)[
            "clock"
        ]
    assert 0 < running["banks"][0] < 630 and running["banks"][1] == 600

    server.kill()
    server.start()
    with open_seat(server, game, 0) as ann:
        again = receive(ann, "state")
    assert again["clock"] == running  # the same deadline, to the bit, and the same banks
    assert 0 < running["deadline"] - again["now"] < running["banks"][0] + 30  # time went on
    assert again["actions"] == ["roll"]


# ------------------------------------------------------------ in the browser
def log_says(page: Page, text: str) -> None:
    expect(page.get_by_test_id("log-line").filter(has_text=text).first).to_be_visible(
        timeout=20_000
    )


def my_turn(page: Page) -> None:
    expect(page.get_by_test_id("game")).to_have_attribute("data-your-turn", "true", timeout=30_000)


def test_a_clock_runs_out_and_the_bot_plays_the_turn(quick: ServerProcess, pages: Pages):
    with pages.checked():
        # The lobby's form sends the clock and the bot chosen.
        lobby = pages.open(quick.url + "/")
        lobby.get_by_test_id("seat-name").first.fill("Ann")
        lobby.get_by_test_id("clock-choice").select_option(label="1 min a turn")
        lobby.get_by_test_id("takeover-choice").select_option("hard")
        lobby.get_by_test_id("create-game").click()
        lobby.get_by_test_id("take-seat").click()
        expect(lobby.get_by_test_id("turn-clock")).to_have_text(re.compile(r"^(1:00|0:[5]\d)$"))
        # The player to move shows their clock too (checked here, where a minute is ample:
        # a short clock may run out while a loaded machine still opens the page).
        expect(player(lobby, 0).get_by_test_id("clock")).to_be_visible()

        # Ten seconds a turn: Ann lets turn 1 run out, and must roll within turn 3's ten seconds
        # (a second timeout in a row would hand her seat to the bot: TIMEOUTS_AWAY), which a
        # machine loaded by the whole parallel suite did not always do within three.
        spec = [{"name": "Ann"}, {"name": "Robo", "bot": "easy"}]
        game = create_game(quick, spec, clock={"per_turn": 10}, takeover="easy", start_player=0)
        ann = pages.open(quick.url + game["seats"][0]["link"])
        expect(ann.get_by_test_id("turn-clock")).to_have_text(re.compile(r"^0:(10|0\d)$"))
        log_says(ann, "Ann ran out of time: a bot (easy) plays the rest of the turn")
        log_says(ann, "Ann rolled")  # the bot rolled for Ann
        expect(ann.get_by_test_id("controls")).to_be_hidden()
        log_says(ann, "Turn 2 – Robo")
        my_turn(ann)  # turn 3: Ann again, with her clock
        expect(ann.get_by_test_id("turn-clock").get_by_test_id("clock")).to_be_visible()
        ann.get_by_test_id("roll-button").click()
        expect(ann.get_by_test_id("game")).to_have_attribute("data-phase", "keep")


def test_a_screen_reader_hears_its_own_clock_start_and_run_low(quick: ServerProcess, pages: Pages):
    """An audit (WCAG 2.2.1): the clock is a timer region, which a screen reader keeps quiet:
    Ann heard nothing until "Ann ran out of time". Her own clock is said as it starts, and
    again at 30 and 10 seconds left (the page's timers run forward on its own clock)."""
    spec = [{"name": "Ann"}, {"name": "Robo", "bot": "easy"}]
    game = create_game(quick, spec, clock={"per_turn": 60}, start_player=0)
    with pages.checked():
        ann = pages.new()
        ann.clock.install()
        ann.goto(quick.url + game["seats"][0]["link"])
        said = ann.get_by_test_id("announcement")
        starts = re.compile(r"^Your clock runs: (1 min|\d\d sec) left$")
        expect(said.filter(has_text=starts)).to_have_count(1)
        expect(said.filter(has_text="left on your clock")).to_have_count(0)
        ann.clock.run_for(35_000)
        expect(said.filter(has_text="left on your clock")).to_have_text(
            ["30 sec left on your clock"]
        )
        ann.clock.run_for(20_000)
        expect(said.filter(has_text="left on your clock")).to_have_text(
            ["30 sec left on your clock", "10 sec left on your clock"]
        )


def test_a_player_leaves_is_marked_away_a_bot_plays_and_they_come_back(
    quick: ServerProcess, pages: Pages
):
    game = create_game(quick, [{"name": "Ann"}, {"name": "Bob"}], start_player=1)
    bob_link = quick.url + game["seats"][1]["link"]
    with pages.checked():
        bob = pages.open(bob_link)
        ann = pages.open(quick.url + game["seats"][0]["link"])
        expect(player(ann, 1).get_by_test_id("online-dot")).to_have_attribute("data-online", "true")
        browser = bob.context
        bob.close()  # Bob leaves on his turn (his browser keeps his seat's secret)

        expect(player(ann, 1).get_by_test_id("away-badge")).to_have_text("away · bot playing")
        log_says(ann, "Bob is away (not connected on their turn)")
        log_says(ann, "Bob rolled")  # the bot plays for Bob
        my_turn(ann)

        bob = browser.new_page()
        bob.goto(bob_link)  # back through his link (spent: his own secret seats him)
        expect(bob.get_by_test_id("away")).to_be_hidden()
        expect(player(ann, 1).get_by_test_id("away-badge")).to_have_count(0)
        log_says(ann, "Bob is back and plays again")
        while ann.get_by_test_id("game").get_attribute("data-your-turn") == "true":
            seq = ann.get_by_test_id("game").get_attribute("data-seq")
            play_one_action(ann)
            expect(ann.get_by_test_id("game")).not_to_have_attribute("data-seq", seq)
        my_turn(bob)  # Bob plays his turn himself
        bob.get_by_test_id("roll-button").click()
        expect(bob.get_by_test_id("game")).to_have_attribute("data-phase", "keep")


def test_the_players_vote_a_bot_in_for_a_player_who_left(quick: ServerProcess, pages: Pages):
    game = create_game(quick, [{"name": "Ann"}, {"name": "Bob"}], start_player=0)
    with pages.checked():
        bob = pages.open(quick.url + game["seats"][1]["link"])
        ann = pages.open(quick.url + game["seats"][0]["link"])
        expect(player(ann, 1).get_by_test_id("online-dot")).to_have_attribute("data-online", "true")
        expect(ann.get_by_test_id("vote-button")).to_have_count(0)  # Bob is here
        secret = json.loads(bob.evaluate(f"localStorage.getItem('pickomino.token.{game['id']}')"))
        bob.context.close()
        vote = player(ann, 1).get_by_test_id("vote-button")
        expect(vote).to_have_text("Let a bot play for Bob")
        # An audit: a screen reader heard neither Bob leaving nor the vote it opens.
        said = ann.get_by_test_id("announcement")
        expect(said.filter(has_text="Bob left the table")).to_have_count(1)
        expect(said.filter(has_text="You may now vote to let a bot play for Bob")).to_have_count(1)
        ann.reload()  # arriving where the vote is open: said too (an audit heard nothing)
        expect(said.filter(has_text="You may now vote to let a bot play for Bob")).to_have_count(1)
        vote.focus()  # by keyboard; the cards are drawn anew as the vote is counted and
        ann.keyboard.press("Enter")  # carries (once Bob has been gone --away-after, 1 s)
        expect(player(ann, 1).get_by_test_id("away-badge")).to_be_visible()
        assert ann.evaluate("document.activeElement !== document.body")  # kept among the cards
        log_says(ann, "The players voted: a bot (medium) plays for Bob until they are back")
        expect(ann.get_by_test_id("vote-button")).to_have_count(0)
        game["seats"][1]["link"] = f"/games/{game['id']}?token={secret}"  # as his page keeps it
        with open_seat(quick, game, 1) as socket:  # a page left open, reconnecting: no "back"
            state = receive(socket, "state")
            assert state["seats"][1]["away"]
            socket.send(json.dumps({"type": "back"}))
            while receive(socket, "state")["seats"][1]["away"]:  # (a state sent as he came
                pass  # may come first: Ann's wait, told to him) until back, or the deadline
            back = re.compile("^Bob is back")  # said once, by the log, as he takes the seat
            expect(said.filter(has_text=back)).to_have_text(["Bob is back and plays again"])
        expect(player(ann, 1).get_by_test_id("away-badge")).to_have_count(0)


def test_the_players_vote_a_bot_in_for_a_player_who_keeps_the_game_waiting(
    quick: ServerProcess, pages: Pages
):
    """Bob is here but does not move on his turn (a game without a clock): after
    --away-after (1 s) both pages say he keeps the game waiting (his in an alert too), Ann
    gets the vote, and her vote alone hands his seat to the bot; his page offers it back."""
    game = create_game(quick, [{"name": "Ann"}, {"name": "Bob"}], start_player=1)
    with pages.checked():
        bob = pages.open(quick.url + game["seats"][1]["link"])
        ann = pages.open(quick.url + game["seats"][0]["link"])
        expect(player(ann, 1).get_by_test_id("online-dot")).to_have_attribute("data-online", "true")
        expect(player(bob, 1).get_by_test_id("waited-on-badge")).to_have_text(
            "keeping the game waiting"
        )
        expect(bob.get_by_test_id("notice-text")).to_have_text(  # an alert: said at once
            "You have kept the game waiting: the others may now let a bot play for you. "
            "Make your move to keep your seat."
        )
        vote = player(ann, 1).get_by_test_id("vote-button")
        expect(vote).to_have_text("Let a bot play for Bob")
        expect(player(bob, 0).get_by_test_id("vote-button")).to_have_count(0)  # Ann waits
        vote.click()
        expect(player(ann, 1).get_by_test_id("away-badge")).to_be_visible()
        log_says(ann, "The players voted: a bot (medium) plays for Bob until they are back")
        expect(bob.get_by_test_id("come-back")).to_be_visible()


def test_while_a_bot_plays_your_turn_your_page_says_so_and_offers_the_seat_back(
    still: ServerProcess, pages: Pages
):
    """Bob's page stays open while its connection is cut (held, then let through again):
    he is marked away on his turn, and his page, back online, tells him the bot plays his
    turn (not "Your turn: roll the dice", with no buttons), beside "Take my seat back"."""
    game = create_game(still, [{"name": "Ann"}, {"name": "Bob"}], start_player=1)
    sockets: list[WebSocketRoute] = []
    hold = [False]  # while set, Bob's page's new connections reach no server

    def relay(socket: WebSocketRoute) -> None:
        if not hold[0]:
            server = socket.connect_to_server()
            socket.on_close(lambda code, reason: server.close())
        sockets.append(socket)

    with pages.checked():
        ann = pages.open(still.url + game["seats"][0]["link"])
        bob = pages.new()
        bob.route_web_socket(re.compile(r"/ws/games/"), relay)
        bob.goto(still.url + game["seats"][1]["link"])
        my_turn(bob)
        expect(bob.get_by_test_id("turn-info")).to_have_text("Turn 1 · Your turn: roll the dice")
        hold[0] = True
        sockets[0].close()  # Bob's connection drops; his page's next ones reach nothing
        expect(player(ann, 1).get_by_test_id("away-badge")).to_be_visible(timeout=20_000)
        hold[0] = False
        sockets[-1].close()  # his page reconnects, to the server this time: no "back"
        expect(bob.get_by_test_id("away")).to_be_visible(timeout=20_000)
        # heard as it begins, with the button that ends it (an audit: only the bot's moves)
        expect(bob.get_by_test_id("announcer")).to_contain_text("Take my seat back")
        expect(bob.get_by_test_id("turn-info")).to_have_text(
            "Turn 1 · A bot (medium) is playing your turn"
        )
        expect(bob.get_by_test_id("controls")).to_be_hidden()
        bob.get_by_test_id("come-back").click()
        expect(bob.get_by_test_id("away")).to_be_hidden()
        # the focus follows the game from there (an audit: it fell to the page's body)
        assert bob.evaluate("document.activeElement !== document.body")
        expect(bob.get_by_test_id("turn-info")).to_have_text("Turn 1 · Your turn: roll the dice")
        bob.get_by_test_id("roll-button").click()
        expect(bob.get_by_test_id("game")).to_have_attribute("data-phase", "keep")
