"""Train the value network (``pickomino.evaluation``) by fitted value iteration on positions
of bot games: each position's target is the exact turn solver's value of the mover's turn,
its endings valued by the network itself (``turn_tables``); the network is fitted to the
targets, and again, until it agrees with itself. It starts from the strategist's win model
(fitted to it first), and a tenth of the positions is held out to show that what it learns
holds for positions it never saw.

Run (reproducible from ``--seed``; the shipped two-player weights were made by the defaults
with ``--endgames 5 --games 8000``, then ten sweeps more with ``--exact 40``: docs/evaluator.md; it
needs the ``exact`` extra, SciPy, as well as NumPy):

    .venv/bin/python scripts/train_win_values.py --endgames 5 --games 8000 \\
        --out src/pickomino/evaluation/win_values_2p.npz --curve docs/win_values_curve.csv

A long run can stop and go on: ``--checkpoint DIR`` keeps the positions and every sweep, the
same command goes on from there (``--until N`` stops after sweep N), see docs/evaluator.md.

``--exact N`` (two players) also values N small endgames exactly (``Endgame``: the first turn
start with at most ``--exact-face-up`` tiles face up of games after those giving the
positions, each stack cut to its top tile) and fits every position they reach to its exact
chances, every sweep, beside the search's targets: true values where they can be had, as
backgammon programs learn beside their bear-off databases. Every tenth endgame is held out,
and the curve's last column is the network's error on them. ``--exact-share F`` fits, each
sweep, another random draw of the exact positions making that share of the rows fitted (all
of them, every sweep, without it): many endgames without outweighing the games' positions.
``--start WEIGHTS`` begins from a network (the shipped one, say) instead of from the
strategist's win model.

Each sweep prints the mean |value − target| before fitting (the residual: how far the
network is from agreeing with its own one-turn search), the same on the held-out positions,
and after fitting.
"""

from __future__ import annotations

import argparse
import csv
import math
import os
import pickle
import random
import sys
import time
from multiprocessing import Pool
from pathlib import Path
from typing import NamedTuple

import numpy as np

from pickomino.bots import make_bot
from pickomino.bots.strategist import win_probabilities
from pickomino.core import GameState
from pickomino.core.rules import MAX_PLAYERS, MIN_PLAYERS
from pickomino.evaluation.exact import Endgame, cut_stacks
from pickomino.evaluation.features import feature_count, features
from pickomino.evaluation.network import WinNetwork
from pickomino.evaluation.values import result
from pickomino.files import unwritable
from pickomino.solver import TurnValues, solve
from pickomino.solver.endings import turn_endings
from pickomino.table import SeededDice
from pickomino.table.loop import turn_starts

#: The bots whose games give the positions (``expected`` and ``strategist`` twice as often).
PLAYERS = ("random", "simple", "expected", "expected", "strategist", "strategist")
#: Games longer than this many turns (bots that never score) give no more positions.
LONGEST = 200


def positions(games: range, players: int, seed: int, endgames: int = 0) -> list[GameState]:
    """The turn starts of ``games`` played by bots drawn from :data:`PLAYERS`; with
    ``endgames``, also each turn start with at most that many tiles face up, its stacks cut
    to their top 1 or 2 tiles (``cut_stacks``): the kind of endgame valued exactly
    (``benchmarks/endgame_error.py``), rare in whole games, where the network learns little of
    it otherwise."""
    found = []
    for game in games:
        rng = random.Random(seed * 1_000_003 + game)
        bots = [make_bot(rng.choice(PLAYERS), rng.randrange(1 << 30)) for _ in range(players)]
        for state in turn_starts(GameState(players), bots, SeededDice(rng=rng)):
            if state.turn >= LONGEST:
                break
            found.append(state.copy())
            if len(state.grill) <= endgames and any(len(stack) > 1 for stack in state.stacks):
                found.append(cut_stacks(state, rng.choice((1, 2))))
    return found


def exact_endgame(job: tuple[int, int, int]) -> tuple[np.ndarray, np.ndarray] | None:
    """Two-player game ``game`` (bots drawn as for :func:`positions`): its first turn start
    with at most ``face_up`` tiles face up, each stack cut to its top tile (as
    ``benchmarks/endgame_error.py`` makes them), and every position that endgame reaches,
    valued exactly (``Endgame``): their features and chances in turn order from the mover.
    None when the game never gets there or the endgame reaches too many positions."""
    game, seed, face_up = job
    rng = random.Random(seed * 1_000_003 + game)
    bots = [make_bot(rng.choice(PLAYERS), rng.randrange(1 << 30)) for _ in range(2)]
    for state in turn_starts(GameState(2), bots, SeededDice(rng=rng)):
        if state.turn >= LONGEST:
            return None
        if len(state.grill) <= face_up:
            try:
                return exact_rows(cut_stacks(state, 1))
            except ValueError:  # too many positions to value
                return None
    return None


def exact_rows(start: GameState) -> tuple[np.ndarray, np.ndarray]:
    """Every live position the two-player endgame from ``start`` reaches, valued exactly
    (``Endgame``; ``ValueError`` when it reaches too many): their features and chances in
    turn order from the mover, ``start``'s first."""
    endgame = Endgame(start)
    live = [position for position in endgame.states if not position.is_over]
    chances = [np.roll(endgame.chances(p), -p.current) for p in live]
    return np.stack([features(p) for p in live]), np.stack(chances)


class Positions:
    """Positions with what their targets need, laid out so that a sweep works on whole arrays:
    their features, every ending of their turn (features of the unfinished ones, results of
    the finished ones), and which endings form each claim group (the bust's first)."""

    def __init__(self, states: list[GameState]) -> None:
        self.players = states[0].num_players
        self.x = np.stack([features(state) for state in states])
        self.mover = np.array([state.current for state in states])
        self.model = np.stack([np.roll(model_chances(state), -state.current) for state in states])
        live: list[np.ndarray] = []  # features of the endings still played
        live_current: list[int] = []  # who moves in each of them
        finished: list[np.ndarray] = []  # results of the endings that end the game
        items: list[tuple[bool, int]] = []  # every group's endings in a row: (finished?, index)
        group_sizes: list[int] = []
        first_group, group_of, success = [], [], []
        for state in states:
            endings = turn_endings(state)
            first_group.append(len(group_sizes))
            for group in endings.positions:
                group_sizes.append(len(group))
                for ending in group:
                    if ending.is_over:
                        items.append((True, len(finished)))
                        finished.append(result(ending))
                    else:
                        items.append((False, len(live)))
                        live.append(features(ending))
                        live_current.append(ending.current)
            group_of.append(endings.group_of)
            success.append(tuple(group >= 0 for group in endings.group_of))
        self.endings = np.stack(live)
        self.finished = np.array(finished).reshape(-1, self.players)
        #: Each item's row among the live endings' chances, then the finished ones' results.
        self.item_rows = np.array(
            [len(live) + i if done else i for done, i in items], dtype=np.intp
        )
        #: The column of a live ending's chances (turn order from its mover) for each seat.
        self.column_of_seat = (np.arange(self.players) - np.array(live_current)[:, None]) % (
            self.players
        )
        self.group_starts = np.concatenate([[0], np.cumsum(group_sizes)[:-1]]).astype(np.intp)
        groups_per_position = np.diff([*first_group, len(group_sizes)])
        self.item_mover = np.repeat(np.repeat(self.mover, groups_per_position), group_sizes)
        #: Each position's group for each total (the bust's for a total that claims nothing).
        self.total_group = np.array(first_group)[:, None] + np.array(group_of) + 1
        self.first_group = np.array(first_group, dtype=np.intp)
        self.success = success

    def chosen(self, network: WinNetwork) -> np.ndarray:
        """Every seat's chance after each claim group's claim best for the mover (the first
        best, as ``tables_of`` takes it) and after each bust: a row per group, by seat."""
        chances = network.chances(self.endings)
        by_seat = np.take_along_axis(chances, self.column_of_seat, axis=1)
        items = np.concatenate([by_seat, self.finished])[self.item_rows]
        mover_chance = items[np.arange(len(items)), self.item_mover]
        best = np.maximum.reduceat(mover_chance, self.group_starts)
        group_of_item = np.repeat(np.arange(len(best)), np.diff([*self.group_starts, len(items)]))
        first_best = np.where(
            mover_chance == best[group_of_item], np.arange(len(items)), len(items)
        )
        return items[np.minimum.reduceat(first_best, self.group_starts)]

    def targets(self, network: WinNetwork) -> np.ndarray:
        """Each position's value under the mover's best turn, its endings valued by
        ``network``: rows in turn order from the mover, as the network gives them."""
        chosen = self.chosen(network)
        ends = chosen[self.total_group]  # (positions, totals, seats)
        busts = chosen[self.first_group]  # (positions, seats)
        players = self.players
        out = np.empty((len(self.mover), players))
        for i, mover in enumerate(self.mover.tolist()):
            seats = range(players) if players > 2 else [mover]  # two: the mover's table is enough
            tables = {
                seat: TurnValues(
                    tuple(ends[i, :, seat].tolist()), float(busts[i, seat]), self.success[i]
                )
                for seat in seats
            }
            best = solve(tables[mover])
            if players == 2:  # each ending's chances sum to 1: so do the turn's
                out[i] = best.start_value, 1.0 - best.start_value
            else:
                by_seat = [
                    best.start_value if s == mover else best.evaluate(tables[s])
                    for s in range(players)
                ]
                out[i] = by_seat[mover:] + by_seat[:mover]  # in turn order from the mover
        return out


def model_chances(state: GameState) -> np.ndarray:
    """The strategist's win model, the chances summing to 1 (where training starts)."""
    chances = np.array(win_probabilities(state))
    return chances / chances.sum()


class Trainer:
    """Adam on the cross-entropy between the network's chances and soft targets."""

    def __init__(
        self, sizes: list[int], players: int, seed: int, start: WinNetwork | None = None
    ) -> None:
        rng = np.random.default_rng(seed)
        layers = []
        for i, (a, b) in enumerate(zip(sizes, sizes[1:], strict=False)):
            scale = (0.1 if i == len(sizes) - 2 else 1.0) / math.sqrt(a)
            layers.append((rng.normal(0, scale, (a, b)), np.zeros(b)))
        self.network = start or WinNetwork(layers, players)  # ``start``: from its weights
        self.moments = [[np.zeros_like(p) for p in layer] for layer in layers]
        self.squares = [[np.zeros_like(p) for p in layer] for layer in layers]
        self.steps = 0
        self.rng = rng

    def fit(self, x: np.ndarray, y: np.ndarray, epochs: int, rate: float, batch: int = 256) -> None:
        for _ in range(epochs):
            order = self.rng.permutation(len(x))
            for start in range(0, len(x), batch):
                rows = order[start : start + batch]
                self._step(x[rows], y[rows], rate)

    def _step(self, x: np.ndarray, y: np.ndarray, rate: float) -> None:
        network = self.network
        hidden = network.hidden(x)
        delta = (network.chances(x, hidden) - y) / len(x)
        grads = []
        for i in range(len(network.layers) - 1, -1, -1):
            weight, _ = network.layers[i]
            grads.append((hidden[i].T @ delta, delta.sum(axis=0)))
            if i:
                delta = (delta @ weight.T) * (1 - hidden[i] ** 2)
        grads.reverse()
        self.steps += 1
        for layer, moment, square, grad in zip(
            network.layers, self.moments, self.squares, grads, strict=True
        ):
            for param, m, v, g in zip(layer, moment, square, grad, strict=True):
                m *= 0.9
                m += 0.1 * g
                v *= 0.999
                v += 0.001 * g * g
                m_hat, v_hat = m / (1 - 0.9**self.steps), v / (1 - 0.999**self.steps)
                param -= rate * m_hat / (np.sqrt(v_hat) + 1e-8)


_CHUNKS: list[Positions] = []


def _prepare(job: tuple[range, int, int, int]) -> Positions:
    return Positions(positions(*job))


def _targets(job: tuple[int, WinNetwork]) -> np.ndarray:
    return _CHUNKS[job[0]].targets(job[1])


def mean_error(network: WinNetwork, x: np.ndarray, y: np.ndarray) -> float:
    """Mean |chance − target| of the mover."""
    return float(np.abs(network.chances(x)[:, 0] - y[:, 0]).mean())


def damped(network: WinNetwork, x: np.ndarray, searched: np.ndarray, damping: float) -> np.ndarray:
    """The targets a sweep fits: ``damping`` of the way from the network's chances to its
    one-turn search's. Why: the search values a turn's endings by the next mover's chances,
    so what the network gets wrong for one seat it learns a sweep later for the seat after
    it: an error goes round the table and back to the mover every players' number of sweeps
    (the residual rises and falls with that period). Moved part of the way, it dies out as
    it goes round."""
    if damping == 1:
        return searched
    return damping * searched + (1 - damping) * network.chances(x)


class Checkpoint:
    """A training that can stop and go on (``--checkpoint DIR``): the positions, kept once
    made (the longest part of a run), and after every sweep the trainer (weights, Adam's
    moments, its random generator) with the curve so far. A run that goes on from it gives
    the same weights as one never stopped. The files are pickles for this script alone:
    never load one from elsewhere."""

    def __init__(self, folder: Path, settings: dict[str, object]) -> None:
        self.folder, self.settings = folder, settings

    def load(self, name: str, keys: tuple[str, ...]) -> object | None:
        """What ``name`` keeps, if made by a run whose ``keys`` settings were these;
        ``ValueError`` when they were not (going on with other settings would mix two runs)
        or when the file is no checkpoint of this script."""
        path = self.folder / f"{name}.pickle"
        if not path.exists():
            return None
        try:
            with path.open("rb") as file:
                saved, kept = pickle.load(file)
            saved = {**ADDED_SETTINGS, **saved}
            saved = {key: saved[key] for key in keys}
        except Exception as error:  # unpickling raises many kinds: all mean the same here
            raise ValueError(f"{path} is not a checkpoint of this script ({error!r})") from error
        differ = [
            f"--{key.replace('_', '-')} {saved[key]}"
            for key in keys
            if saved[key] != self.settings[key]
        ]
        if differ:
            raise ValueError(
                f"{path} was made with {', '.join(differ)}: use those, or another folder"
            )
        return kept

    def save(self, name: str, kept: object) -> None:
        """Written whole or not at all: a run killed while writing keeps the last one."""
        path = self.folder / f"{name}.pickle"
        part = path.with_suffix(".part")
        with part.open("wb") as file:
            pickle.dump((self.settings, kept), file, protocol=pickle.HIGHEST_PROTOCOL)
        os.replace(part, path)


#: The settings that make the positions, and those that make the training from them.
POSITION_SETTINGS = ("players", "games", "seed", "endgames")
#: The settings that make the exact endgames' values.
EXACT_SETTINGS = ("players", "games", "seed", "exact", "exact_face_up")
TRAINING_SETTINGS = (
    *POSITION_SETTINGS,
    "sweeps",
    "hidden",
    "rate",
    "final_rate",
    "epochs",
    "damping",
    "exact",
    "exact_face_up",
    "exact_share",
    "start",
)
#: Settings added after checkpoints were made, with the value those runs had.
ADDED_SETTINGS = {
    "damping": 1.0,
    "exact": 0,
    "exact_face_up": 3,
    "exact_share": None,
    "start": None,
}


def prepared_positions(args: argparse.Namespace, checkpoint: Checkpoint | None) -> list[Positions]:
    """The positions of ``--games`` bot games in ten chunks (the last held out), from the
    checkpoint when it has them."""
    if checkpoint is not None:
        kept = checkpoint.load("positions", POSITION_SETTINGS)
        if kept is not None:
            return kept
    chunk = max(1, args.games // 10)
    jobs = [
        (range(g, min(g + chunk, args.games)), args.players, args.seed, args.endgames)
        for g in range(0, args.games, chunk)
    ]
    with Pool(args.jobs) as pool:  # a chunk at a time: pairs would leave a core idle at the end
        chunks = pool.map(_prepare, jobs, chunksize=1)
    if checkpoint is not None:
        checkpoint.save("positions", chunks)
    return chunks


class Exact(NamedTuple):
    """The exact endgames' positions (``--exact``): those fitted, with their chances, and
    those held out (every tenth endgame's), whose error the curve follows."""

    x: np.ndarray
    y: np.ndarray
    held_x: np.ndarray
    held_y: np.ndarray


def prepared_exact(args: argparse.Namespace, checkpoint: Checkpoint | None) -> Exact | None:
    """The exact values of ``--exact`` small endgames, from games after those giving the
    positions (so none of theirs), from the checkpoint when it has them."""
    if not args.exact:
        return None
    if checkpoint is not None:
        kept = checkpoint.load("exact", EXACT_SETTINGS)
        if kept is not None:
            return kept
    games = range(args.games, args.games + args.exact)
    jobs = [(game, args.seed, args.exact_face_up) for game in games]
    with Pool(args.jobs) as pool:
        found = [done for done in pool.map(exact_endgame, jobs, chunksize=1) if done]
    held = found[9::10]
    fitted = [done for i, done in enumerate(found) if i % 10 != 9]
    empty = np.zeros((0, feature_count(2))), np.zeros((0, 2))
    exact = Exact(
        *(np.concatenate([part[k] for part in fitted] or [empty[k]]) for k in (0, 1)),
        *(np.concatenate([part[k] for part in held] or [empty[k]]) for k in (0, 1)),
    )
    if checkpoint is not None:
        checkpoint.save("exact", exact)
    return exact


def exact_drawn(
    exact: int, positions: int, share: float | None, seed: int, sweep: int
) -> np.ndarray:
    """Which of the ``exact`` positions a sweep fits beside ``positions`` others: all of them
    without a share; else a draw without repeats, another each sweep (the same for the same
    seed and sweep, so a run gone on from its checkpoint draws as one never stopped), of as
    many as make ``share`` of the rows fitted."""
    if share is None:
        return np.arange(exact)
    wanted = min(exact, round(share / (1 - share) * positions))
    drawn = np.random.default_rng([seed, sweep]).choice(exact, wanted, replace=False)
    return np.sort(drawn)


CURVE_COLUMNS = ("sweep", "residual", "held_out_residual", "fit_error", "seconds", "exact_error")
SECONDS = CURVE_COLUMNS.index("seconds")


def starting_network(
    parser: argparse.ArgumentParser, path: str | None, sizes: list[int]
) -> WinNetwork | None:
    """The network at ``--start``, refused (before any work) unless its layers' sizes are the
    training's: ``sizes``, the features', ``--hidden``'s and the players'."""
    if path is None:
        return None
    try:
        network = WinNetwork.read(path)
    except ValueError as error:
        parser.error(f"--start {error}")
    found = [network.layers[0][0].shape[0], *(w.shape[1] for w, _ in network.layers)]
    if found != sizes:
        parser.error(f"--start: {path} has layers of {found}, this training {sizes}")
    return network


def hidden_sizes(text: str) -> list[int] | None:
    """``--hidden``'s layer sizes (``128,128``), or None unless each is a positive count."""
    sizes = [int(size) if size.strip().isdecimal() else 0 for size in text.split(",")]
    return sizes if min(sizes) > 0 else None


def checked(parser: argparse.ArgumentParser, args: argparse.Namespace) -> list[int]:
    """Every option refused (exit 2, one line) before any work unless it can be used; the
    layers' sizes: the features', ``--hidden``'s and the players'."""
    if not MIN_PLAYERS <= args.players <= MAX_PLAYERS:
        parser.error(f"--players must be {MIN_PLAYERS} to {MAX_PLAYERS}")
    for option, path in (("--out", args.out), ("--curve", args.curve)):
        why = unwritable(path) if path is not None else None
        if why:
            parser.error(f"{option}: {why}")
    folder = args.checkpoint
    if folder is not None and folder.exists() and not folder.is_dir():
        parser.error(f"--checkpoint: {folder} is a file, not a folder")
    if folder is not None and not folder.parent.is_dir():
        parser.error(f"--checkpoint: {folder.parent} is not a folder")
    if args.games < 2:
        parser.error("--games must be at least 2 (a tenth of them, at least one, is held out)")
    if min(args.sweeps, args.epochs, args.jobs, 1 if args.until is None else args.until) < 1:
        parser.error("--sweeps, --epochs, --jobs and --until must be positive")
    if args.endgames < 0:
        parser.error("--endgames must be 0 or more")
    if not all(math.isfinite(rate) and rate >= 0 for rate in (args.rate, args.final_rate)):
        parser.error("--rate and --final-rate must be finite and not negative")
    if not 0 < args.damping <= 1:
        parser.error(f"--damping must be above 0 and at most 1, not {args.damping}")
    if args.until is not None and args.checkpoint is None:
        parser.error("--until needs --checkpoint (where the next run goes on from)")
    if args.exact < 0 or (args.exact and args.players != 2):
        parser.error("--exact needs two players and a count of at least 0")
    if not 1 <= args.exact_face_up <= 16:
        parser.error("--exact-face-up must be 1 to 16")
    if args.exact_share is not None and not (args.exact and 0 < args.exact_share < 1):
        parser.error("--exact-share needs --exact and a share above 0 and below 1")
    hidden = hidden_sizes(args.hidden)
    if hidden is None:
        parser.error(f"--hidden must be positive sizes by comma (128,128), not {args.hidden!r}")
    return [feature_count(args.players), *hidden, args.players]


def write_curve(path: Path, rows: list[tuple[float, ...]]) -> None:
    """The curve, a row a sweep (a checkpoint's rows from before ``--exact`` lack its
    column: empty there, as it is in a run without held-out exact endgames)."""
    with path.open("w", newline="") as file:
        out = csv.writer(file)
        out.writerow(CURVE_COLUMNS)
        out.writerows([*row, *[""] * (len(CURVE_COLUMNS) - len(row))] for row in rows)


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--players", type=int, default=2)
    parser.add_argument("--games", type=int, default=2000, help="bot games giving positions")
    parser.add_argument("--sweeps", type=int, default=30)
    parser.add_argument("--hidden", default="128,128", help="hidden layers' sizes")
    parser.add_argument("--rate", type=float, default=5e-4, help="Adam's learning rate")
    parser.add_argument(
        "--final-rate", type=float, default=5e-5, help="the last sweep's (linear from --rate)"
    )
    parser.add_argument("--epochs", type=int, default=3, help="epochs of fitting per sweep")
    parser.add_argument(
        "--damping",
        type=float,
        default=1.0,
        help="each sweep moves the values this share of the way to their search's (0 to 1)",
    )
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument(
        "--endgames",
        type=int,
        default=0,
        help="also each turn start with at most this many tiles face up, its stacks cut",
    )
    parser.add_argument(
        "--exact",
        type=int,
        default=0,
        help="also fit this many small endgames' exact values (two players; a tenth held out)",
    )
    parser.add_argument(
        "--exact-face-up",
        type=int,
        default=3,
        help="the exact endgames: at most this many tiles face up (each stack cut to its top)",
    )
    parser.add_argument(
        "--exact-share",
        type=float,
        help="fit a new draw of the exact positions each sweep, this share of the rows fitted",
    )
    parser.add_argument(
        "--start", help="begin from these weights (.npz), not from the strategist's win model"
    )
    parser.add_argument("--out", type=Path, required=True, help="the weights (.npz)")
    parser.add_argument("--curve", type=Path, help="the sweeps' errors as CSV")
    parser.add_argument(
        "--checkpoint",
        type=Path,
        help="a folder keeping the positions and each sweep: the same command goes on from it",
    )
    parser.add_argument(
        "--until", type=int, help="stop after this sweep (go on later with the same checkpoint)"
    )
    args = parser.parse_args(argv)
    sizes = checked(parser, args)
    begin = starting_network(parser, args.start, sizes)
    checkpoint = None
    if args.checkpoint is not None:
        try:
            args.checkpoint.mkdir(exist_ok=True)
        except OSError as error:
            parser.error(f"--checkpoint: {args.checkpoint} cannot be made ({error.strerror})")
        why = unwritable(args.checkpoint / "training.part")  # where each save begins
        if why:
            parser.error(f"--checkpoint: {why}")
        checkpoint = Checkpoint(
            args.checkpoint, {key: vars(args)[key] for key in TRAINING_SETTINGS}
        )
    global _CHUNKS
    try:  # a checkpoint of other settings is refused before any work
        kept = checkpoint.load("training", TRAINING_SETTINGS) if checkpoint is not None else None
        start = time.perf_counter()
        _CHUNKS = prepared_positions(args, checkpoint)
        exact = prepared_exact(args, checkpoint)
    except ValueError as error:
        parser.error(str(error))
    held = _CHUNKS[-1]  # the last chunk's positions are never fitted
    x = np.concatenate([c.x for c in _CHUNKS[:-1]])
    print(
        f"{len(x)} positions to fit, {len(held.x)} held out ({time.perf_counter() - start:.0f} s)"
    )
    if exact is not None:
        print(f"{len(exact.x)} exact endgame positions to fit, {len(exact.held_x)} held out")
        if args.exact_share is not None:
            each = len(exact_drawn(len(exact.x), len(x), args.exact_share, args.seed, 1))
            print(f"each sweep fits {each} of them, drawn anew")
    if kept is not None:
        trainer, rows = kept
        start -= rows[-1][SECONDS] if rows else 0.0  # the curve's seconds go on from the last run
        print(f"going on after sweep {len(rows)}", flush=True)
    else:
        trainer = Trainer(sizes, args.players, args.seed, begin)
        if begin is None:
            trainer.fit(x, np.concatenate([c.model for c in _CHUNKS[:-1]]), 20, 1e-3)
        rows = []

    def keep(trainer: Trainer, rows: list[tuple[float, ...]]) -> None:
        """The weights and the curve so far, and the checkpoint to go on from."""
        trainer.network.save(args.out)
        if args.curve is not None:
            write_curve(args.curve, rows)
        if checkpoint is not None:
            checkpoint.save("training", (trainer, rows))

    last = args.sweeps if args.until is None else min(args.until, args.sweeps)
    if len(rows) >= last:  # the checkpoint had every sweep asked for: its weights and curve
        keep(trainer, rows)
    with Pool(args.jobs) as pool:  # forked after the positions: they are shared, not sent
        for sweep in range(len(rows) + 1, last + 1):
            jobs = [(k, trainer.network) for k in range(len(_CHUNKS))]
            targets = pool.map(_targets, jobs, chunksize=1)
            searched = np.concatenate(targets[:-1])
            before = mean_error(trainer.network, x, searched)
            held_out = mean_error(trainer.network, held.x, targets[-1])
            y = damped(trainer.network, x, searched, args.damping)
            to_fit, against_exact = x, None
            if exact is not None:  # the exact values are fitted as they are
                drawn = exact_drawn(len(exact.x), len(x), args.exact_share, args.seed, sweep)
                to_fit = np.concatenate([x, exact.x[drawn]])
                y = np.concatenate([y, exact.y[drawn]])
                if len(exact.held_x):  # none held out with fewer than ten endgames
                    against_exact = mean_error(trainer.network, exact.held_x, exact.held_y)
            progress = (sweep - 1) / max(1, args.sweeps - 1)
            trainer.fit(
                to_fit, y, args.epochs, args.rate + (args.final_rate - args.rate) * progress
            )
            after = mean_error(trainer.network, to_fit, y)
            row: tuple[float, ...] = (sweep, before, held_out, after, time.perf_counter() - start)
            rows.append(row if against_exact is None else (*row, against_exact))
            print(
                f"sweep {sweep}: residual {before:.5f}, held out {held_out:.5f},"
                f" after fitting {after:.5f}"
                + (
                    ""
                    if against_exact is None
                    else f", held-out exact endgames {against_exact:.5f}"
                )
                + f" ({row[SECONDS]:.0f} s)",
                flush=True,
            )
            keep(trainer, rows)


if __name__ == "__main__":
    main(sys.argv[1:])
