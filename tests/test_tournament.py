"""Tournaments: seat rotation, reproducibility across processes, statistics, the command."""

import json
import subprocess
import sys

import pytest

from pickomino.core import Rules
from pickomino.sim.tournament import (
    GameOutcome,
    TournamentResult,
    bot_labels,
    run_tournament,
    seating,
    wilson_interval,
)


def test_every_bot_sits_in_every_seat_equally_often():
    for labels, players in ((["a", "b"], 2), (["a", "b"], 3), (["a", "b", "c"], 4)):
        games = [seating(labels, players, g) for g in range(len(labels) * 5)]
        for seat in range(players):
            column = [game[seat] for game in games]
            assert {column.count(label) for label in labels} == {5}


def test_a_bot_listed_twice_gets_two_labels():
    assert bot_labels(["expected", "expected", "simple"]) == ["expected", "expected#2", "simple"]


def test_same_seed_same_result_whatever_the_jobs():
    one = run_tournament(["simple", "random"], 2, 60, seed=3, jobs=1, chunk=7).to_dict()
    two = run_tournament(["simple", "random"], 2, 60, seed=3, jobs=2, chunk=7).to_dict()
    assert one == two
    other = run_tournament(["simple", "random"], 2, 60, seed=4).to_dict()
    assert other != one


def test_counts_add_up():
    result = run_tournament(["simple", "random", "simple"], 3, 30, seed=1)
    records = result.bots
    assert sum(r.games for r in records.values()) == 3 * 30
    assert sum(r.share for r in records.values()) == pytest.approx(30)
    for record in records.values():
        low, high = record.ci95
        assert 0 <= low <= record.win_share <= high <= 1


def test_the_interval_of_a_clean_sweep_is_no_point():
    """Issue 14, item 18: 20 wins of 20 gave the 95% interval [100.00%, 100.00%]."""
    result = TournamentResult()
    for _ in range(20):
        result.add(GameOutcome(("a", "b"), (5, 0), (1.0, 0.0), (5, 5)))
    low, high = result.bots["a"].ci95
    assert high == 1.0 and low == pytest.approx(0.8389, abs=1e-4)  # Wilson, 20 of 20
    low, high = result.bots["b"].ci95
    assert (low, high) == pytest.approx((0.0, 0.1611), abs=1e-4)


def test_the_interval_is_wilson_s_at_a_known_value():
    """15 wins of 20: Wilson's 95% interval is [53.13%, 88.81%] (published tables)."""
    assert wilson_interval(0.75, 20) == pytest.approx((0.5313, 0.8881), abs=1e-4)


def test_a_shared_win_counts_one_over_k_to_each():
    result = TournamentResult()
    result.add(GameOutcome(("a", "b", "c"), (0, 0, 0), (1 / 3, 1 / 3, 1 / 3), (5, 5, 5)))
    result.add(GameOutcome(("b", "c", "a"), (3, 0, 0), (1.0, 0.0, 0.0), (5, 5, 4)))
    assert result.bots["a"].ties == 1 and result.bots["a"].wins == 0
    assert result.bots["b"].wins == 1 and result.bots["b"].share == pytest.approx(4 / 3)
    assert result.bots["a"].to_dict()["mean_turns"] == 4.5


@pytest.mark.parametrize(
    ("players", "games", "message"),
    [(1, 10, "R1"), (8, 10, "R1"), (2, 0, "at least one game")],
)
def test_bad_tournaments_are_refused(players, games, message):
    with pytest.raises(ValueError, match=message):
        run_tournament(["simple"], players, games)


def run(*args):
    return subprocess.run(
        [sys.executable, "-m", "pickomino", "tournament", *args],
        capture_output=True,
        text=True,
        timeout=300,
    )


def test_tournament_command_prints_a_table_and_json():
    args = ("--bots", "simple,random", "--games", "40", "--seed", "2", "--jobs", "2")
    table = run(*args)
    assert table.returncode == 0, table.stderr
    assert "win share" in table.stdout and "simple" in table.stdout
    data = json.loads(run(*args, "--json").stdout)
    assert data["games"] == 40 and set(data["bots"]) == {"simple", "random"}
    assert set(data["bots"]["simple"]) >= {"wins", "ties", "win_share", "ci95", "mean_worms"}
    shares = sum(bot["win_share"] * bot["games"] for bot in data["bots"].values())
    assert shares == pytest.approx(40)


def test_tournament_command_refuses_bad_arguments():
    assert run("--bots", "simple,genius").returncode == 2
    assert "unknown bot" in run("--bots", "simple,genius").stderr
    assert run("--bots", "simple", "--seats", "8").returncode == 2
    assert run("--bots", "simple", "--games", "0").returncode == 2


@pytest.mark.slow  # a subprocess per case
def test_tournament_seats_is_a_count_and_players_is_refused():
    """Issue 14, item 17: --players was a count here and a list of names in `play`."""
    table = run("--bots", "simple,hard", "--seats", "3", "--games", "3", "--no-progress")
    assert table.returncode == 0 and table.stdout.startswith("3 games, 3 players,")
    old = run("--bots", "simple", "--players", "3")
    assert old.returncode == 2 and "--players is now --seats in 'tournament'" in old.stderr
    helped = " ".join(run("--help").stdout.split())
    assert "--seats" in helped and "--players" not in helped
    # every name a bot answers to, the difficulties too
    assert "random (easy), simple (medium), expected (hard), strategist, valued (expert)" in helped


@pytest.mark.slow
def test_expected_beats_simple_two_thirds_of_the_time():
    """Issue target: `expected` wins at least 66% against `simple` (2 players)."""
    result = run_tournament(["expected", "simple"], 2, 800, seed=7, rules=Rules(), jobs=2)
    assert result.bots["expected"].win_share >= 0.66


def test_a_seed_longer_than_the_languages_numbers_is_printed_whole():
    """An audit: a 30-digit seed played every game, then the title's number formatting
    (28 digits at most) crashed and the results were lost."""
    seed = "9" * 30
    done = run("--bots", "simple,random", "--games", "2", "--seed", seed, "--jobs", "1")
    assert done.returncode == 0 and "Traceback" not in done.stderr, done.stderr
    assert f"{int(seed):,}" in done.stdout and "win share" in done.stdout  # grouped
