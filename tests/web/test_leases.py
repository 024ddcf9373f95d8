"""The games' leases hold a bounded number of PostgreSQL locks, whatever the number of games:
PostgreSQL keeps every lock of the server (ours and every transaction's) in one shared table,
and a lock per game filled a default server's at 12,784 unfinished games, after which every
move's transaction failed ("out of shared memory")."""

from __future__ import annotations

import asyncio
import time

import psycopg
import pytest

from pickomino.web.cluster.lease import (
    APPLICATION,
    BUCKETS,
    DRIVING_AT_ONCE,
    KEY,
    LOCK_SPACE,
    Leases,
)
from pickomino.web.db.store import Store

from .server_process import TemporaryPostgres, wait_until

pytestmark = pytest.mark.slow
GAMES = 2 * BUCKETS


class Driver:
    """What a lease holder drives, reduced to what the leases ask of it: every game taken
    is driven, until it is no longer (the rooms and bots are not under test here)."""

    def __init__(self) -> None:
        self.driving: set[str] = set()
        self.here: list[str] = []  #: the games held in memory (people came to them)

    async def drive(self, game_id: str) -> bool:
        self.driving.add(game_id)
        return True

    def still_driving(self, game_id: str) -> bool:
        return game_id in self.driving

    def held_here(self) -> list[str]:
        return self.here

    def stop_driving(self, game_ids: list[str]) -> None:
        self.driving.difference_update(game_ids)


def advisory_locks(url: str) -> int:
    with psycopg.connect(url) as connection:
        row = connection.execute(
            "SELECT count(*) FROM pg_locks WHERE locktype = 'advisory' AND classid = %s",
            (LOCK_SPACE,),
        ).fetchone()
    assert row is not None
    return int(row[0])


def two_of_one_bucket(url: str) -> tuple[str, str]:
    """Two games whose leases share a key."""
    with psycopg.connect(url) as connection:
        row = connection.execute(
            f"SELECT min(id), max(id) FROM games GROUP BY {KEY.format('id')}"
            " HAVING count(*) > 1 LIMIT 1"
        ).fetchone()
    assert row is not None
    return row[0], row[1]


def lock_free(url: str, game_id: str) -> bool:
    """Whether another session could take the game's lease now (given back at once)."""
    with psycopg.connect(url, autocommit=True) as connection:
        row = connection.execute(
            f"SELECT pg_try_advisory_lock(%s, {KEY.format('%s')})", (LOCK_SPACE, game_id)
        ).fetchone()
    return bool(row and row[0])


async def lease_all(url: str, processes: int) -> tuple[list[Leases], list[Driver]]:
    drivers = [Driver() for _ in range(processes)]
    leases = [Leases(url, driver, every=0.05) for driver in drivers]
    for lease in leases:
        await lease.start()
    deadline = time.monotonic() + 60
    while sum(len(driver.driving) for driver in drivers) < GAMES:
        assert time.monotonic() < deadline, "the sweeps did not take every game"
        await asyncio.sleep(0.05)  # waiting for the sweeps, not timing them
    return leases, drivers


def test_thousands_of_games_are_leased_on_a_bounded_number_of_locks_each_by_one_process(
    postgres_cluster: TemporaryPostgres,
):
    url = postgres_cluster.new_database()
    Store(url).close()  # the tables
    now = time.time()
    rows = [(f"g{number}", "{}", "playing", now, now) for number in range(GAMES)]
    with psycopg.connect(url) as connection:
        connection.cursor().executemany(
            "INSERT INTO games (id, header, status, created, updated) VALUES (%s, %s, %s, %s, %s)",
            rows,
        )

    async def run() -> None:
        leases, drivers = await lease_all(url, processes=2)
        try:
            driven = [driver.driving for driver in drivers]
            assert not driven[0] & driven[1]  # each game by one process
            assert sum(map(len, driven)) == GAMES
            assert advisory_locks(url) <= BUCKETS  # not one a game
            # A game that ends gives its lease back; its bucket's other games keep theirs.
            ended, same_bucket = two_of_one_bucket(url)
            holder = next(n for n, games in enumerate(driven) if ended in games)
            with psycopg.connect(url, autocommit=True) as connection:
                connection.execute("UPDATE games SET status = 'over' WHERE id = %s", (ended,))
            drivers[holder].stop_driving([ended])
            deadline = time.monotonic() + 60
            while ended in leases[holder].held:
                assert time.monotonic() < deadline, "the ended game's lease was not given back"
                await asyncio.sleep(0.05)
            assert same_bucket in leases[holder].held
            assert not lock_free(url, same_bucket)  # still held by its driver
        finally:
            for lease in leases:
                await lease.stop()
        # a closed session's locks go when its server process has ended, a moment after
        # (one loaded run still saw 3,515 of them as the test asked at once)
        wait_until(lambda: advisory_locks(url) == 0, "every lease given back")

    asyncio.run(run())


def test_a_resting_game_is_leased_only_by_a_process_that_holds_it(
    postgres_cluster: TemporaryPostgres,
):
    url = postgres_cluster.new_database()
    Store(url).close()
    now = time.time()
    with psycopg.connect(url) as connection:
        for game_id, resting in (("played", False), ("resting", True)):
            connection.execute(
                "INSERT INTO games (id, header, status, created, updated, resting)"
                " VALUES (%s, '{}', 'playing', %s, %s, %s)",
                (game_id, now, now, resting),
            )

    async def run() -> None:
        driver = Driver()
        leases = Leases(url, driver)
        leases._connection = await leases._connect()  # its sweeps run here, one by one
        try:
            await leases._sweep()
            await leases._sweep()
            assert driver.driving == {"played"}  # nothing can happen in a resting game
            driver.here = ["resting"]  # its person came back to this process
            await leases._sweep()
            assert driver.driving == {"played", "resting"}
        finally:
            await leases.stop()

    asyncio.run(run())


def lease_sessions(url: str) -> int:
    with psycopg.connect(url) as connection:
        row = connection.execute(
            "SELECT count(*) FROM pg_stat_activity"
            " WHERE datname = current_database() AND starts_with(application_name, %s)",
            (APPLICATION,),
        ).fetchone()
    assert row is not None
    return int(row[0])


def test_a_process_s_games_are_shared_by_those_left_and_taken_whole_when_one_is_slow(
    postgres_cluster: TemporaryPostgres,
):
    """Processes share the free keys by their remainder: a process killed leaves its games to
    all the others (each sweep took every free key: all went to whichever swept first). A key
    whose sharer does not come for it is taken by any at the next sweep."""
    url = postgres_cluster.new_database()
    Store(url).close()
    now = time.time()
    with psycopg.connect(url) as connection:
        connection.cursor().executemany(
            "INSERT INTO games (id, header, status, created, updated)"
            " VALUES (%s, '{}', 'playing', %s, %s)",
            [(f"g{number}", now, now) for number in range(600)],
        )

    def share(driver: Driver, games: set[str]) -> float:
        return len(driver.driving & games) / len(games)

    async def run() -> None:
        drivers = [Driver() for _ in range(4)]
        leases = [Leases(url, driver) for driver in drivers]
        for lease in leases[:3]:  # three processes; their sweeps run here, one by one
            lease._connection = await lease._connect()
        first, second, third, late = leases
        try:
            for lease in (first, second, third) * 2:  # a second time: as they go on
                await lease._sweep()
            every = set().union(*(driver.driving for driver in drivers))
            assert len(every) == 600
            assert all(share(driver, every) > 0.25 for driver in drivers[:3])  # a third each
            killed = set(drivers[2].driving)
            await third.stop()  # its session and its locks go, as for kill -9
            wait_until(lambda: lease_sessions(url) == 2, "the third process's session gone")
            wait_until(
                lambda: advisory_locks(url) == len(first.keys) + len(second.keys),
                "the third process's locks gone",
            )
            await first._sweep()
            await second._sweep()
            assert drivers[0].driving | drivers[1].driving == every
            assert share(drivers[0], killed) > 0.4 and share(drivers[1], killed) > 0.4
            # The second process goes as a fourth starts, which does not sweep (yet).
            late._connection = await late._connect()
            left = set(drivers[1].driving)
            await second.stop()
            wait_until(lambda: lease_sessions(url) == 2, "the second process's session gone")
            wait_until(lambda: advisory_locks(url) == len(first.keys), "its locks gone")
            await first._sweep()
            assert 0.2 < share(drivers[0], left) < 0.8  # its share of the keys
            await first._sweep()
            assert drivers[0].driving == every  # and the late one's, left free a sweep
            assert await locked_once(first)  # none taken twice on the way
        finally:
            for lease in leases:
                await lease.stop()

    asyncio.run(run())


async def locked_once(lease: Leases) -> bool:
    """Whether the session holds each of its keys once (an advisory lock taken twice must be
    let go twice: the one release of a game given back would leave its key locked): let go
    once each, none is left."""
    connection = lease._live()
    for key in lease.keys:
        await connection.execute("SELECT pg_advisory_unlock(%s, %s)", (LOCK_SPACE, key))
    left = await connection.execute(
        "SELECT count(*) FROM pg_locks WHERE locktype = 'advisory' AND pid = pg_backend_pid()"
    )
    row = await left.fetchone()
    lease.keys.clear()
    return row is not None and row[0] == 0


def test_a_game_whose_people_are_here_is_taken_here_whoever_s_share_its_key_is(
    postgres_cluster: TemporaryPostgres,
):
    """A game woken because its people came back to a process (another let it rest) is
    driven by the process they are on, whatever share its key is of."""
    url = postgres_cluster.new_database()
    Store(url).close()
    now = time.time()
    with psycopg.connect(url) as connection:
        connection.execute(
            "INSERT INTO games (id, header, status, created, updated, resting)"
            " VALUES ('back', '{}', 'playing', %s, %s, true)",
            (now, now),
        )
        row = connection.execute(f"SELECT {KEY.format('%s')}", ("back",)).fetchone()
    assert row is not None

    async def run() -> None:
        drivers = [Driver(), Driver()]
        leases = [Leases(url, driver) for driver in drivers]
        for lease in leases:
            lease._connection = await lease._connect()
        try:
            pids = sorted(lease._live().info.backend_pid for lease in leases)
            sharer = pids[row[0] % 2]  # the session whose share the game's key is
            (elsewhere,) = (
                n for n, lease in enumerate(leases) if lease._live().info.backend_pid != sharer
            )
            drivers[elsewhere].here = ["back"]  # its person came back to that process
            await leases[elsewhere]._sweep()
            assert drivers[elsewhere].driving == {"back"}
        finally:
            for lease in leases:
                await lease.stop()

    asyncio.run(run())


class SlowDriver(Driver):
    """A driver whose every game takes a while to set going (read from the store in a
    worker thread, in the app): how many are under way at once is counted."""

    def __init__(self) -> None:
        super().__init__()
        self.under_way = self.most = 0
        self.go_on = asyncio.Event()

    async def drive(self, game_id: str) -> bool:
        self.under_way += 1
        self.most = max(self.most, self.under_way)
        await self.go_on.wait()
        self.under_way -= 1
        return await super().drive(game_id)


def test_games_taken_over_are_set_going_several_at_once():
    """An audit (three processes, one killed): its 300 games, read one after another on the
    survivor, waited up to 16 s for their first move. They are read a few at once (each
    read's waits overlap), at most :data:`DRIVING_AT_ONCE`."""
    driver = SlowDriver()
    leases = Leases("postgresql://unused", driver)
    games = [f"g{n}" for n in range(3 * DRIVING_AT_ONCE)]

    async def take_over() -> None:
        driving = asyncio.ensure_future(leases._drive(games))
        for _ in range(100):  # all started (one after another: one), and no more
            await asyncio.sleep(0)
        assert driver.under_way == DRIVING_AT_ONCE
        driver.go_on.set()
        await driving

    asyncio.run(take_over())
    assert driver.most == DRIVING_AT_ONCE and driver.driving == set(games)
