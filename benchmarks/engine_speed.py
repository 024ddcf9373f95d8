"""Engine speed: our rules engine against the PyPI Gymnasium env ``pickomino-env``, one run.

Why: simulation speed is what self-play, search and learning code pay for, and the only
outside reference point is ``pickomino-env`` (see ``peer_pickomino_env.py``). Timing both in
one process, on one machine, in one run keeps the comparison honest; figures from separate
runs or machines are not comparable. Three contenders, 2 players each, timed one after the other
for the same budget:

(a) ours, the rulebook game (``official`` preset), every seat playing uniformly random legal
    actions; every decision counts.
(b) ours in the peer's setting: seat 0 plays random legal actions, seat 1 plays
    :func:`greedy_action`, a tiny stand-in for the env's built-in bot, under the ``short`` preset
    (the env always turns the highest grill tile face down after a bust, even the one just
    returned). Only seat 0's decisions count, as the peer counts only its agent's ``env.step``.
(c) the peer, via :func:`peer_pickomino_env.play_peer_games`.

Decisions are not the same unit on both sides: one ``env.step`` keeps a face *and* chooses roll
or stop, where our engine takes those as two decisions (plus a claim decision when several
tiles could be claimed). So compare games/s first; decisions/game is printed to show the
difference in granularity.

Our engine is driven directly (``GameState.apply``/``apply_roll`` and ``sample_roll`` with a
seeded ``random.Random``), without the ``Game`` wrapper's history, as the peer is driven
directly without Gymnasium's wrappers. Each contender plays one untimed warm-up game first.

Run: ``.venv/bin/python benchmarks/engine_speed.py [--seconds 5] [--games N] [--seed 0]``;
the peer needs ``pip install -e '.[bench]'``, without it only our figures are printed.
"""

from __future__ import annotations

import argparse
import os
import random
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass
from importlib.metadata import PackageNotFoundError, version
from pathlib import Path

from pickomino.core import Action, GameState, Phase, Rules, sample_roll
from pickomino.core.actions import ROLL, STOP, keep
from pickomino.core.rules import FACE_POINTS, WORM

NUM_PLAYERS = 2
PEER_CHUNK = 20  # peer games per play_peer_games call: the env is rebuilt per call (~0.2 ms)

#: Plays ``n`` games and returns (games completed, decisions counted).
PlayChunk = Callable[[int], tuple[int, int]]


# --------------------------------------------------------------------------- our engine
def greedy_action(state: GameState) -> Action:
    """Benchmark-only stand-in for ``pickomino-env``'s built-in bot; not a strategy to reuse.

    Keep worms if the roll shows some and none is kept yet, otherwise the face with the highest
    count * points (ties to the higher face, as the env's bot prefers worms over 5s and then the
    fewer dice). Stop as soon as a worm is kept and some tile can be claimed; of several claims,
    take the first. (The env's bot only goes for worms from its third roll on; that detail is
    left out.)
    """
    phase = state.phase
    if phase is Phase.KEEP:
        roll, kept = state.roll, state.kept
        if roll[WORM] and not kept[WORM]:
            return keep(WORM)
        face = max(
            (f for f in range(6) if roll[f] and not kept[f]),
            key=lambda f: (roll[f] * FACE_POINTS[f], f),
        )
        return keep(face)
    if phase is Phase.ROLL_OR_STOP:
        return STOP if state.has_worm() and state.claimable(state.total) else ROLL
    return state.legal_actions()[0]  # Phase.CLAIM: the first claimable tile


def ours(
    rng: random.Random, rules: Rules, opponent: Callable[[GameState], Action] | None = None
) -> PlayChunk:
    """Seat 0 plays random legal actions, seat 1 ``opponent`` (random too when None).

    Contender (a) is ``ours(rng, official)``: every decision counts. Contender (b) is
    ``ours(rng, short, greedy_action)``: only seat 0's decisions count, as the peer counts
    only its agent's ``env.step`` calls.
    """

    over, chance, choice = Phase.OVER, Phase.ROLL, rng.choice  # locals: a tight loop

    def play(n_games: int) -> tuple[int, int]:
        decisions = 0
        for _ in range(n_games):
            state = GameState(NUM_PLAYERS, rules)
            while (phase := state.phase) is not over:
                if phase is chance:
                    state.apply_roll(sample_roll(state.dice_left, rng))
                elif opponent is None or state.current == 0:
                    state.apply(choice(state.legal_actions()))
                    decisions += 1
                else:
                    state.apply(opponent(state))
        return n_games, decisions

    return play


# --------------------------------------------------------------------------- the peer
def load_peer() -> Callable[[int, int], tuple[int, int]] | str:
    """``play_peer_games``, with the env imported outside any timing, or why it is missing."""
    os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")  # the env imports pygame
    try:
        import pickomino_env.pickomino  # noqa: F401
    except ImportError as error:
        return f"{error}"
    sys.path.insert(0, str(Path(__file__).resolve().parent))
    from peer_pickomino_env import play_peer_games

    return play_peer_games


def peer_version() -> str:
    try:
        return version("pickomino-env")
    except PackageNotFoundError:
        return "?"


# --------------------------------------------------------------------------- timing
@dataclass(frozen=True)
class Result:
    label: str
    games: int
    decisions: int
    seconds: float

    @property
    def games_per_s(self) -> float:
        return self.games / self.seconds

    @property
    def decisions_per_s(self) -> float:
        return self.decisions / self.seconds

    @property
    def decisions_per_game(self) -> float:
        return self.decisions / self.games if self.games else 0.0


def measure(label: str, play: PlayChunk, chunk: int, seconds: float, games: int | None) -> Result:
    """Play chunks of games until ``games`` are done or, without it, ``seconds`` have passed."""
    play(1)  # warm-up, untimed
    done = decisions = 0
    start = time.perf_counter()
    while True:
        n = chunk if games is None else min(chunk, games - done)
        completed, made = play(n)
        done += completed
        decisions += made
        elapsed = time.perf_counter() - start
        if (games is None and elapsed >= seconds) or (games is not None and done >= games):
            return Result(label, done, decisions, elapsed)


def print_table(results: list[Result]) -> None:
    header = (
        f"{'contender':<44} {'games':>7} {'decisions':>10} {'seconds':>8} "
        f"{'games/s':>9} {'decisions/s':>12} {'dec/game':>9}"
    )
    print(header)
    print("-" * len(header))
    for r in results:
        print(
            f"{r.label:<44} {r.games:>7} {r.decisions:>10} {r.seconds:>8.2f} "
            f"{r.games_per_s:>9.1f} {r.decisions_per_s:>12.0f} {r.decisions_per_game:>9.1f}"
        )


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        description="Games/s and decisions/s of our engine and of pickomino-env, side by side."
    )
    parser.add_argument(
        "--seconds", type=float, default=5.0, help="wall-time budget per contender (default 5)"
    )
    parser.add_argument(
        "--games", type=int, default=None, help="play this many games per contender instead"
    )
    parser.add_argument("--seed", type=int, default=0, help="random seed (default 0)")
    args = parser.parse_args(argv)
    if args.seconds <= 0 or (args.games is not None and args.games <= 0):
        parser.error("--seconds and --games must be positive")

    budget = f"{args.games} games" if args.games else f"{args.seconds:g} s"
    print(
        f"Pickomino engine speed: {NUM_PLAYERS} players, seed {args.seed}, {budget} per "
        f"contender, Python {sys.version.split()[0]}"
    )
    seed = args.seed
    ours_a = measure(
        "(a) ours: all random, official",
        ours(random.Random(seed), Rules.preset("official")),
        1,
        args.seconds,
        args.games,
    )
    ours_b = measure(
        "(b) ours: random vs greedy, short (seat 0)",
        ours(random.Random(seed), Rules.preset("short"), greedy_action),
        1,
        args.seconds,
        args.games,
    )
    results = [ours_a, ours_b]

    peer = load_peer()
    if isinstance(peer, str):
        print_table(results)
        print(
            f"\npickomino-env is not installed ({peer}), so there is no peer to compare with."
            "\nInstall it into this environment with:  pip install -e '.[bench]'"
        )
        return 0
    chunks = iter(range(seed, sys.maxsize))  # a fresh seed for every play_peer_games call
    peer_c = measure(
        f"(c) pickomino-env {peer_version()}: random vs bot",
        lambda n: peer(n, next(chunks)),
        PEER_CHUNK,
        args.seconds,
        args.games,
    )
    results.append(peer_c)
    print_table(results)
    print("\nours / peer")
    print(f"  (b)/(c) games/s      {ours_b.games_per_s / peer_c.games_per_s:8.1f}x")
    print(f"  (b)/(c) decisions/s  {ours_b.decisions_per_s / peer_c.decisions_per_s:8.1f}x")
    print(f"  (a)/(c) decisions/s  {ours_a.decisions_per_s / peer_c.decisions_per_s:8.1f}x")
    print(
        "\nOne peer decision (env.step) keeps a face and chooses roll/stop; ours counts those as"
        "\ntwo decisions, so games/s is the like-for-like figure."
    )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
