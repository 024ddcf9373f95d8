"""The Analysis view and the coach in a real browser (Playwright and the system Chromium
against a real ``pickomino serve``): the coach warns before a blunder and lets you choose
again or play it anyway; the game is played to its end, the Analysis lists the blunder, and
a click on it takes the replay to its turn and shows the best choice beside the chosen one."""

from __future__ import annotations

import json
import random
import re
import subprocess
import sys
from functools import cache
from pathlib import Path

import pytest
from playwright.sync_api import Page, expect

from pickomino.analysis import TurnView, evaluator_for
from pickomino.bots import make_bot
from pickomino.core import Game
from pickomino.core.actions import ROLL, STOP

from .browser import Pages, relayed_page
from .clicking import create_game, play_until_over
from .server_process import ServerProcess
from .test_browser import store_moves

pytestmark = pytest.mark.slow  # a real server and browser; a game played to its end

#: Ann rolls and keeps the fives: 10, no worm, six dice left. Stopping busts; rolling is safe.
NO_WORM = ["dice 12334455", "keep 5"]
SEATS = [{"name": "Ann"}, {"name": "Robo", "bot": "easy"}]


@cache
def blunder_position() -> tuple[list[str], int]:
    """The moves of a game of two simple bots up to a turn of Ann's late in the game, where
    she holds a tile and stopping after ``NO_WORM`` gives away over 15 points of win chance,
    with ``NO_WORM`` played; and that turn."""
    for seed in range(40):
        game, rng = Game(["Ann", "Robo"]), random.Random(seed)
        bots = [make_bot("simple", seed), make_bot("simple", seed + 1)]
        while not game.state.is_over:
            state = game.state
            turn_start = state.is_chance() and state.dice_left == 8
            if turn_start and state.current == 0 and state.stacks[0] and len(state.grill) <= 5:
                view, after = TurnView(state, evaluator_for(state)), state.copy()
                after.apply_roll(NO_WORM[0].removeprefix("dice "))
                after.apply(NO_WORM[1])
                if view.after(after, ROLL)[0] - view.after(after, STOP)[0] > 0.15:
                    return [*game.record.moves, *NO_WORM], state.turn
            if state.is_chance():
                game.roll_random(rng)
            else:
                game.play(bots[state.current].choose(state))
    raise AssertionError("no game of the first 40 has such a turn")


def click_stop_and_expect_warning(ann: Page) -> None:
    ann.get_by_test_id("stop-button").click()
    warning = ann.get_by_test_id("coach-warning")
    expect(warning).to_be_visible()
    expect(warning.get_by_test_id("coach-text")).to_have_text(
        "Stopping now busts: no worm among the kept dice."
    )
    expect(warning.get_by_test_id("label")).to_have_text("blunder")  # shown capitalised
    # the focus on "Choose again", the warning its description: heard once, with it
    again = warning.get_by_test_id("coach-again")
    expect(again).to_be_focused()
    expect(again).to_have_accessible_description(re.compile("Stopping now busts"))


@pytest.mark.long
def test_the_coach_warns_before_a_blunder_and_the_analysis_shows_it(
    instant_bots: ServerProcess, pages: Pages
) -> None:
    moves, turn = blunder_position()
    game = create_game(instant_bots, SEATS, start_player=0)
    store_moves(instant_bots, {game["id"]: moves})
    with pages.checked():
        ann = pages.open(instant_bots.url + game["seats"][0]["link"])
        root = ann.get_by_test_id("game")
        expect(root).to_have_attribute("data-phase", "roll_or_stop")
        expect(ann.get_by_test_id("coach-toggle")).not_to_be_checked()  # opt-in
        # What the coach does is a button's popover (a tooltip is no reading for a keyboard).
        about = ann.get_by_role("button", name="About the coach")
        about.focus()
        ann.keyboard.press("Enter")
        expect(ann.get_by_test_id("coach-about")).to_be_visible()
        expect(ann.get_by_test_id("coach-about")).to_contain_text("It never plays for you.")
        ann.keyboard.press("Escape")
        expect(ann.get_by_test_id("coach-about")).to_be_hidden()
        expect(about).to_be_focused()
        ann.get_by_test_id("coach-toggle").check()
        expect(ann.get_by_test_id("coach-threshold")).to_have_value("mistake")

        click_stop_and_expect_warning(ann)
        ann.get_by_test_id("coach-again").click()  # nothing was played
        expect(ann.get_by_test_id("coach-warning")).to_be_hidden()
        expect(root).to_have_attribute("data-seq", str(len(moves)))

        click_stop_and_expect_warning(ann)
        ann.get_by_test_id("coach-anyway").click()  # played as chosen: a bust
        expect(root).not_to_have_attribute("data-seq", str(len(moves)))
        expect(ann.get_by_test_id("log")).to_contain_text("no worm among the kept dice")

        ann.get_by_test_id("coach-toggle").uncheck()  # the quick player below is no learner
        play_until_over(ann, {0: ann})

        ann.get_by_test_id("analysis-open").click()
        # The review runs in a process of its own, started on the first one: on a loaded
        # machine that takes seconds beyond the page's usual wait.
        expect(ann.get_by_test_id("analysis-player").first).to_be_visible(timeout=60_000)
        said = ann.get_by_test_id("analysis-said")  # a screen reader hears it has come
        expect(said).to_have_attribute("role", "status")
        expect(said).to_have_text(re.compile("^The analysis is ready"))
        blunder = ann.locator(f'[data-testid=analysis-decision][data-move="{len(moves)}"]')
        expect(blunder).to_have_attribute("data-label", "blunder")  # notable: shown at once
        legend = ann.get_by_test_id("analysis").locator(".legend-labels")  # two players' points
        expect(legend).to_contain_text("from 5, or 40% of the stake from 2")
        expect(legend).to_contain_text("from 2, or 20% of the stake from 0.5")
        expect(legend).to_contain_text("40% of the stake from 2; ")  # heard apart (an audit)
        expect(blunder).to_contain_text(f"Turn {turn} · Ann: Stop")
        expect(ann.get_by_test_id("analysis-player").first).to_have_attribute("data-seat", "0")
        expect(ann.get_by_test_id("analysis-summary").first).to_have_text(
            re.compile(r"^(Mostly luck|Mostly skill|Luck and skill alike) for Ann: .*"
                       r"\(looking further ahead: [+−]\d+\.\d\)\.$")
        )  # fmt: skip
        marks = r"^Rolls: \d+ very lucky, \d+ lucky, \d+ unlucky, \d+ very unlucky$"
        expect(ann.get_by_test_id("analysis-rolls").first).to_have_text(re.compile(marks))
        # What accuracy and the rolls' marks mean is on the page, and describes them.
        for part, term in (("accuracy", "100 when every choice"), ("analysis-rolls", "lucky")):
            described = ann.get_by_test_id(part).first
            expect(described).to_have_accessible_description(re.compile(term))
            expect(ann.get_by_test_id("analysis-terms")).to_contain_text(re.compile(term))
        adjusted = ann.get_by_test_id("account").first.locator("[data-part=adjusted] td")
        expect(adjusted).to_have_text(re.compile(r"^−?\d+%$"))
        expect(ann.get_by_test_id("analysis").get_by_test_id("chart-line")).to_have_count(2)

        blunder.click()
        expect(ann.get_by_test_id("replay-turn")).to_have_text(f"Turn {turn} – Ann")
        expect(ann.get_by_test_id("replay-turn")).to_have_attribute("data-step", str(turn))
        detail = ann.get_by_test_id("analysis-detail")
        expect(detail).to_contain_text("Kept 5 5 · total 10")
        best = detail.locator("[data-testid=analysis-choice][data-best=true]")
        chosen = detail.locator("[data-testid=analysis-choice][data-chosen=true]")
        expect(best).to_have_attribute("data-action", "roll")
        expect(chosen).to_have_attribute("data-action", "stop")
        for row in (best, chosen):
            expect(row).to_contain_text(re.compile(r"\d+%"))
        expect(detail.get_by_test_id("analysis-verdict")).to_contain_text("gave away")


def test_the_coach_is_for_the_seated_person_off_by_default_and_remembered(
    server: ServerProcess, pages: Pages
) -> None:
    game = create_game(server, SEATS, start_player=0)
    store_moves(server, {game["id"]: NO_WORM})
    with pages.checked():
        watcher = pages.open(f"{server.url}/games/{game['id']}")
        expect(watcher.get_by_test_id("game")).to_have_attribute("data-seq", "2")
        expect(watcher.get_by_test_id("coach-setup")).to_be_hidden()

        ann = pages.open(server.url + game["seats"][0]["link"])
        expect(ann.get_by_test_id("coach-setup")).to_be_visible()
        ann.get_by_test_id("coach-toggle").check()
        ann.get_by_test_id("coach-threshold").select_option("blunder")
        ann.reload()
        expect(ann.get_by_test_id("coach-toggle")).to_be_checked()
        expect(ann.get_by_test_id("coach-threshold")).to_have_value("blunder")
        sentence = ann.evaluate(
            """async () => (await import("/static/coach.js")).warning(
                {action: "keep 2", value: 0.5, cost: 0.123, label: "blunder", busts: null},
                {action: "keep W", value: 0.623})"""
        )
        assert sentence == (
            "This move gives away 12 points of win chance: “Keep the worms” is better"
            " (62% against 50%)."  # the move as its button says it (an audit heard "keep W")
        )

        # Off, the move goes at once, costly or not.
        ann.get_by_test_id("coach-toggle").uncheck()
        ann.get_by_test_id("stop-button").click()
        expect(ann.get_by_test_id("game")).not_to_have_attribute("data-seq", "2")
        expect(ann.get_by_test_id("coach-warning")).to_be_hidden()


def selfplay(bots: str, record: Path) -> Path:
    """A record saved by `pickomino selfplay --save` of ``bots`` (with its meta)."""
    saved = subprocess.run(
        [sys.executable, "-m", "pickomino", "selfplay", "--bots", bots, "--seed", "3",
         "--quiet", "--save", str(record)],
        capture_output=True, text=True, timeout=120,
    )  # fmt: skip
    assert saved.returncode == 0, saved.stderr
    return record


def test_a_record_from_the_command_line_opens_in_the_analysis_page(
    server: ServerProcess, pages: Pages, tmp_path
) -> None:
    """A record saved by `pickomino selfplay --save` (with its meta) is chosen as a file: the
    page shows its worms, replay and analysis; a file that is no record says so."""
    record = selfplay("simple,random", tmp_path / "selfplay.json")
    junk = tmp_path / "notes.json"
    junk.write_text("not a record")
    with pages.checked():
        page = pages.open(server.url + "/")
        page.get_by_test_id("analyse-link").click()
        expect(page).to_have_url(server.url + "/analyse")
        expect(page.get_by_test_id("record-file")).to_be_enabled()  # the page listens
        page.get_by_test_id("record-file").set_input_files(str(junk))
        expect(page.get_by_test_id("notice")).to_contain_text("notes.json is not a game record")
        page.get_by_test_id("record-file").set_input_files(str(record))
        report = page.get_by_test_id("analyse-report")
        expect(report.get_by_test_id("analysis-player")).to_have_count(2, timeout=60_000)
        expect(page.get_by_test_id("analyse-status")).to_have_text("selfplay.json: analysed.")
        expect(report.get_by_test_id("analysis-player").first).to_contain_text("simple (1)")
        expect(report.get_by_test_id("chart-line")).to_have_count(4)  # worms and chances
        report.get_by_test_id("analysis-all").check()
        report.get_by_test_id("analysis-decision").first.click()
        detail = report.get_by_test_id("analysis-detail")
        expect(detail).to_be_visible()
        # What if: a choice played from the decision, then on, with everyone's chance
        opened = detail.get_by_test_id("what-if-open").last
        # An audit: every button was named "What if?"; each is named by its choice, the
        # column by its header
        expect(detail.get_by_role("columnheader")).to_have_text(
            ["Choice", "Win chance", "What if?"]
        )
        names = detail.get_by_test_id("what-if-open").evaluate_all(
            "buttons => buttons.map((b) => b.getAttribute('aria-label'))"
        )
        assert len(set(names)) == len(names) and all(n.startswith("What if: ") for n in names)
        opened.click()
        what_if = detail.get_by_test_id("what-if")
        expect(what_if.get_by_test_id("what-if-chances").locator("li")).to_have_count(2)
        heading = what_if.locator("h5")
        expect(heading).to_have_text(re.compile(r"^What if: "))
        assert heading.inner_text() == names[-1]  # the step opened is the choice named
        before = heading.inner_text()
        what_if.locator("[data-testid=what-if-roll], [data-testid=what-if-choice]").first.click()
        expect(heading).not_to_have_text(before)
        expect(what_if.get_by_test_id("what-if-chances").locator("li")).to_have_count(2)
        # heard as one line, not the whole panel re-read (an audit: it was one live region)
        assert what_if.get_attribute("aria-live") is None
        said = detail.get_by_test_id("what-if-said")
        expect(said).to_have_attribute("role", "status")
        expect(said).to_contain_text(re.compile(r"^(What if|The dice show).*\d%"))
        # the clicked button went with its step: the focus is on the next step's control
        expect(what_if.locator(":focus")).to_have_count(1)
        # a record of three: the legend's points weighed by the table's size (N/2)
        page.get_by_test_id("record-file").set_input_files(
            str(selfplay("simple,random,expected", tmp_path / "three.json"))
        )
        expect(report.get_by_test_id("analysis-player")).to_have_count(3, timeout=60_000)
        legend = report.get_by_test_id("analysis-legend")
        expect(legend).to_contain_text("At a table of 3, a point counts 1.5 times as much")
        expect(legend).to_contain_text("from 3.33, or 40% of the stake from 1.33")


def test_a_move_the_coach_holds_goes_as_it_is_when_the_server_will_not_coach(
    instant_bots: ServerProcess, pages: Pages
) -> None:
    """The server's searches full (an address's share, or all): its answer to the coach's ask
    is a refusal, and a move the coach held for its advice goes as it is, the refusal said (a
    review: the move waited for ever). The ask is kept from the server and refused here, as
    the server refuses it when full."""
    game = create_game(instant_bots, SEATS, start_player=0)
    store_moves(instant_bots, {game["id"]: NO_WORM})  # Ann may roll or stop: a choice
    with pages.checked():
        link = instant_bots.url + game["seats"][0]["link"]
        ann, sockets = relayed_page(pages, link, lambda sent: '"coach"' not in str(sent))
        root = ann.get_by_test_id("game")
        expect(root).to_have_attribute("data-phase", "roll_or_stop")
        ann.get_by_test_id("coach-toggle").check()  # it asks; no answer comes yet
        seq = root.get_attribute("data-seq")
        ann.get_by_test_id("roll-button").click()  # held for the coach's advice
        expect(ann.get_by_test_id("coach-warning")).to_be_hidden()
        assert root.get_attribute("data-seq") == seq
        refusal = {"type": "error", "id": "too_many_lookups", "params": {}, "rule": None}
        sockets[0][0].send(json.dumps(refusal))
        expect(root).not_to_have_attribute("data-seq", seq)  # the roll went
        expect(ann.get_by_test_id("notice")).to_contain_text("too many requests from here")
