"""Seat-rotated tournaments between bots, in parallel across processes, reproducible.

Seat ``s`` of game ``g`` is taken by bot ``(g + s) mod k`` of the ``k`` bots listed, so
over every ``k`` consecutive games each bot sits in each seat equally often. Game ``g``
rolls its dice and seeds its bots from ``(seed, g)`` alone, so the result is the same
whatever the number of processes, the size of the chunks or the engine that plays them
(:mod:`pickomino.sim.engines`: this process, local processes or a Dask cluster).

>>> result = run_tournament(["simple", "random"], players=2, games=4, seed=1)
>>> result.games, sorted(result.bots), result.bots["simple"].games
(4, ['random', 'simple'], 4)
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from statistics import NormalDist

from pickomino.bots import make_bot
from pickomino.core import GameState, Rules
from pickomino.core.rules import MAX_PLAYERS, MIN_PLAYERS
from pickomino.sim.engines import Engine, game_ranges, given_or_local, local_engine, map_chunks
from pickomino.table import KeyedDice, SeededDice, advance

Z95 = NormalDist().inv_cdf(0.975)


@dataclass(frozen=True)
class GameOutcome:
    """One game: per seat, the bot label, worms, share of the win and own turns."""

    labels: tuple[str, ...]
    worms: tuple[int, ...]
    shares: tuple[float, ...]  # 1 for a sole winner, 1/k for a win shared by k, else 0
    turns: tuple[int, ...]


def wilson_interval(share: float, games: int) -> tuple[float, float]:
    """The Wilson score 95% interval of a win share over ``games`` games. Unlike the normal
    approximation it never shrinks to a point: 20 wins of 20 give [83.9%, 100%], not
    [100%, 100%]. A shared win counts 1/k of a win; the interval then takes the variance of
    whole wins and losses, the largest a share can have, so it errs on the wide side."""
    z2 = Z95 * Z95
    centre = (share + z2 / (2 * games)) / (1 + z2 / games)
    half = Z95 * math.sqrt(share * (1 - share) / games + z2 / (4 * games * games))
    half /= 1 + z2 / games
    return (max(0.0, centre - half), min(1.0, centre + half))


@dataclass
class BotRecord:
    games: int = 0
    wins: int = 0  # sole wins
    ties: int = 0  # shared wins
    share: float = 0.0
    worms: int = 0
    turns: int = 0

    @property
    def win_share(self) -> float:
        return self.share / self.games if self.games else 0.0

    @property
    def ci95(self) -> tuple[float, float]:
        """95% interval of the win share (see :func:`wilson_interval`)."""
        return wilson_interval(self.win_share, self.games) if self.games else (0.0, 1.0)

    def to_dict(self) -> dict[str, object]:
        return {
            "games": self.games,
            "wins": self.wins,
            "ties": self.ties,
            "win_share": self.win_share,
            "ci95": list(self.ci95),
            "mean_worms": self.worms / self.games if self.games else 0.0,
            "mean_turns": self.turns / self.games if self.games else 0.0,
        }


@dataclass
class TournamentResult:
    games: int = 0
    players: int = 2
    seed: int = 0
    rules: Rules = field(default_factory=Rules)
    bots: dict[str, BotRecord] = field(default_factory=dict)

    def add(self, outcome: GameOutcome) -> None:
        self.games += 1
        for label, worms, share, turns in zip(
            outcome.labels, outcome.worms, outcome.shares, outcome.turns, strict=True
        ):
            record = self.bots.setdefault(label, BotRecord())
            record.games += 1
            record.wins += share == 1.0
            record.ties += 0.0 < share < 1.0
            record.share += share
            record.worms += worms
            record.turns += turns

    def to_dict(self) -> dict[str, object]:
        return {
            "games": self.games,
            "players": self.players,
            "seed": self.seed,
            "rules": self.rules.to_dict(),
            "bots": {label: record.to_dict() for label, record in self.bots.items()},
        }


def bot_labels(names: Sequence[str]) -> list[str]:
    """Unique labels: a bot listed twice becomes ``expected`` and ``expected#2``."""
    labels: list[str] = []
    for name in names:
        count = sum(1 for label in labels if label.split("#")[0] == name)
        labels.append(name if count == 0 else f"{name}#{count + 1}")
    return labels


def seating(labels: Sequence[str], players: int, game: int) -> tuple[str, ...]:
    return tuple(labels[(game + seat) % len(labels)] for seat in range(players))


def play_game(
    seats: tuple[str, ...], rules: Rules, seed: int, game: int, keyed_dice: bool = False
) -> GameOutcome:
    """Play game number ``game`` of a tournament, reproducibly from (seed, game). The dice
    come from one stream per game, or with ``keyed_dice`` from (seed, game, turn, roll of the
    turn): then two games whose players choose differently still share every turn's rolls
    (as far as they throw the same number of dice), which is what paired comparisons need."""
    rng = random.Random(f"pickomino:{seed}:{game}")
    bots = [make_bot(label.split("#")[0], rng.getrandbits(32)) for label in seats]
    dice = KeyedDice(seed, game) if keyed_dice else SeededDice(rng=rng)
    state = GameState(len(seats), rules)
    advance(state, bots, dice)
    winners = state.winners()
    shares = tuple(1 / len(winners) if seat in winners else 0.0 for seat in range(len(seats)))
    return GameOutcome(seats, tuple(state.scores()), shares, turns_taken(state))


def turns_taken(state: GameState) -> tuple[int, ...]:
    """Each seat's number of turns in a finished game: turns pass in seat order (R17)."""
    played, players = state.turn, state.num_players
    return tuple(played // players + (seat < played % players) for seat in range(players))


def check_setup(players: int, bots: Iterable[str]) -> None:
    """Refuse a player count outside the rules or an unknown bot, before any process starts."""
    if not MIN_PLAYERS <= players <= MAX_PLAYERS:
        raise ValueError(f"Pickomino is for {MIN_PLAYERS} to {MAX_PLAYERS} players (R1)")
    for name in bots:
        make_bot(name)


def _play_chunk(args: tuple[Sequence[str], int, Rules, int, range]) -> list[GameOutcome]:
    labels, players, rules, seed, games = args
    return [play_game(seating(labels, players, g), rules, seed, g) for g in games]


def run_tournament(
    bots: Sequence[str],
    players: int = 2,
    games: int = 1000,
    seed: int = 0,
    rules: Rules | None = None,
    jobs: int = 1,
    progress: Callable[[int], None] | None = None,
    chunk: int | None = None,
    engine: Engine | None = None,
) -> TournamentResult:
    """Play ``games`` seat-rotated games on ``engine`` (else on ``jobs`` local processes);
    ``progress`` is called with each chunk's size as it finishes."""
    rules = rules or Rules()
    check_setup(players, bots)
    if games < 1:
        raise ValueError("a tournament needs at least one game")
    labels = bot_labels(bots)
    result = TournamentResult(players=players, seed=seed, rules=rules)
    with given_or_local(engine, jobs) as runner:
        chunks = [
            (labels, players, rules, seed, part)
            for part in game_ranges(games, runner.workers, chunk)
        ]
        done = (lambda outcomes: progress(len(outcomes))) if progress else None
        for outcomes in map_chunks(_play_chunk, chunks, runner, done):
            for outcome in outcomes:
                result.add(outcome)
    return result


def parallel_map(function, items, jobs: int) -> Iterator:
    """``map`` in order, over ``jobs`` processes (in this one for a single job)."""
    with local_engine(jobs) as engine:
        yield from map_chunks(function, list(items), engine)
