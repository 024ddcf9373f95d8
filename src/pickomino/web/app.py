"""The web app: lobby and game pages, a small JSON API and one WebSocket per player or
spectator. ``create_app`` builds it for any database from its parts; ``pickomino serve``
runs it.

- the pages: :mod:`pickomino.web.api.pages` (``GET /`` the lobby, ``GET /games/{id}`` the
  table, ``?token=…`` sits you in your seat; ``/keeper``, ``/rules``, ``/leaderboard``,
  ``/profiles/{player}``, ``/mine``), their scripts and styles under ``/static``;
- the JSON API, a router per resource: games (:mod:`pickomino.web.api.games`), getting back
  into a seat (:mod:`~pickomino.web.api.seats`), "My games" (:mod:`~pickomino.web.api.mine`),
  rematches (:mod:`~pickomino.web.api.rematch`), a finished game's review
  (:mod:`~pickomino.web.api.analysis`), profiles and ratings
  (:mod:`~pickomino.web.api.profiles`), the score keeper (:mod:`~pickomino.web.api.keeper`),
  the pages' words (:mod:`~pickomino.web.api.words`); ``GET /api/docs``: this API in Swagger
  UI, served offline (:mod:`~pickomino.web.api.docs`);
- WebSocket ``/ws/games/{id}`` (a seat by its secret):
  :mod:`pickomino.web.api.play_socket`, speaking
  :mod:`pickomino.web.protocol`;
- ``/app/``: the offline app (:mod:`pickomino.web.offline_app`).

A refusal is a 4xx or 5xx whose ``detail`` is ``{"id", "params", "rule"}`` (see
:mod:`pickomino.web.errors` and :mod:`pickomino.web.api.refusals`). What runs beside the
requests, from start to stop: :mod:`pickomino.web.lifespan`. On PostgreSQL any number of
processes (``serve --workers N``, or on several hosts) share the games:
:mod:`pickomino.web.cluster.bridge`.
"""

from __future__ import annotations

from functools import partial
from importlib.resources import files
from pathlib import Path

from fastapi import FastAPI
from fastapi.staticfiles import StaticFiles

from pickomino.web.api.analysis import Reviews, analysis_router
from pickomino.web.api.docs import add_api_docs
from pickomino.web.api.games import (
    BOT_GAMES_PER_ADDRESS,
    GAMES_PER_ADDRESS,
    OPEN_GAMES_PER_ADDRESS,
    games_router,
    limited_finder,
    looks_limited,
    room_finder,
    secret_link,
)
from pickomino.web.api.keeper import SHEETS_PER_ADDRESS, keeper_router
from pickomino.web.api.mine import mine_router
from pickomino.web.api.pages import pages_router
from pickomino.web.api.play_socket import play_socket_router
from pickomino.web.api.positions import positions_router
from pickomino.web.api.profiles import profiles_router
from pickomino.web.api.refusals import add_refusal_handlers
from pickomino.web.api.rematch import rematch_router, tell_elsewhere
from pickomino.web.api.seats import seats_router
from pickomino.web.api.shared_answers import SharedAnswers
from pickomino.web.api.words import words_router
from pickomino.web.db.networks import Networks, SecretMismatch, read_secret, secret_file_for
from pickomino.web.db.profiles import PROFILES_PER_ADDRESS, ProfileStore
from pickomino.web.db.store import POOL, Store
from pickomino.web.forms import CLOCK_MINIMUM, address_limit, creation_limit
from pickomino.web.game.commits import TURN_LIMIT
from pickomino.web.game.rematch import RematchStore
from pickomino.web.game.rooms import UNLOAD_AFTER, Rooms
from pickomino.web.game.seating import AWAY_AFTER
from pickomino.web.guard.body_limit import BodyLimit
from pickomino.web.guard.connections import ConnectionGuard, ServerBusy, trusted_proxies
from pickomino.web.guard.headers import SecurityHeaders
from pickomino.web.guard.limits import ConnectionLimits
from pickomino.web.guard.searches import Searches
from pickomino.web.lifespan import ResultReviews, finished_record, left_unfinished, lifespan
from pickomino.web.offline_app.router import offline_app_router
from pickomino.web.protocol import RateLimits

STATIC = Path(str(files("pickomino.web") / "static"))


def create_app(
    database: str | Path,
    bot_delay: float = 0.8,
    message_rate: float = 20.0,
    new_games_per_minute: float = 10.0,
    open_games_per_address: int = OPEN_GAMES_PER_ADDRESS,
    bot_games_per_address: int = BOT_GAMES_PER_ADDRESS,
    games_per_address: int = GAMES_PER_ADDRESS,
    sheets_per_address: int = SHEETS_PER_ADDRESS,
    profiles_per_address: int = PROFILES_PER_ADDRESS,
    abandon_after: float = 7 * 24 * 3600,
    unload_after: float = UNLOAD_AFTER,
    connections_per_address: int = 50,
    watchers_per_game: int = 500,
    public_url: str | None = None,
    away_after: float = AWAY_AFTER,
    turn_limit: int = TURN_LIMIT,
    clock_minimum: float = CLOCK_MINIMUM,
    db_pool: int = POOL,
    request_timeout: float = 10.0,
    http_connections_per_address: int = 50,
    max_connections: int = 1000,
    socket_idle_timeout: float = 90.0,
    forwarded_allow_ips: str | None = None,
    review_results: bool = True,
    offline_runtime: str | None = None,
    dice_seed: int | None = None,
    secret_file: str | None = None,
    replace_secret: bool = False,
) -> FastAPI:
    """The app on ``database`` (an SQLite path or a PostgreSQL URL); bots wait
    ``bot_delay`` seconds before each step so people can follow them; a client sending
    more than ``message_rate`` messages a second (after a burst) is cut off as a flood, and
    one creating more than ``new_games_per_minute`` games or sheets (or taking as many seats
    from the lobby) is refused (429), as is one holding ``open_games_per_address`` games
    waiting for players, ``bot_games_per_address`` games of bots alone in play or
    ``games_per_address`` unfinished games of any kind, or having made
    ``sheets_per_address`` score sheets (or ``profiles_per_address`` profiles) in the last
    day; an
    unfinished game nobody touches for ``abandon_after`` seconds is abandoned (0: never),
    and one in which nothing can happen until somebody comes is let go from memory after
    ``unload_after`` seconds (:meth:`.Rooms.unload_dormant`). One address may hold
    ``connections_per_address`` WebSockets at once, one game have ``watchers_per_game``
    spectators. Invite links are absolute on ``public_url`` (e.g. ``https://dice.example``)
    when it is given, else paths on the address the creator used. A bot plays for the
    person to move once they are disconnected for ``away_after`` seconds (0: never) while
    somebody else at the table is connected; a game that lasts ``turn_limit`` turns (0: no
    limit) stops there, abandoned (:data:`~pickomino.web.game.commits.TURN_LIMIT`); a game's
    clock gives at least ``clock_minimum`` seconds a turn or a bank (tests use less). The
    store holds at most ``db_pool`` connections to the database. With ``review_results``, a
    game with results is reviewed as it ends, for its players' accuracy on their profiles
    (:class:`~pickomino.web.lifespan.ResultReviews`). With ``offline_runtime`` (Pyodide's
    folder) the offline app is served at ``/app/`` (:mod:`pickomino.web.offline_app`).
    With ``dice_seed``, every new game's seed is that number and its dice are drawn from it
    (reproducible games, for tests and demonstrations: anyone knowing it foresees the dice).
    The networks kept (of profiles, of games' creators) are hashed under the secret in
    ``secret_file`` (made if missing; default: :func:`.secret_file_for` the database), which
    must be the one the database's were hashed under, unless ``replace_secret`` forgets
    them (:mod:`pickomino.web.db.networks`).

    Connections (:mod:`pickomino.web.guard.connections`, when served by ``serve``): a whole
    request within ``request_timeout`` seconds, ``http_connections_per_address`` HTTP
    connections at once from one address (the proxies of ``forwarded_allow_ips`` exempt),
    503 beyond ``max_connections`` in all; a game's socket that sends nothing for
    ``socket_idle_timeout`` seconds is closed (the page pings every 25 s), and one opened
    by a page of another site (its ``Origin`` neither the address asked nor ``public_url``)
    is refused (403 ``foreign_origin``)."""
    secret = read_secret(Path(secret_file) if secret_file else secret_file_for(database))
    store = Store(database, db_pool)
    limit_creations = creation_limit(new_games_per_minute)
    limit_joins = address_limit(new_games_per_minute, "too_many_joins")
    guard = ConnectionGuard(
        request_timeout, http_connections_per_address, max_connections,
        trusted_proxies(forwarded_allow_ips),
    )  # fmt: skip
    base_url = (public_url or "").rstrip("/")
    rooms = Rooms(store, bot_delay, away_after, dice_seed, unload_after, turn_limit)
    try:
        networks = Networks(store.engine, secret, replace=replace_secret)
    except SecretMismatch:
        store.close()
        raise
    profiles = ProfileStore(store, networks, profiles_per_address)
    reviews = Reviews(new_games_per_minute, on_reviewed=profiles.note_review)
    results = ResultReviews(
        profiles, reviews, partial(finished_record, rooms), partial(left_unfinished, rooms),
        review_results,
    )  # fmt: skip
    rooms.on_finish, rooms.on_abandon = results.game_ended, results.games_abandoned
    # no route keeps an ended game in memory: a request about one (refused, as a claim or a
    # removal in it is, or only read) leaves it among the recent ones, a bounded few
    looking = room_finder(rooms, keep=False)
    link = partial(secret_link, base_url)

    running = lifespan(store, rooms, results, guard, abandon_after)
    app = FastAPI(title="pickomino", lifespan=running, docs_url=None, redoc_url=None)
    app.add_middleware(BodyLimit)
    app.add_middleware(ServerBusy)  # before reading a body; its answer has the headers below
    app.add_middleware(SecurityHeaders)
    add_refusal_handlers(app)
    app.state.rooms, app.state.reviews = rooms, reviews
    app.mount("/static", StaticFiles(directory=STATIC), name="static")
    add_api_docs(app, STATIC / "apidocs.html")  # /api/docs, offline

    app.include_router(pages_router())
    lookups_per_minute = 6 * new_games_per_minute  # My games polls: a few a minute per tab
    searches = Searches()  # the position explorer's and the dice helper's, one at a time
    app.state.searches = searches
    app.include_router(
        keeper_router(
            store,
            limit_creations,
            address_limit(2 * lookups_per_minute, "too_many_lookups"),  # entries, undo, redo
            address_limit(lookups_per_minute, "too_many_lookups"),  # the dice helper
            address_limit(lookups_per_minute, "too_many_lookups"),  # a sheet read
            searches,
            networks.origin,
            sheets_per_address,
        )  # fmt: skip
    )
    limit_lookups = address_limit(lookups_per_minute, "too_many_lookups")
    # records, replays, analyses and sockets of games read from the store: one budget
    views = RateLimits.per_minute(lookups_per_minute)
    limit_views = address_limit(views, "too_many_lookups")
    limit_looks = looks_limited(rooms, limit_views)  # other routes that may read a game
    app.include_router(mine_router(store, rooms.rooms.get, limit_lookups))
    offers = RematchStore(store)
    app.include_router(
        rematch_router(
            offers,
            looking,
            rooms.held,
            rooms.add,
            profiles.expect_results,
            limit_joins,
            limit_looks,
        )
    )
    rooms.on_rematch = partial(tell_elsewhere, offers, looking)
    app.include_router(words_router())
    # the lobby's lists, the leaderboard, players' pages, kept reviews: read once for all
    # askers; the lobby polls every 10 s a tab, so a class behind one address fits
    pages = RateLimits.per_minute(5 * lookups_per_minute, at_once=30)
    answers = SharedAnswers(lambda: store.changes, address_limit(pages, "too_many_lookups"))
    app.include_router(
        analysis_router(limited_finder(rooms, limit_views), reviews, limit_views, answers.limit)
    )
    app.include_router(positions_router(limit_lookups, searches))
    limit_claims = address_limit(new_games_per_minute, "too_many_profiles")
    app.include_router(
        profiles_router(
            profiles, looking, rooms.held, limit_claims, link, limit_lookups, limit_looks, answers
        )
    )
    app.include_router(seats_router(profiles, store, looking, link, limit_joins))
    app.include_router(
        games_router(
            rooms,
            profiles,
            limit_creations,
            limit_joins,
            limit_views,
            base_url,
            clock_minimum,
            answers,
            open_games_per_address,
            bot_games_per_address,
            games_per_address,
        )  # fmt: skip
    )
    limits = ConnectionLimits(connections_per_address, watchers_per_game)
    guard.sockets = limits.of  # the reserve counts an address's game sockets too
    app.include_router(
        play_socket_router(
            rooms,
            limits,
            base_url or None,
            message_rate,
            socket_idle_timeout,
            views,
            RateLimits.per_minute(lookups_per_minute, at_once=30),  # sockets opened
            profiles.seat_played_from,
            searches,
        )  # fmt: skip
    )
    if offline_runtime:
        app.include_router(offline_app_router(Path(offline_runtime)))
    return app
