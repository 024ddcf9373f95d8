"""``pickomino serve`` as typed: what it prints before serving (never a database password;
addresses one can open) and what it hands to uvicorn (forwarded headers believed only from
the proxies named). uvicorn.run is replaced by a stub that records its arguments, except in
the last test, which runs a real server process."""

from __future__ import annotations

import gc
import os
import socket
from pathlib import Path

import httpx
import pytest
import uvicorn
from click.testing import CliRunner, Result
from fastapi.testclient import TestClient

from pickomino.cli import main
from pickomino.i18n import Words
from pickomino.web import addresses
from pickomino.web.cluster.workers import THRESHOLDS, tune_collector

from .clients import refused_http
from .server_process import ServerProcess, free_port

PASSWORD = "Sw0rdf1sh-42"


@pytest.fixture
def served(monkeypatch: pytest.MonkeyPatch) -> dict:
    """The keyword arguments serve gave uvicorn.run (which returns at once)."""
    calls: dict = {}
    monkeypatch.setattr(uvicorn, "run", lambda app, **options: calls.update(options, app=app))
    monkeypatch.setattr(gc, "freeze", lambda: None)  # serve tunes the collector for a server,
    monkeypatch.setattr(gc, "set_threshold", lambda *thresholds: None)  # not for this process
    return calls


def serve(*args: str) -> Result:
    return CliRunner().invoke(main, ["serve", *args])


def test_a_database_password_is_never_printed(postgres_cluster, served: dict) -> None:
    database = postgres_cluster.new_database()  # the cluster trusts any password
    reachable = database.replace("postgres@", f"postgres:{PASSWORD}@", 1)
    started = serve("--database", reachable)
    assert started.exit_code == 0, started.output
    assert PASSWORD not in started.output and "postgres:***@" in started.output

    unreachable = f"postgresql://ann:{PASSWORD}@127.0.0.1:{free_port()}/games"
    failed = serve("--database", unreachable)
    assert failed.exit_code == 1
    assert "cannot open the database postgresql://ann:***@127.0.0.1" in failed.output
    assert PASSWORD not in failed.output


def test_listening_everywhere_prints_addresses_one_can_open(
    served: dict, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(addresses, "network_address", lambda: "192.168.1.20")
    database = str(tmp_path / "games.sqlite3")
    everywhere = serve("--host", "0.0.0.0", "--port", "8080", "--database", database)
    assert everywhere.exit_code == 0, everywhere.output
    assert "0.0.0.0" not in everywhere.output
    assert "http://127.0.0.1:8080/" in everywhere.output
    assert "http://192.168.1.20:8080/" in everywhere.output
    assert "warning: invite links use the address" in everywhere.output
    assert "--public-url http://192.168.1.20:8080" in everywhere.output

    public = serve("--host", "0.0.0.0", "--database", database, "--public-url", "http://dice.lan/")
    assert public.exit_code == 0, public.output
    assert "open http://dice.lan/ (invite links use this address)" in public.output
    assert "warning" not in public.output

    refused = serve("--database", database, "--public-url", "dice.lan/pickomino")
    assert refused.exit_code == 2 and "not an http:// or https:// address" in refused.output


def test_forwarded_headers_are_believed_only_from_the_proxies_named(
    served: dict, tmp_path: Path
) -> None:
    database = str(tmp_path / "games.sqlite3")
    assert serve("--database", database).exit_code == 0
    assert served["proxy_headers"] is False
    assert serve("--database", database, "--forwarded-allow-ips", "10.0.0.7").exit_code == 0
    assert served["proxy_headers"] is True and served["forwarded_allow_ips"] == "10.0.0.7"


def test_workers_need_postgresql_and_are_refused_with_sqlite_before_starting(
    served: dict, tmp_path: Path
) -> None:
    database = str(tmp_path / "games.sqlite3")
    refused = serve("--database", database, "--workers", "2")
    assert refused.exit_code == 2 and not served
    assert "--workers 2 needs a PostgreSQL database" in refused.output
    assert not (tmp_path / "games.sqlite3").exists()  # refused before anything started
    assert serve("--database", database, "--workers", "1").exit_code == 0
    assert served["workers"] is None and served["factory"] is False  # one process, as before


@pytest.mark.parametrize("host", ["0.0.0.0", "192.168.1.20", "::", "dice.example.org"])
def test_a_dice_seed_is_refused_beside_an_address_others_can_reach(
    served: dict, tmp_path: Path, host: str
) -> None:
    """Seeded dice are foreseeable: only for a server nobody else can reach."""
    database = str(tmp_path / "games.sqlite3")
    refused = serve("--database", database, "--host", host, "--dice-seed", "7")
    assert refused.exit_code == 2 and not served
    assert f"not with --host {host}" in refused.output
    assert not (tmp_path / "games.sqlite3").exists()  # refused before anything started
    for loopback in ("127.0.0.1", "::1", "localhost"):
        started = serve("--database", database, "--host", loopback, "--dice-seed", "7")
        assert started.exit_code == 0, started.output
    assert served["host"] == "localhost"


@pytest.mark.slow  # a PostgreSQL database
def test_workers_on_postgresql_build_their_apps_from_the_same_options(
    postgres_cluster, served: dict, monkeypatch: pytest.MonkeyPatch
) -> None:
    from pickomino.web.cluster.workers import FACTORY, OPTIONS

    monkeypatch.setenv(OPTIONS, "")  # serve sets it; put back as it was after the test
    database = postgres_cluster.new_database()
    started = serve("--database", database, "--workers", "3", "--db-pool", "3")
    assert started.exit_code == 0, started.output
    assert served["workers"] == 3 and served["factory"] is True
    assert served["app"] == FACTORY and '"bot_delay": 0.8' in os.environ[OPTIONS]
    assert '"db_pool": 3' in os.environ[OPTIONS]  # each worker's store holds at most 3


@pytest.mark.slow  # two real server processes
def test_x_forwarded_for_from_loopback_does_not_bypass_the_creation_limit(
    tmp_path: Path,
) -> None:
    """A script on the server's own machine (or behind no proxy) sends a new
    X-Forwarded-For with every request: it is still one address. Behind a proxy named with
    --forwarded-allow-ips, the forwarded addresses count separately."""
    spec = {"seats": [{"name": "Ann"}, {"name": "Robo", "bot": "easy"}]}

    def answers(server: ServerProcess) -> list[int]:
        with httpx.Client(base_url=server.url) as http:
            return [
                http.post(
                    "/api/games", json=spec, headers={"x-forwarded-for": f"203.0.113.{n}"}
                ).status_code
                for n in range(12)
            ]

    for options, expected in [
        ((), [201] * 10 + [429] * 2),
        (("--forwarded-allow-ips", "127.0.0.1"), [201] * 12),
    ]:
        server = ServerProcess(
            tmp_path / f"games{len(options)}.sqlite3", new_games_per_minute=10, options=options
        ).start()
        try:
            assert answers(server) == expected, options
        finally:
            server.stop()


def test_a_connection_limit_over_the_file_limit_is_refused_before_starting(
    tmp_path: Path,
) -> None:
    """Connections beyond the open-file limit would fail to be accepted instead of being
    answered 503: serve raises its soft limit up to the hard one, and refuses to start when
    even that is too low."""
    import resource
    import subprocess
    import sys

    def files(most: int) -> None:  # in the child, before it runs: the hard limit too
        resource.setrlimit(resource.RLIMIT_NOFILE, (most, most))

    database = str(tmp_path / "games.sqlite3")
    command = [sys.executable, "-m", "pickomino", "serve", "--database", database,
               "--max-connections", "5000", "--port", "0"]  # fmt: skip
    refused = subprocess.run(
        command, preexec_fn=lambda: files(1024), capture_output=True, text=True, timeout=60
    )
    assert refused.returncode == 2, refused.stderr
    assert "--max-connections 5000 needs 5000 open files and 256 more" in refused.stderr
    assert "at most 1024 (ulimit -Hn)" in refused.stderr
    assert not (tmp_path / "games.sqlite3").exists()  # refused before anything started


def test_a_server_that_cannot_have_the_offline_app_says_why_and_starts_all_the_same(
    served: dict, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Pyodide is neither cached nor can it be: the cache's folder would be under a file
    (with npm: "cannot write the app to …"; without: "fetching Pyodide … needs npm")."""
    blocker = tmp_path / "file"
    blocker.write_text("")
    monkeypatch.setenv("XDG_CACHE_HOME", str(blocker))
    started = serve("--database", str(tmp_path / "games.sqlite3"))
    assert started.exit_code == 0, started.output
    assert "The offline app is not served at /app/: " in started.output  # no npm: says so too
    assert "Traceback" not in started.output
    assert served["app"] is not None  # uvicorn was handed the app


def test_a_secret_file_serve_cannot_use_or_another_servers_is_refused_saying_what_to_do(
    tmp_path: Path, served: dict
) -> None:
    database, short = str(tmp_path / "games.sqlite3"), tmp_path / "short.secret"
    short.write_text("too short\n")
    refused = serve("--database", database, "--secret-file", str(short))
    assert refused.exit_code == 1 and not served
    assert f"the secret file {short} holds fewer than 64 characters" in refused.output

    assert serve("--database", database).exit_code == 0  # games.sqlite3.secret made
    served.clear()
    other = tmp_path / "other.secret"
    refused = serve("--database", database, "--secret-file", str(other))
    assert refused.exit_code == 1 and not served
    assert "hashed under another secret" in refused.output and "--replace-secret" in refused.output
    replaced = serve("--database", database, "--secret-file", str(other), "--replace-secret")
    assert replaced.exit_code == 0, replaced.output


def test_a_port_it_cannot_listen_on_is_refused_before_anything_is_said_or_stored(
    served: dict, tmp_path: Path
) -> None:
    """An audit: "open http://127.0.0.1:PORT/" was printed, then uvicorn failed in English
    on a port in use (or an address not this computer's). Tried first, said in the user's
    language, before the database is made."""
    database = tmp_path / "games.sqlite3"
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = str(taken.getsockname()[1])
        refused = CliRunner().invoke(  # the runner puts back the LANGUAGE serve sets
            main,
            ["--lang", "de", "serve", "--database", str(database), "--port", port],
            env={"LANGUAGE": None},
        )
    assert refused.exit_code == 1 and not served and not database.exists()
    in_use = Words("de")("system.EADDRINUSE")  # the system's reason in German too
    assert f"kann nicht auf 127.0.0.1, Port {port} lauschen: {in_use}" in refused.output
    assert "http://" not in refused.output
    nowhere = serve("--database", str(database), "--host", "192.0.2.1")  # TEST-NET-1
    assert nowhere.exit_code == 1 and "cannot listen on 192.0.2.1 port 8000" in nowhere.output


def test_a_database_in_a_folder_that_does_not_exist_is_refused_and_makes_none(
    served: dict, tmp_path: Path
) -> None:
    """An audit: a mistyped --database made its folders (and a database in them)."""
    for typed in (tmp_path / "typo" / "games.sqlite3", Path(f"file:{tmp_path}/x.db")):
        refused = serve("--database", str(typed))
        assert refused.exit_code == 1 and not served, refused.output
        assert f"the folder {typed.parent} does not exist" in refused.output
    assert sorted(tmp_path.iterdir()) == []


@pytest.mark.parametrize("option", ["--host", "--secret-file"])
def test_an_empty_host_or_secret_file_is_refused(served: dict, tmp_path: Path, option: str):
    """An audit: ``--host ""`` listened on every interface, ``--secret-file ""`` meant the
    default file: an empty value is refused, naming the option."""
    refused = serve("--database", str(tmp_path / "games.sqlite3"), option, " ")
    assert refused.exit_code == 2 and not served
    assert f"Invalid value for '{option}': it may not be empty" in refused.output


def test_the_turn_limit_is_the_servers_own_unless_told(served: dict, tmp_path: Path) -> None:
    from pickomino.web.game.commits import TURN_LIMIT

    told = (((), TURN_LIMIT), (("--turn-limit", "40"), 40), (("--turn-limit", "0"), 0))
    for given, limit in told:
        started = serve("--database", str(tmp_path / "games.sqlite3"), "--no-offline-app", *given)
        assert started.exit_code == 0, started.output
        assert served["app"].state.rooms.turn_limit == limit


def test_the_sheets_an_address_makes_a_day_are_the_servers_own_unless_told(
    served: dict, tmp_path: Path
) -> None:
    started = serve("--database", str(tmp_path / "g.sqlite3"), "--sheets-per-address", "1")
    assert started.exit_code == 0, started.output
    with TestClient(served["app"]) as client:
        sheet = {"names": ["Ann", "Bob"]}
        assert client.post("/api/sheets", json=sheet).status_code == 201
        refused_http(client.post("/api/sheets", json=sheet), 429, "too_many_sheets", most=1)
    refused = serve("--database", str(tmp_path / "g.sqlite3"), "--sheets-per-address", "0")
    assert refused.exit_code == 2


@pytest.mark.parametrize(
    ("collector", "thresholds", "set_to"),
    [
        ("generational (CPython up to 3.13, and 3.15)", (700, 10, 10), THRESHOLDS),
        ("incremental (CPython 3.14: its third threshold always 0)", (2000, 10, 0), None),
    ],
)
def test_serve_tunes_a_generational_collector_and_leaves_an_incremental_one_its_own(
    monkeypatch: pytest.MonkeyPatch, collector: str, thresholds: tuple, set_to: tuple | None
) -> None:
    asked: list[tuple] = []
    monkeypatch.setattr(gc, "freeze", lambda: None)  # the interpreter's, not this process's
    monkeypatch.setattr(gc, "get_threshold", lambda: thresholds)
    monkeypatch.setattr(gc, "set_threshold", lambda *given: asked.append(given))
    tune_collector()
    assert asked == ([set_to] if set_to else []), collector
