"""Paired comparison: is bot A stronger than bot B against the same opponents?

Game ``g`` is played twice on the same dice, once with A and once with B in seat
``g mod players``, every other seat taken by the ``against`` bot. The dice are keyed by
(seed, game, turn, roll), so both games run identically until A and B first choose
differently and still share every later turn's rolls. The difference of the two win shares,
game by game, then varies far less than two independent tournaments would: for two versions
of one bot that disagree in a few moves a game, the interval of the difference is several
times narrower for the same number of games.

>>> result = compare("simple", "simple", against="random", games=4, seed=1)
>>> result.difference, result.differing
(0.0, 0.0)
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import asdict, dataclass

from pickomino.core import Rules
from pickomino.sim.engines import Engine, game_ranges, given_or_local, map_chunks
from pickomino.sim.tournament import Z95, check_setup, play_game


@dataclass(frozen=True)
class Comparison:
    """Mean win shares of A and B in their seat, and A minus B with its 95% interval."""

    bots: tuple[str, str]
    against: str
    players: int
    games: int
    seed: int
    shares: tuple[float, float]
    difference: float
    ci95: tuple[float, float]
    differing: float  # the fraction of games whose result differed between A and B

    def to_dict(self) -> dict[str, object]:
        return asdict(self)


def _seats(bot: str, against: str, players: int, game: int) -> tuple[str, ...]:
    return tuple(bot if seat == game % players else against for seat in range(players))


def _play_pairs(args: tuple[str, str, str, int, Rules, int, range]) -> list[tuple[float, float]]:
    a, b, against, players, rules, seed, games = args
    pairs = []
    for game in games:
        seat = game % players
        shares = [
            play_game(
                _seats(bot, against, players, game), rules, seed, game, keyed_dice=True
            ).shares[seat]
            for bot in (a, b)
        ]
        pairs.append((shares[0], shares[1]))
    return pairs


def compare(
    a: str,
    b: str,
    against: str,
    players: int = 2,
    games: int = 1000,
    seed: int = 0,
    rules: Rules | None = None,
    jobs: int = 1,
    progress: Callable[[int], None] | None = None,
    chunk: int | None = None,
    engine: Engine | None = None,
) -> Comparison:
    """Play ``games`` pairs of games (see the module docstring) on ``engine``, else on
    ``jobs`` local processes; ``progress`` gets each chunk's number of pairs as it finishes.
    The result depends on neither."""
    rules = rules or Rules()
    check_setup(players, (a, b, against))
    if games < 2:
        raise ValueError("a comparison needs at least two games")
    pairs: list[tuple[float, float]] = []
    with given_or_local(engine, jobs) as runner:
        chunks = [
            (a, b, against, players, rules, seed, part)
            for part in game_ranges(games, runner.workers, chunk)
        ]
        done = (lambda played: progress(len(played))) if progress else None
        for played in map_chunks(_play_pairs, chunks, runner, done):
            pairs.extend(played)
    differences = [first - second for first, second in pairs]
    mean = sum(differences) / games
    variance = sum((d - mean) ** 2 for d in differences) / (games - 1)
    half = Z95 * math.sqrt(variance / games)
    return Comparison(
        bots=(a, b),
        against=against,
        players=players,
        games=games,
        seed=seed,
        shares=(sum(p[0] for p in pairs) / games, sum(p[1] for p in pairs) / games),
        difference=mean,
        ci95=(mean - half, mean + half),
        differing=sum(d != 0 for d in differences) / games,
    )
