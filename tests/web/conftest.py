"""Real parts for the web tests: ``pickomino serve`` in its own process on loopback with a
fresh SQLite file (``ServerProcess.kill()`` is a real SIGKILL), PostgreSQL, and the system
Chromium (``browser`` and ``pages``: tests/web/browser.py)."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from pickomino.web.game import rooms as rooms_module
from pickomino.web.game.room import Room

from .browser import browser, pages
from .clicking import DICE_SEED
from .clients import where_running
from .server_process import ServerProcess, TemporaryPostgres, postgres_program

__all__ = ["browser", "pages"]  # fixtures for every web test, defined in browser.py


@pytest.fixture
def server(tmp_path: Path) -> Iterator[ServerProcess]:
    running = ServerProcess(tmp_path / "games.sqlite3").start()
    yield running
    running.stop()


@pytest.fixture(scope="module")
def shared_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServerProcess]:
    """One ``server`` for all of a module's tests, for modules whose tests each open games
    and sheets of their own, never stop it and never read a list that the others change
    (the lobby's): a start costs about 1.8 s of CPU. Such a module defines ``server`` as
    this one."""
    running = ServerProcess(tmp_path_factory.mktemp("shared") / "games.sqlite3").start()
    yield running
    running.stop()


@pytest.fixture
def instant_bots(tmp_path: Path) -> Iterator[ServerProcess]:
    """``server`` with bots that move at once: for whole games whose tests watch the
    people's pages, not the bots' pace (a game is a hundred bot steps or more); its dice
    are seeded (:data:`DICE_SEED`)."""
    running = ServerProcess(
        tmp_path / "games.sqlite3", bot_delay=0, options=("--dice-seed", str(DICE_SEED))
    ).start()
    yield running
    running.stop()


# ------------------------------------------------------------------ PostgreSQL
@pytest.fixture(scope="session")
def postgres_cluster(tmp_path_factory: pytest.TempPathFactory) -> Iterator[TemporaryPostgres]:
    """A throwaway PostgreSQL cluster on loopback (trust auth). The servers on it keep their
    secret (``server.secret``, see pickomino.web.db.networks) in a data folder of its own,
    not the user's."""
    if postgres_program("initdb") is None:
        pytest.fail("PostgreSQL is missing: scripts/test.sh installs `postgresql`")
    cluster = TemporaryPostgres()
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("XDG_DATA_HOME", str(tmp_path_factory.mktemp("user-data")))
        yield cluster
    cluster.stop()


@pytest.fixture(params=["sqlite", pytest.param("postgresql", marks=pytest.mark.slow)])
def database(request: pytest.FixtureRequest, tmp_path: Path) -> str:
    """Each web test runs on a fresh SQLite file and on a fresh PostgreSQL database (the
    same code, with another driver: the full run, not the quick one), the latter with the
    schema in already (see ``TemporaryPostgres.migrated_database``) unless the test is
    marked ``empty_database``."""
    if request.param == "sqlite":
        return str(tmp_path / "games.sqlite3")
    cluster = request.getfixturevalue("postgres_cluster")
    if request.node.get_closest_marker("empty_database"):
        return cluster.new_database()
    return cluster.migrated_database()


@pytest.fixture
def games_read(monkeypatch) -> list[str]:
    """For each game read from the store from now on: whether an event loop ran its thread,
    else which pool's it was (``asyncio``: the event loop's own; ``looks``: the API's looks')."""
    made: list[str] = []
    real = rooms_module.Room

    def counted(*args, **options) -> Room:
        made.append(where_running())
        return real(*args, **options)

    monkeypatch.setattr(rooms_module, "Room", counted)
    return made
