"""The leaderboard and a bot level's page with many games on record: the figures kept as each
result is recorded (``totals``, ``met``: what the server reads) against summing every result
at each look (what it did before; the naive route, run here on the same database).

Why: the web audit found the leaderboard took seconds with 100,000 games, on the server's
event loop (four parallel looks stalled a trivial request for 10 s). The pages are now read
from the kept figures, in a worker thread.

The database: a fresh SQLite file in a temporary folder with ``--games`` rated 3-seat games
(a profile among ``--profiles`` against two bot levels, random ranks and worms), their results
inserted directly (no figure kept, as by a version before them) and the figures counted from
them as a start does (timed too). The old queries run on the same database, with the index
migration 0007 added (a page's latest results).

Run: ``.venv/bin/python benchmarks/leaderboard.py`` (``--games 100000 --profiles 300``).
"""

from __future__ import annotations

import argparse
import random
import secrets
import statistics
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

import sqlalchemy as sa

from pickomino.web.db.networks import Networks
from pickomino.web.db.profiles import ProfileStore
from pickomino.web.db.store import Store
from pickomino.web.db.tables import ratings, results

BOTS = ["bot-easy", "bot-medium", "bot-hard", "bot-expert"]
#: The leaderboard as it was summed before the figures were kept (the naive route).
SUMMED_BOARD = """
WITH met AS (
  SELECT mine.player, count(DISTINCT theirs.player) AS opponents FROM results mine
  JOIN results theirs ON theirs.game_id = mine.game_id AND theirs.player <> mine.player
  WHERE mine.rated GROUP BY mine.player)
SELECT ratings.player, ratings.mu, ratings.sigma, coalesce(met.opponents, 0) < 5 AS provisional,
       count(*) AS games, sum(results.win) AS wins
FROM ratings JOIN results ON results.player = ratings.player
LEFT JOIN met ON met.player = ratings.player
WHERE results.rated GROUP BY ratings.player, ratings.mu, ratings.sigma, met.opponents
ORDER BY provisional, ratings.mu - 3 * ratings.sigma DESC, ratings.player LIMIT 100
"""
#: A bot level's page as it was read before: its figures summed, its last 500 results, its
#: last 20 reviewed ones.
SUMMED_PAGE = (
    """SELECT (SELECT count(DISTINCT theirs.player) FROM results mine JOIN results theirs
                 ON theirs.game_id = mine.game_id AND theirs.player <> mine.player
               WHERE mine.rated AND mine.player = :player),
              count(*), sum(win), avg(worms) FROM results WHERE player = :player""",
    """SELECT * FROM results WHERE player = :player
       ORDER BY finished DESC, game_id DESC LIMIT 500""",
    """SELECT * FROM results WHERE player = :player AND decisions IS NOT NULL
       ORDER BY finished DESC, game_id DESC LIMIT 20""",
)


#: The secret the run's networks are hashed under (see pickomino.web.db.networks).
SECRET = secrets.token_bytes(32)


def profiles_of(store: Store) -> ProfileStore:
    """The profiles as the app keeps them, their networks hashed under the run's secret."""
    return ProfileStore(store, Networks(store.engine, SECRET))


def fill(store: Store, games: int, profiles: int, seed: int) -> None:
    """``games`` rated results of a profile and two bot levels, then the kept figures."""
    rng = random.Random(seed)
    people = profiles_of(store)
    ids = [people.claim(f"P{n}", f"10.{n // 250}.{n % 250}.1")[0].id for n in range(profiles)]
    now = time.time()
    rows = []
    for number in range(games):
        for seat, player in enumerate([rng.choice(ids), *rng.sample(BOTS, 2)]):
            rank = rng.randint(1, 3)
            rows.append(
                {"game_id": f"g{number:07d}", "seat": seat, "player": player, "rank": rank,
                 "worms": rng.randint(0, 20), "players": 3, "win": float(rank == 1),
                 "rated": True, "mu": 25.0, "sigma": 8.0, "finished": now - number}
            )  # fmt: skip
    with store.engine.begin() as db:
        for start in range(0, len(rows), 10_000):
            db.execute(results.insert(), rows[start : start + 10_000])
        for player in ids + BOTS:
            mu, sigma = rng.gauss(25, 3), rng.uniform(2, 8)
            db.execute(ratings.insert().values(player=player, mu=mu, sigma=sigma, updated=now))


def median_ms(look: Callable[[], object], repeats: int) -> float:
    times = []
    for _ in range(repeats):
        start = time.perf_counter()
        look()
        times.append(time.perf_counter() - start)
    return 1000 * statistics.median(times)


def summed(store: Store, *queries: str, **params: object) -> Callable[[], object]:
    def look() -> object:
        with store.engine.connect() as db:
            return [db.execute(sa.text(query), params).all() for query in queries]

    return look


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=100_000, help="rated games on record")
    parser.add_argument("--profiles", type=int, default=300, help="profiles among them")
    parser.add_argument("--repeats", type=int, default=5, help="looks timed (the median)")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    for name in ("games", "profiles", "repeats"):
        if getattr(args, name) < 1:
            parser.error(f"--{name} must be at least 1")
    with tempfile.TemporaryDirectory() as folder:
        store = Store(str(Path(folder) / "games.sqlite3"))
        try:
            fill(store, args.games, args.profiles, args.seed)
            kept = profiles_of(store)
            start = time.perf_counter()
            kept.recount()  # what a start does with figures that disagree with the results
            recount = time.perf_counter() - start
            looks = {
                "leaderboard": (
                    summed(store, SUMMED_BOARD),
                    kept.leaderboard,
                ),
                "bot-easy's page": (
                    summed(store, *SUMMED_PAGE, player="bot-easy"),
                    lambda: kept.player("bot-easy"),
                ),
            }
            print(f"{args.games:,} rated games, {args.profiles} profiles; the start counted "
                  f"the kept figures in {recount:.2f} s")  # fmt: skip
            for name, (naive, now) in looks.items():
                before, after = median_ms(naive, args.repeats), median_ms(now, args.repeats)
                print(f"{name:16} summed {before:8.1f} ms   kept {after:7.1f} ms   "
                      f"{before / after:6.0f}x faster")  # fmt: skip
        finally:
            store.close()


if __name__ == "__main__":
    main()
