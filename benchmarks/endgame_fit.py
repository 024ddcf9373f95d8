"""How near the value network's shape can come to the exact endgame values when it learns
them directly: the ceiling of issue 27's "error against the exact endgame values ≤ 0.5
points" for this network (its features, its two hidden layers of 128), apart from how
self-play trains it.

The endgames are ``endgame_error.py``'s (the first turn's start with at most ``--face-up``
tiles face up in a game of ``expected`` against ``expected``, each stack cut to its top tile),
valued exactly (:class:`pickomino.evaluation.exact.Endgame`). Every position they reach is a
training example, its target the exact chances; the endgames are split in two, and a network
learns the first part's positions (supervised: Adam on the cross-entropy, as
``scripts/train_win_values.py`` trains), starting from the shipped weights and, separately,
from random ones. It prints the mean absolute error, in points of the mover's win chance, on
the learned endgames and on the held-out ones (at their starts and at every position
reached), with the shipped network's, unchanged, as the baseline of the same positions.

Run: ``.venv/bin/python benchmarks/endgame_fit.py [--endgames 40] [--held-out 10]
[--epochs 60] [--jobs 2]`` (the exact values: 10-30 s an endgame on one core).
"""

from __future__ import annotations

import argparse
import statistics
import sys
from pathlib import Path

import numpy as np
from endgame_error import endgame_of  # beside this file

from pickomino.evaluation.features import feature_count
from pickomino.evaluation.network import WinNetwork, shipped_network
from pickomino.sim.tournament import parallel_map

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "scripts"))
from train_win_values import Trainer, exact_rows  # noqa: E402  (scripts/, as the training uses it)


def exact_positions(job: tuple[int, int, int]) -> tuple[np.ndarray, np.ndarray] | None:
    """One endgame's live positions: features (mover's view) and exact chances (the mover's
    first), its start in row 0; None if the game ended before such an endgame."""
    game, seed, face_up = job
    start = endgame_of(game, seed, face_up, 1)
    return None if start is None else exact_rows(start)


def errors(network: WinNetwork, endgames: list[tuple[np.ndarray, np.ndarray]]) -> tuple[str, str]:
    """Mean |mover's chance − exact| in points: at the starts, and at every position."""
    starts, every = [], []
    for x, y in endgames:
        off = np.abs(network.chances(x)[:, 0] - y[:, 0])
        starts.append(float(off[0]))
        every.extend(off.tolist())
    return f"{100 * statistics.mean(starts):.2f}", f"{100 * statistics.mean(every):.2f}"


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--endgames", type=int, default=40, help="games tried (default 40)")
    parser.add_argument("--held-out", type=int, default=10, help="endgames not learned (10)")
    parser.add_argument("--face-up", type=int, default=3, help="tiles face up at most (3)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--epochs", type=int, default=60, help="passes over the positions (60)")
    parser.add_argument("--rate", type=float, default=5e-4, help="Adam's learning rate")
    parser.add_argument("--jobs", type=int, default=2)
    args = parser.parse_args(argv)
    if args.endgames < 2 or not 1 <= args.held_out < args.endgames or args.jobs < 1:
        parser.error("--endgames at least 2, --held-out 1 to one less, --jobs positive")
    if args.epochs < 1 or args.rate <= 0 or not 1 <= args.face_up <= 16:
        parser.error("--epochs and --rate must be positive, --face-up 1 to 16")
    jobs = [(game, args.seed, args.face_up) for game in range(args.endgames)]
    found = [done for done in parallel_map(exact_positions, jobs, args.jobs) if done]
    if len(found) <= args.held_out:
        sys.exit(f"only {len(found)} games reached such an endgame: fewer than --held-out + 1")
    learned, held = found[: -args.held_out], found[-args.held_out :]
    x = np.concatenate([x for x, _ in learned])
    y = np.concatenate([y for _, y in learned])
    print(
        f"{len(learned)} endgames learned ({len(x):,} positions), {len(held)} held out "
        f"({sum(len(h[0]) for h in held):,}); mean absolute error, points of win chance"
    )
    print("| network | learned: starts | every position | held out: starts | every position |")
    print("|---|---|---|---|---|")
    shipped = shipped_network(2)
    assert shipped is not None
    print(
        "| shipped, as it is |", " | ".join(errors(shipped, learned) + errors(shipped, held)), "|"
    )
    sizes = [feature_count(2)] + [w.shape[1] for w, _ in shipped.layers]
    for start in ("shipped", "random"):
        trainer = Trainer(sizes, 2, args.seed)
        if start == "shipped":
            trainer.network.layers = [(w.copy(), b.copy()) for w, b in shipped.layers]
        trainer.fit(x, y, args.epochs, args.rate)
        row = errors(trainer.network, learned) + errors(trainer.network, held)
        print(f"| from {start} weights, {args.epochs} epochs |", " | ".join(row), "|")


if __name__ == "__main__":
    main()
