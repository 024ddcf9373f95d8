"""Paired comparisons: both bots of a pair meet the same dice, game by game."""

import json
import subprocess
import sys

import pytest

from pickomino.bots import BOTS, make_bot
from pickomino.core import GameState, Phase, Rules
from pickomino.sim import compare
from pickomino.sim.tournament import play_game


class FirstRolls:
    """Plays like ``inner`` and notes the eight dice it sees first in each of its turns."""

    def __init__(self, inner: str) -> None:
        self.inner, self.name = make_bot(inner), inner
        self.seen: dict[int, tuple[int, ...]] = {}

    def choose(self, state: GameState):
        if state.phase is Phase.KEEP and not any(state.kept):
            self.seen[state.turn] = state.roll
        return self.inner.choose(state)


@pytest.mark.parametrize("keyed, same", [(True, True), (False, False)])
def test_keyed_dice_give_every_turn_the_same_first_roll_whatever_was_played(
    monkeypatch, keyed, same
):
    """With keyed dice, a turn's first roll depends on (seed, game, turn) only, so a good and
    a bad player in the same seat see the same first roll in every turn both reach; one stream
    per game (the tournament's dice) loses that as soon as their choices differ."""
    players = {name: FirstRolls(name) for name in ("expected", "random")}
    for name, bot in players.items():
        monkeypatch.setitem(BOTS, f"first-rolls-{name}", lambda seed, bot=bot: bot)
        play_game((f"first-rolls-{name}", "simple"), Rules(), 5, 0, keyed_dice=keyed)
    good, bad = players["expected"].seen, players["random"].seen
    common = sorted(set(good) & set(bad))
    assert len(common) >= 5
    assert all(good[turn] == bad[turn] for turn in common) is same


def test_a_bot_compared_with_itself_differs_in_no_game():
    result = compare("expected", "expected", against="simple", games=6, seed=2)
    assert result.difference == 0.0 and result.differing == 0.0
    assert result.shares[0] == result.shares[1]


def test_same_comparison_whatever_the_jobs():
    one = compare("simple", "random", against="simple", players=3, games=60, seed=4)
    two = compare("simple", "random", against="simple", players=3, games=60, seed=4, jobs=2)
    assert one == two
    assert one.difference == pytest.approx(one.shares[0] - one.shares[1])
    low, high = one.ci95
    assert low < one.difference < high and one.differing > 0


@pytest.mark.parametrize(
    "kwargs, message",
    [
        ({"players": 8}, "2 to 7 players"),
        ({"games": 1}, "two games"),
        ({"against": "x"}, "unknown"),
    ],
)
def test_bad_comparisons_are_refused(kwargs, message):
    arguments = {"a": "simple", "b": "random", "against": "simple", **kwargs}
    with pytest.raises(ValueError, match=message):
        compare(**arguments)


def run(*args: str) -> subprocess.CompletedProcess:
    command = [sys.executable, "-m", "pickomino", "compare", *args]
    return subprocess.run(command, capture_output=True, text=True, timeout=300)


def test_compare_command_prints_both_shares_and_the_difference():
    args = ("simple", "random", "--against", "simple", "--games", "40", "--jobs", "2")
    table = run(*args)
    assert table.returncode == 0, table.stderr
    assert "difference" in table.stdout and "random" in table.stdout
    data = json.loads(run(*args, "--json").stdout)
    assert data["games"] == 40 and data["bots"] == ["simple", "random"]
    assert data["difference"] == pytest.approx(data["shares"][0] - data["shares"][1])


@pytest.mark.slow  # a subprocess per wrong argument
def test_compare_command_refuses_bad_arguments():
    assert "unknown bot" in run("simple", "genius", "--against", "simple").stderr
    assert run("simple", "random", "--against", "genius").returncode == 2
    assert run("simple", "--against", "simple").returncode == 2
    assert run("simple", "random", "--against", "simple", "--games", "1").returncode == 2
    several = run("simple", "random", "--against", "simple,random")  # an audit: "unknown bot"
    assert several.returncode == 2 and "--against takes one bot" in several.stderr


def test_compare_seats_is_a_count_and_players_is_refused():
    """Issue 14, item 17: --players was a count here and a list of names in `play`."""
    args = ("simple", "random", "--against", "easy", "--games", "4", "--no-progress")
    table = run(*args, "--seats", "3")
    assert table.returncode == 0 and table.stdout.startswith("4 pairs of games, 3 players,")
    old = run(*args, "--players", "3")
    assert old.returncode == 2 and "--players is now --seats in 'compare'" in old.stderr
    helped = " ".join(run("--help").stdout.split())
    assert "--seats" in helped and "--players" not in helped
    assert "random (easy), simple (medium), expected (hard), strategist, valued (expert)" in helped
