"""What building a game's state costs the server at each update (issue 29): the whole state
for its clients (``state_message``, which the audience then turns into a change), and the
table's part of it (``table_view``), timed in this process, with the bare engine's action
(``web_load.engine_actions_per_second``) as the unit, so runs on different days compare.

The room is a real one (two people, an in-memory SQLite store) after ``--actions`` actions
of ``web_load.py``'s policy. To compare two versions of the code, run this file from each
(e.g. a ``git worktree`` of the older commit, put first on ``PYTHONPATH``), alternated.

Run: ``.venv/bin/python benchmarks/state_building.py [--actions 60] [--repeat 3]``.
"""

from __future__ import annotations

import argparse
import asyncio
import random
import sys
import timeit
from collections.abc import Callable
from pathlib import Path

from pickomino.core import GameRecord
from pickomino.table.view import table_view
from pickomino.web.db.store import Store
from pickomino.web.game.room import Room
from pickomino.web.game.state_message import state_message

sys.path.insert(0, str(Path(__file__).resolve().parent))
from web_load import choose, engine_actions_per_second  # noqa: E402  (beside this file)


def played_room(actions: int, seed: int) -> Room:
    """Two people's game on an in-memory store after ``actions`` actions (fewer if it ends)."""
    record = GameRecord(["Ann", "Bob"])
    room = Room.create(Store("sqlite://"), record, [None, None], bot_delay=0, creator=0)
    room.claim(1)
    rng = random.Random(seed)

    async def play() -> None:
        for _ in range(actions):
            state = room.game.state
            if state.is_over:
                return
            names = room.session.actions()
            action = choose(rng, names, state.total, state.has_worm())
            await room.act(room.session.waiting_person(), action, room.seq)

    asyncio.run(play())
    return room


def microseconds(call: Callable[[], object]) -> float:
    """The best of five rounds of at least 0.2 s each: µs a call."""
    timer = timeit.Timer(call)
    number, _ = timer.autorange()
    return min(timer.repeat(5, number)) / number * 1e6


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--actions", type=int, default=60, help="actions played before timing")
    parser.add_argument("--repeat", type=int, default=3, help="rounds of the three timings")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args(argv)
    if args.actions < 0 or args.repeat < 1:
        parser.error("--actions must be at least 0 and --repeat at least 1")
    room = played_room(args.actions, args.seed)
    state = room.game.state
    print(f"a room after {room.seq} stored moves, phase {state.phase.value}, turn {state.turn}")
    print("round  engine action  state_message (x engine)  table_view (x engine)")
    for round_ in range(1, args.repeat + 1):
        engine = 1e6 / engine_actions_per_second(1.0, args.seed)
        whole = microseconds(lambda: state_message(room, 10**6))
        table = microseconds(lambda: table_view(state))
        print(
            f"{round_:5}  {engine:10.1f} us  {whole:10.1f} us ({whole / engine:4.1f}x)"
            f"  {table:10.1f} us ({table / engine:4.1f}x)"
        )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
