"""The lobby's lists are everyone's (the web audit: a hundred bots' games made from one
address in minutes pushed every game waiting for players out of the lobby): each list —
waiting for players, in play, ended — has its own most recent games, and one address holds
only a few games waiting for players at once. The app in process, on SQLite and PostgreSQL."""

from __future__ import annotations

import threading
from contextlib import ExitStack

import pytest
from fastapi.testclient import TestClient

from pickomino.web import create_app
from pickomino.web.addresses import SITE_SHARE

from .clients import age, create, refused_http
from .test_profiles import creator_of, from_address, sql

BOTS_ONLY = {"seats": [{"name": "E", "bot": "easy"}, {"name": "M", "bot": "medium"}]}
WAITING = {"seats": [{"name": "Ann"}, {"name": "Guest", "open": True}]}
INVITING = {"seats": [{"name": "Ann"}, {"name": "Bob"}]}


def lobby_app(database: str, **options: object):
    """Bots that stand still (their games stay in play), no creation rate to wait for."""
    return create_app(database, bot_delay=3600, new_games_per_minute=1e6, **options)


@pytest.mark.slow  # 101 games created: a few seconds
def test_games_in_play_do_not_push_the_games_waiting_for_players_out(database):
    with TestClient(
        lobby_app(database, bot_games_per_address=1000, games_per_address=1000)
    ) as client:
        waiting = create(client, WAITING)
        flood = from_address(client, "203.0.113.9")
        for _ in range(101):
            response = flood.post("/api/games", json=BOTS_ONLY)
            assert response.status_code == 201, response.text
        listed = client.get("/api/games").json()
    statuses = [game["status"] for game in listed]
    assert statuses.count("playing") == 100  # the most recent hundred of a list
    assert waiting["id"] in [game["id"] for game in listed if game["status"] == "open"]


def test_one_address_has_only_a_few_games_of_bots_alone_in_play(database):
    """An audit: five addresses started games of seven expert bots as fast as creations were
    allowed, 350 of them playing by themselves: the server's core went to their bots, and
    everybody's dice helper and "what if" took a second."""
    with TestClient(lobby_app(database, bot_games_per_address=2)) as client:
        here = from_address(client, "203.0.113.7")
        first, _second = (create(here, BOTS_ONLY) for _ in range(2))
        refused_http(here.post("/api/games", json=BOTS_ONLY), 429, "too_many_bot_games", most=2)
        assert create(here, {"seats": [{"name": "Ann"}, {"name": "R", "bot": "easy"}]})
        assert create(from_address(client, "203.0.113.8"), BOTS_ONLY)  # another address
        sql(database, "UPDATE games SET status = 'over' WHERE id = :id", id=first["id"])
        assert create(here, BOTS_ONLY)  # one ended: room for another


def test_one_address_has_only_so_many_unfinished_games_of_any_kind(database):
    """Stop 64's audit (left then): a game against bots starts at once, so no other cap
    counted it; one never played stayed in memory a week (13 KB: 190 MB a day from one
    address at the creation rate allowed)."""
    against_bots = {"seats": [{"name": "Ann"}, {"name": "R", "bot": "easy"}]}
    with TestClient(lobby_app(database, games_per_address=3)) as client:
        here = from_address(client, "203.0.113.7")
        first, *_ = (create(here, spec) for spec in (against_bots, against_bots, WAITING))
        refused_http(here.post("/api/games", json=against_bots), 429, "too_many_games", most=3)
        assert create(from_address(client, "203.0.113.8"), against_bots)  # another address
        sql(database, "UPDATE games SET status = 'abandoned' WHERE id = :id", id=first["id"])
        assert create(here, against_bots)  # one no longer unfinished: room for another


def test_the_addresses_of_one_ipv6_site_share_a_few_addresses_worth_of_games(database):
    """An audit: every limit per address counted an IPv6 /64, and anyone may be given a /48
    (65,536 /64s; its 2,000 /64s made 20,000 score sheets where one address makes 10). A
    site's /64s share SITE_SHARE addresses' worth of games, of each kind; another site, and
    each IPv4 address, has its own."""
    with TestClient(lobby_app(database, bot_games_per_address=1)) as client:
        site = [from_address(client, f"2001:db8:5:{n}::1") for n in range(SITE_SHARE + 1)]
        for here in site[:SITE_SHARE]:
            create(here, BOTS_ONLY)
            refused_http(here.post("/api/games", json=BOTS_ONLY), 429, "too_many_bot_games")
        refused_http(site[-1].post("/api/games", json=BOTS_ONLY), 429, "too_many_bot_games", most=1)
        assert create(from_address(client, "2001:db8:6::1"), BOTS_ONLY)  # another site
        assert create(from_address(client, "203.0.113.7"), BOTS_ONLY)
    stored = sql(database, "SELECT count(DISTINCT created_site) FROM games")
    assert stored[0][0] == 3


def test_one_address_holds_only_a_few_games_waiting_for_players(database):
    with TestClient(lobby_app(database, open_games_per_address=2)) as client:
        here = from_address(client, "203.0.113.7")
        first, _second = (create(here, spec) for spec in (WAITING, INVITING))
        refused_http(here.post("/api/games", json=WAITING), 429, "too_many_open_games", most=2)
        assert create(here, {"seats": [{"name": "Ann"}, {"name": "R", "bot": "easy"}]})  # plays
        assert create(from_address(client, "203.0.113.8"), WAITING)  # another address
        removed = here.post(  # the seat nobody took goes to a bot: her game starts
            f"/api/games/{first['id']}/remove",
            json={"seat": 1, "bot": "easy"},
            headers=creator_of(first),
        )
        assert removed.status_code == 200, removed.text
        another = create(here, WAITING)  # one waits no more: room for another
        refused_http(here.post("/api/games", json=WAITING), 429, "too_many_open_games", most=2)
        called_off = here.post(f"/api/games/{another['id']}/cancel", headers=creator_of(another))
        assert called_off.status_code == 200, called_off.text
        assert create(here, WAITING)  # a game called off waits no more either
        refused_http(here.post("/api/games", json=WAITING), 429, "too_many_open_games", most=2)
    for game_id in sql(database, "SELECT id FROM games WHERE status = 'open'"):
        age(database, game_id[0], 24 * 3600 + 60)
    with TestClient(lobby_app(database, open_games_per_address=2)) as client:
        # A day later the waiting games hold the address no more (a shared address's
        # other people are not locked out for the week an idle game waits).
        assert create(from_address(client, "203.0.113.7"), WAITING)


def test_the_lobby_is_read_once_for_everyone_until_something_changes(database, monkeypatch):
    """An audit: one address asking for the lobby 38 times a second (a 20 ms read each, on
    the event loop) held everybody's moves two seconds. It is read once, in a worker thread,
    for all who ask until this process stores something (or a second passed), and one address
    may ask for it thirty times at once, then thirty a minute per game it may create a minute."""
    with TestClient(create_app(database, new_games_per_minute=1)) as client:
        store = client.app.state.rooms.store
        reads = []
        real = store.listing
        monkeypatch.setattr(store, "listing", lambda: reads.append(1) or real())
        first = client.get("/api/games").json()
        again = client.get("/api/games").json()
        assert again == first and len(reads) == 1  # nothing changed: not read again
        game = create(client, INVITING)
        listed = client.get("/api/games").json()
        assert len(reads) == 2 and game["id"] in [row["id"] for row in listed]
        for _ in range(27):  # thirty at once in all
            assert client.get("/api/games").status_code == 200
        refused_http(client.get("/api/games"), 429, "too_many_lookups")
        refused_http(client.get("/api/leaderboard"), 429, "too_many_lookups")  # one budget
        neighbour = from_address(client, "198.51.100.4")
        assert neighbour.get("/api/games").status_code == 200


@pytest.mark.slow  # PostgreSQL's: the full run, as the database's variants
@pytest.mark.parametrize(
    ("game", "cap", "count"),
    [
        (
            {"seats": [{"name": "Ann"}, {"name": "R", "bot": "easy"}]},
            "games_per_address",
            "unfinished_games_from",
        ),
        (BOTS_ONLY, "bot_games_per_address", "bot_games_from"),
    ],
    ids=["unfinished", "bots alone"],
)
def test_two_processes_counting_one_address_s_games_at_once_make_one(
    postgres_cluster, monkeypatch, game, cap, count
):
    """Two processes (two apps on one PostgreSQL database) creating a game for one address at
    the same moment both counted its games before either stored one, and both passed its
    cap. The count is made again as the game is stored, one process at a time for the site
    (a game of bots alone is stored in play, as it is counted: it was stored waiting, then
    set in play a moment after, when the other process could count it no more)."""
    url = postgres_cluster.migrated_database()
    counted = threading.Barrier(2, timeout=20)  # both have counted before either stores
    answers: list[int] = []
    with ExitStack() as apps:
        clients = [apps.enter_context(TestClient(lobby_app(url, **{cap: 1}))) for _ in "ab"]
        for client in clients:
            store = client.app.state.rooms.store
            real = getattr(store, count)

            def count_then_wait(origin, db=None, real=real):
                made = real(origin, db)
                if db is None:  # the count before anything is made
                    counted.wait()
                return made

            monkeypatch.setattr(store, count, count_then_wait)

        def create_from(client: TestClient) -> None:
            here = from_address(client, "203.0.113.7")
            answers.append(here.post("/api/games", json=game).status_code)

        asking = [threading.Thread(target=create_from, args=(client,)) for client in clients]
        for request in asking:
            request.start()
        for request in asking:
            request.join()
    assert sorted(answers) == [201, 429]
    assert sql(url, "SELECT count(*) FROM games")[0][0] == 1
