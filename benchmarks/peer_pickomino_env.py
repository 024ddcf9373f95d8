"""Peer benchmark: random legal play in the PyPI package ``pickomino-env`` (1.4.x).

``pickomino_env.pickomino.PickominoEnv`` is a single-agent Gymnasium environment: the agent is
player 0 and ``number_of_bots`` heuristic bots (here one, so 2 players) play their whole turns
inside ``env.step`` whenever the agent's turn ends. A game is one episode; it terminates when no
tile is left on the table. The class is built directly rather than through
``gymnasium.make("Pickomino-v0")``, which would add checker wrappers and a 200-step time limit.

The action is ``(face, choice)`` from ``MultiDiscrete([6, 2])``: face 0..5 is the face to take
(5 = worm), choice 0 rolls the remaining dice and 1 stops. The env exposes no action mask, so the
agent derives one from ``info["dice_rolled"]`` and ``info["dice_collected"]`` and samples
uniformly among the pairs the env's own action checker accepts: the face was rolled and not yet
taken, and rolling needs dice left after taking it. Stopping is always accepted; stopping below
21, without a worm or with no tile to claim is a failed turn (the env returns the agent's top
tile), as is a roll that shows no new face. An action outside that set would not change the game
and would return ``truncated=True``; the agent never sends one.

Seeding: ``env.reset(seed=...)`` seeds only the first turn's dice, because the env's
end-of-turn reset builds ``Dice()`` with a fresh unseeded ``numpy.random.default_rng()``. To make
runs reproducible, ``play_peer_games`` rebinds ``pickomino_env.pickomino.Dice`` for its duration
so that every turn draws from the env's seeded ``env.np_random``, as the first turn does (this
also skips creating a generator per turn). The agent's choices come from ``random.Random(seed)``.

Every turn takes at most six decisions, but busts and steals can in principle keep a game going
forever, so a game is cut off after ``MAX_STEPS_PER_GAME`` decisions and then not counted as
completed; random games take about 30 decisions, so the cap never binds in practice.
"""

from __future__ import annotations

import random

NUM_DICE = 8
ROLL, STOP = 0, 1
MAX_STEPS_PER_GAME = 10_000


def play_peer_games(n_games: int, seed: int) -> tuple[int, int]:
    """Play ``n_games`` 2-player games; return (games completed, agent ``env.step`` calls)."""
    import pickomino_env.pickomino as peer

    rng = random.Random(seed)
    env = peer.PickominoEnv(number_of_bots=1)
    unseeded_dice = peer.Dice
    peer.Dice = lambda: unseeded_dice(env.np_random)
    games = decisions = 0
    try:
        for game in range(n_games):
            # Only the first reset seeds; later games continue the same generator.
            _, info = env.reset(seed=seed if game == 0 else None)
            for _ in range(MAX_STEPS_PER_GAME):
                rolled, collected = info["dice_rolled"], info["dice_collected"]
                left = NUM_DICE - sum(collected)
                actions = [
                    (face, choice)
                    for face in range(6)
                    if rolled[face] and not collected[face]
                    for choice in (ROLL, STOP)
                    if choice == STOP or left > rolled[face]
                ]
                _, _, terminated, _, info = env.step(rng.choice(actions))
                decisions += 1
                if terminated:
                    games += 1
                    break
    finally:
        peer.Dice = unseeded_dice
        env.close()
    return games, decisions
