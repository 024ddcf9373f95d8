"""Rematches and "My games" in the browser (the system Chromium against a real ``pickomino
serve``): two people at the end of a game, one offers, the other accepts, both land in the
new game with the next start player; My games lists your turn first; the title says when it
is your turn."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect

from .browser import PHONE, Pages
from .clicking import create_game
from .server_process import ServerProcess
from .test_profiles import finish_offline

pytestmark = pytest.mark.slow  # a real server and browser
YOUR_TURN = re.compile(r"^● Your turn")


def test_one_offers_a_rematch_the_other_accepts_and_both_play_it(
    server: ServerProcess, pages: Pages
) -> None:
    seats = [{"name": "Ann"}, {"name": "Bob"}, {"name": "Robo", "bot": "easy"}]
    game = create_game(server, seats, start_player=0)
    server.stop()
    finish_offline(str(server.database), game)  # played while the server was away
    server.start()
    with pages.checked():
        ann, bob = (pages.open(server.url + game["seats"][n]["link"]) for n in (0, 1))
        watcher = pages.open(f"{server.url}/games/{game['id']}")
        for page in (ann, bob, watcher):
            expect(page.get_by_test_id("end-panel")).to_be_visible()
        expect(watcher.get_by_test_id("rematch")).to_be_hidden()  # no offer to see yet

        ann.get_by_test_id("rematch-accept").click()  # "Play again"
        offered = "Ann offers a rematch. Still to accept: Bob."
        for page in (bob, watcher):
            status = page.get_by_test_id("rematch-status")
            expect(status).to_have_attribute("data-status", "offered")
            expect(status).to_contain_text(offered)
            expect(page.get_by_test_id("rematch-waiting")).to_contain_text("Bob starts")
        for page in (ann, bob, watcher):  # heard too (an audit: by nobody), once
            said = page.get_by_test_id("announcement").filter(has_text="rematch")
            expect(said).to_have_text([offered])
        expect(watcher.get_by_test_id("rematch-accept")).to_have_count(0)  # watching only
        # read after the end's heading and ranking (an audit: the offer came first)
        after = "([a, b]) => a.compareDocumentPosition(b) & Node.DOCUMENT_POSITION_FOLLOWING"
        panels = [
            bob.get_by_test_id(testid).element_handle() for testid in ("end-panel", "rematch")
        ]
        assert bob.evaluate(after, panels)
        expect(ann.get_by_test_id("rematch-accept")).to_have_count(0)  # accepted already

        bob.get_by_test_id("rematch-accept").click()
        new_game = re.compile(rf"{server.url}/games/(?!{game['id']})[\w-]+$")
        for seat, page in enumerate((ann, bob)):
            expect(page).to_have_url(new_game)
            table = page.get_by_test_id("game")
            expect(table).to_have_attribute("data-status", "playing")
            expect(table).to_have_attribute("data-seat", str(seat))
            expect(table).to_have_attribute("data-turn", "1")
            expect(table).to_have_attribute("data-current", "1")  # Ann started the last one
        assert ann.url == bob.url
        arriving = ((ann, "Bob is about to roll"), (bob, "Your turn: roll"))
        for page, turn in arriving:  # said as the page arrives
            said = page.get_by_test_id("announcement")  # (and a vote, if the other is late)
            expect(said.filter(has_text="The rematch has started.")).to_have_count(1)
            lines = said.all_text_contents()
            assert turn in lines[lines.index("The rematch has started.") + 1], lines
        expect(bob).to_have_title(YOUR_TURN)
        expect(ann).not_to_have_title(YOUR_TURN)
        expect(watcher.get_by_test_id("rematch-watch")).to_have_attribute(
            "href", bob.url.removeprefix(server.url)
        )

        # Bob moves his new seat to his phone; his old device, back at the finished game,
        # is not given the seat again: it may only watch the new game.
        bob.get_by_test_id("move-seat").locator("summary").click()
        bob.get_by_test_id("move-seat-make").click()
        phone = pages.open(bob.get_by_test_id("move-seat-link").input_value(), PHONE)
        expect(phone.get_by_test_id("game")).to_have_attribute("data-seat", "1")
        expect(bob.get_by_test_id("watching-banner")).to_be_visible()
        finished = f"{server.url}/games/{game['id']}"
        bob.goto(finished)
        expect(bob.get_by_test_id("rematch-status")).to_have_attribute("data-status", "started")
        expect(bob.get_by_test_id("rematch-watch")).to_be_visible()
        expect(bob).to_have_url(finished)


def test_my_games_lists_your_turn_first(server: ServerProcess, pages: Pages) -> None:
    waiting = create_game(server, [{"name": "Ann"}, {"name": "Bob"}])  # Bob never comes
    yours = create_game(server, [{"name": "Ann"}, {"name": "Robo", "bot": "easy"}], start_player=1)
    with pages.checked():
        ann = pages.open(server.url + waiting["seats"][0]["link"])
        expect(ann.get_by_test_id("waiting")).to_be_visible()
        expect(ann).not_to_have_title(YOUR_TURN)
        ann.goto(server.url + yours["seats"][0]["link"])  # the bot starts, then it is Ann's turn
        expect(ann).to_have_title(YOUR_TURN)

        ann.get_by_test_id("mine-link").click()
        expect(ann).to_have_url(f"{server.url}/mine")
        turn = ann.get_by_test_id("mine-turn").get_by_test_id("mine-row")
        expect(turn).to_have_count(1)
        expect(turn).to_have_attribute("data-game-id", yours["id"])
        expect(turn).to_contain_text("Your turn")
        others = ann.get_by_test_id("mine-waiting").get_by_test_id("mine-row")
        expect(others).to_have_count(1)
        expect(others).to_have_attribute("data-game-id", waiting["id"])
        expect(ann).to_have_title(re.compile(r"^● \(1\) My games"))
        turn.get_by_test_id("mine-open").click()
        expect(ann.get_by_test_id("game")).to_have_attribute("data-your-turn", "true")
