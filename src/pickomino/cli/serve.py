"""``pickomino serve``: the web app, on an embedded SQLite file by default; ``pickomino
build-app``: its offline app, as a folder to put on any web host."""

from __future__ import annotations

import ipaddress
import socket
from pathlib import Path

import click

from pickomino.cli.language import words
from pickomino.cli.params import Number, fail, need_extra
from pickomino.core import BadInput, PickominoError
from pickomino.i18n.text import refusal


def _not_empty(ctx: click.Context, param: click.Parameter, value: str | None) -> str | None:
    """An option that names something (an address, a file) is never empty: ``--host ""``
    listened everywhere, ``--secret-file ""`` meant the default (an audit)."""
    if value is not None and not value.strip():
        raise click.BadParameter(words()("cli.serve.empty"), ctx, param)
    return value


#: Every address, of each version: trusting it, uvicorn believes what visitors write.
EVERY_ADDRESS = (ipaddress.IPv4Network("0.0.0.0/0"), ipaddress.IPv6Network("::/0"))


def _proxies(ctx: click.Context, param: click.Parameter, value: str | None) -> str | None:
    """The proxies whose ``X-Forwarded-For`` is believed: addresses and networks (uvicorn
    takes anything else as a name that no connection here ever has: a typo, or ``10.0.0.1/8``
    for ``10.0.0.0/8``, would trust nobody, and say nothing), never every address (``*``,
    ``0.0.0.0/0``: uvicorn then believes the first address of the header, which the visitor
    writes; an audit's single address passed every per-address limit so)."""
    if value is None:
        return value
    networks: list[ipaddress.IPv4Network | ipaddress.IPv6Network] = []
    for given in (part.strip() for part in value.split(",")):
        try:
            networks.append(ipaddress.ip_network(given) if given != "*" else EVERY_ADDRESS[0])
        except ValueError:
            said = words()("cli.serve.not_a_proxy", given=given)
            raise click.BadParameter(said, ctx, param) from None
    v4 = ipaddress.collapse_addresses(n for n in networks if isinstance(n, ipaddress.IPv4Network))
    v6 = ipaddress.collapse_addresses(n for n in networks if isinstance(n, ipaddress.IPv6Network))
    if EVERY_ADDRESS[0] in v4 or EVERY_ADDRESS[1] in v6:  # also in parts: 0.0.0.0/1,128.0.0.0/1
        raise click.BadParameter(words()("cli.serve.every_proxy", given=value.strip()), ctx, param)
    return value


def _public_url(ctx: click.Context, param: click.Parameter, value: str | None) -> str | None:
    need_extra("web", "pickomino serve")  # the first of serve's code to run
    from pickomino.web.addresses import check_public_url

    try:
        return None if value is None else check_public_url(value)
    except BadInput as error:
        fail(error, param, ctx)


def listen_problem(host: str, port: int) -> OSError | None:
    """Why the server could not listen on ``host``:``port`` (a port in use, one only the
    system may take, an address not this computer's), or None: tried before anything is
    said or done, as the server will (uvicorn's own error came after "open http://…", in
    English)."""
    family = socket.AF_INET6 if ":" in host else socket.AF_INET  # as uvicorn binds it
    try:
        with socket.socket(family, socket.SOCK_STREAM) as trial:
            trial.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
            trial.bind((host, port))
    except OSError as error:  # socket.gaierror too: a name that is no address
        return error
    return None


def is_loopback(host: str) -> bool:
    """Whether ``host`` is this computer only (nobody else can connect).

    >>> [is_loopback(host) for host in ("127.0.0.1", "::1", "localhost", "0.0.0.0", "example.org")]
    [True, True, True, False, False]
    """
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return host == "localhost"


@click.command()
@click.option("--host", default="127.0.0.1", show_default=True, callback=_not_empty)
@click.option("--port", type=click.IntRange(0, 65535), default=8000, show_default=True)
@click.option("--database", default=None)
@click.option("--public-url", default=None, callback=_public_url)
@click.option("--forwarded-allow-ips", default=None, callback=_proxies)
@click.option("--bot-delay", type=Number(min=0), default=0.8, show_default=True)
@click.option("--message-rate", type=Number(min=1), default=20.0, show_default=True)
@click.option("--new-games-per-minute", type=Number(min=1), default=10.0, show_default=True)
@click.option("--open-games-per-address", type=click.IntRange(min=1), default=20, show_default=True)
@click.option("--bot-games-per-address", type=click.IntRange(min=1), default=5, show_default=True)
@click.option("--games-per-address", type=click.IntRange(min=1), default=100, show_default=True)
@click.option("--sheets-per-address", type=click.IntRange(min=1), default=100, show_default=True)
@click.option("--profiles-per-address", type=click.IntRange(min=1), default=50, show_default=True)
@click.option(
    "--connections-per-address", type=click.IntRange(min=1), default=50, show_default=True
)
@click.option("--watchers-per-game", type=click.IntRange(min=0), default=500, show_default=True)
@click.option("--abandon-after", type=Number(min=0), default=168.0, show_default=True)
@click.option("--away-after", type=Number(min=0), default=120.0, show_default=True)
@click.option("--turn-limit", type=click.IntRange(min=0), default=2000, show_default=True)
@click.option("--clock-minimum", type=Number(min=0), default=30.0, show_default=True)
@click.option("--workers", type=click.IntRange(min=1), default=1, show_default=True)
@click.option("--db-pool", type=click.IntRange(1, 1000), default=5, show_default=True)
@click.option(
    "--request-timeout",
    type=Number(min=0, min_open=True),
    default=10.0,
    show_default=True,
)
@click.option(
    "--http-connections-per-address", type=click.IntRange(min=1), default=50, show_default=True
)
@click.option("--max-connections", type=click.IntRange(min=1), default=1000, show_default=True)
@click.option(
    "--socket-idle-timeout",
    type=Number(min=0, min_open=True),
    default=90.0,
    show_default=True,
)
@click.option("--review-results/--no-review-results", default=True, show_default=True)
@click.option("--offline-app/--no-offline-app", default=True, show_default=True)
@click.option("--dice-seed", type=click.IntRange(min=0), default=None)
@click.option("--secret-file", type=click.Path(dir_okay=False), default=None, callback=_not_empty)
@click.option("--replace-secret", is_flag=True, default=False)
def serve(
    host: str,
    port: int,
    database: str | None,
    public_url: str | None,
    forwarded_allow_ips: str | None,
    bot_delay: float,
    message_rate: float,
    new_games_per_minute: float,
    open_games_per_address: int,
    bot_games_per_address: int,
    games_per_address: int,
    sheets_per_address: int,
    profiles_per_address: int,
    connections_per_address: int,
    watchers_per_game: int,
    abandon_after: float,
    away_after: float,
    turn_limit: int,
    clock_minimum: float,
    workers: int,
    db_pool: int,
    request_timeout: float,
    http_connections_per_address: int,
    max_connections: int,
    socket_idle_timeout: float,
    review_results: bool,
    offline_app: bool,
    dice_seed: int | None,
    secret_file: str | None,
    replace_secret: bool,
) -> None:
    """Play in the browser: lobby, games with people and bots, replays."""
    import json
    import os

    import uvicorn

    from pickomino.web import create_app
    from pickomino.web.addresses import start_lines
    from pickomino.web.cluster.workers import FACTORY, OPTIONS, tune_collector
    from pickomino.web.db.database import default_database, masked, shared_database
    from pickomino.web.db.networks import (
        SECRET_BYTES,
        SecretMismatch,
        SecretTooShort,
        SecretUnusable,
    )
    from pickomino.web.guard.connections import GuardedProtocol, open_files_for

    w = words()
    if database is not None and not served_database(database):  # no other driver comes along
        shown = masked(database, database) or '""'
        raise click.UsageError(w("cli.serve.database_kind", database=shown))
    target = database or str(default_database())
    shown = masked(target, target)  # never print a database password
    folder = Path(target).expanduser().parent
    if "://" not in target and not folder.is_dir():  # a slip of the fingers makes no folders
        why = w("cli.file.no_folder", path=str(folder))
        raise click.ClickException(w("cli.serve.no_database", database=shown, why=why))
    if dice_seed is not None and not is_loopback(host):
        raise click.UsageError(w("cli.serve.dice_seed_loopback", host=host))
    if workers > 1 and not shared_database(target):
        raise click.UsageError(w("cli.serve.workers_need_postgresql", workers=workers))
    if (files := open_files_for(max_connections)) is not None:
        most = str(max_connections)  # as typed on the command line, not as a number is shown
        raise click.UsageError(w("cli.serve.too_few_files", most=most, files=str(files)))
    if (cannot := listen_problem(host, port)) is not None:
        problem = w("cli.serve.cannot_listen", host=host, port=str(port), why=w.reason(cannot))
        raise click.ClickException(problem)
    options = {
        "database": target,
        "bot_delay": bot_delay,
        "message_rate": message_rate,
        "new_games_per_minute": new_games_per_minute,
        "open_games_per_address": open_games_per_address,
        "bot_games_per_address": bot_games_per_address,
        "games_per_address": games_per_address,
        "sheets_per_address": sheets_per_address,
        "profiles_per_address": profiles_per_address,
        "abandon_after": abandon_after * 3600,
        "connections_per_address": connections_per_address,
        "watchers_per_game": watchers_per_game,
        "public_url": public_url,
        "away_after": away_after,
        "turn_limit": turn_limit,
        "clock_minimum": clock_minimum,
        "db_pool": db_pool,
        "request_timeout": request_timeout,
        "http_connections_per_address": http_connections_per_address,
        "max_connections": max_connections,
        "socket_idle_timeout": socket_idle_timeout,
        "forwarded_allow_ips": forwarded_allow_ips,
        "review_results": review_results,
        "offline_runtime": _offline_runtime() if offline_app else None,
        "dice_seed": dice_seed,
        "secret_file": secret_file,
        "replace_secret": replace_secret,
    }
    try:  # also brings the schema up to date once, before any worker starts
        app = create_app(**options)  # type: ignore[arg-type]
    except SecretTooShort as error:
        least = str(2 * SECRET_BYTES)
        raise click.ClickException(
            w("cli.serve.secret_too_short", path=error.args[0], least=least)
        ) from None
    except SecretUnusable as error:
        path, why = error.args
        raise click.ClickException(
            w("cli.serve.secret_unusable", path=path, why=w.reason(why))
        ) from None
    except SecretMismatch:
        raise click.ClickException(w("cli.serve.secret_mismatch", database=shown)) from None
    except Exception as error:  # a bad path or URL, a database that cannot be reached
        # the driver's own first line (SQLAlchemy adds the statement and a link to its docs)
        said = str(getattr(error, "orig", None) or error).strip().splitlines()
        problem = masked(said[0] if said else type(error).__name__, target)
        raise click.ClickException(
            w("cli.serve.no_database", database=shown, why=problem)
        ) from None
    click.echo(w("cli.serve.started", database=shown))
    for key, params in start_lines(host, port, public_url):
        click.echo(w(key, **params))
    if workers > 1:  # each worker builds its own app from the same options
        os.environ[OPTIONS] = json.dumps(options)
    else:
        tune_collector()
    uvicorn.run(
        FACTORY if workers > 1 else app,
        factory=workers > 1,
        workers=workers if workers > 1 else None,
        host=host,
        port=port,
        # Forwarded headers (the client's address for the limits) only from the proxies
        # named: uvicorn would otherwise believe any local process.
        proxy_headers=forwarded_allow_ips is not None,
        forwarded_allow_ips=forwarded_allow_ips,
        http=GuardedProtocol,  # deadlines and limits per connection (web/guard/connections.py)
        # uvicorn's protocol over websockets' Sans-I/O core, its default since 0.50, named so
        # that nothing falls back to the legacy one (15% more CPU an action: benchmarks/README)
        ws="websockets-sansio",
        ws_max_size=64 * 1024,
        ws_per_message_deflate=False,  # states are small; compressing each cost more CPU
        log_level="warning",
    )


def served_database(database: str) -> bool:
    """Whether ``--database`` names what the server can use: an SQLite file (or URL) or a
    PostgreSQL URL; not an empty name, nor another database's URL (no driver for it comes
    with pickomino, nor would its SQL be the same)."""
    if not database.strip():
        return False
    scheme = database.split("://", 1)[0].split("+", 1)[0].lower() if "://" in database else ""
    return scheme in ("", "sqlite", "postgresql", "postgres")


def _offline_runtime() -> str | None:
    """Pyodide's folder for the offline app at /app/, or ``None`` (said why) if it cannot be
    had: the server starts all the same."""
    from pickomino.web.offline_app import BuildError, pyodide_runtime, runtime_cached
    from pickomino.web.offline_app.bytecode import library_to_compile

    w = words()
    if not runtime_cached():
        from pickomino.web.offline_app import PYODIDE

        click.echo(w("cli.build-app.fetching", version=PYODIDE), err=True)
    try:
        runtime = pyodide_runtime()
    except BuildError as error:
        click.echo(w("cli.serve.no_offline_app", why=refusal(error, w)), err=True)
        return None
    if library_to_compile(runtime):
        click.echo(w("cli.build-app.compiling"), err=True)
    return str(runtime)


@click.command("build-app")
@click.argument("out", type=click.Path(path_type=Path))
@click.option(
    "--runtime", type=click.Path(exists=True, file_okay=False, path_type=Path), default=None
)
def build_app(out: Path, runtime: Path | None) -> None:
    """The offline app, written into a folder any web host can serve."""
    need_extra("web", "pickomino build-app")
    from pickomino.web.offline_app import (
        PYODIDE,
        BuildError,
        build,
        check_destination,
        pyodide_runtime,
        runtime_cached,
    )
    from pickomino.web.offline_app.bytecode import library_to_compile
    from pickomino.web.offline_app.runtime import checked_runtime

    w = words()

    def slower(why: PickominoError) -> str:
        return w("cli.build-app.slower_start", why=refusal(why, w))

    try:
        runtime = checked_runtime(runtime) if runtime else None  # before any folder is made
        check_destination(out)
        if runtime is None and not runtime_cached():
            click.echo(w("cli.build-app.fetching", version=PYODIDE), err=True)
        runtime = runtime or pyodide_runtime()
        if library_to_compile(runtime):
            click.echo(w("cli.build-app.compiling"), err=True)
        built = build(out, runtime, note=lambda why: click.echo(slower(why), err=True))
    except BuildError as error:
        raise click.ClickException(refusal(error, w)) from None
    size = sum(path.stat().st_size for path in built.rglob("*") if path.is_file())
    click.echo(w("cli.build-app.built", path=str(built), size=w.number(size / 1e6, 1)))
