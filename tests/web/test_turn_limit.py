"""A game stops at its turn limit (``serve --turn-limit``, kept in the game when it is made):
the rules let a game go on for ever (R16 turns nothing over when the player who busts
returned nothing), and an audit's six scripted seats made 10,302 moves in five minutes so.
At the end of the round that reaches the limit the game is abandoned, ``stopped_after`` says
after how many turns (the state, the lobby, the record), and its standings count as its
result, nobody having left it; a game stored past the limit (a stop between the move and its
status) stops when it is read again; with several processes, the one that hears of the last
move plays none after it. On SQLite and PostgreSQL."""

from __future__ import annotations

from fastapi.testclient import TestClient

from pickomino.bots import make_bot
from pickomino.core import Game, GameRecord
from pickomino.table import SeededDice, advance
from pickomino.web import create_app
from pickomino.web.db.store import Store
from pickomino.web.game.commits import TURN_LIMIT

from .clients import create, next_of, refused, socket_path, stored_game
from .server_process import TemporaryPostgres, wait_until
from .test_clocks import until
from .test_cluster_notices import play_a_turn
from .test_profiles import as_profile, claim, engine_of, establish
from .wire import check_message

BOTS = {"seats": [{"name": "Robo", "bot": "easy"}, {"name": "Cy", "bot": "easy"}]}
THREE_BOTS = {"seats": [*BOTS["seats"], {"name": "Di", "bot": "easy"}]}


def app(database: str, turn_limit: int = TURN_LIMIT, bot_delay: float = 0):
    return create_app(
        database, bot_delay=bot_delay, message_rate=1000, new_games_per_minute=1e6,
        turn_limit=turn_limit, dice_seed=1,  # the same games each time
    )  # fmt: skip


def watch_until_ended(client: TestClient, game: dict) -> dict:
    """A spectator's first state of the game ended (every state checked on the way)."""
    with client.websocket_connect(socket_path(game, None)) as ws:
        while True:
            state = next_of(ws, "state")
            sent = {key: value for key, value in state.items() if key != "full_log"}
            check_message(sent, {"Robo", "Cy", "Di", game["id"]})
            if state["status"] != "playing":
                return state


def test_a_game_at_its_turn_limit_stops_at_the_rounds_end_abandoned_with_its_standings(database):
    with TestClient(app(database, turn_limit=4)) as client:
        game = create(client, THREE_BOTS)
        state = watch_until_ended(client, game)
        listed = {g["id"]: g for g in client.get("/api/games").json()}[game["id"]]
        record = client.get(f"/api/games/{game['id']}/record").json()
        assert game["id"] not in client.app.state.rooms.rooms  # nobody watches: let go
    # Four turns reached in the second round: stopped at its end, each player had two turns.
    assert state["status"] == "abandoned" and state["stopped_after"] == 6
    assert state["actions"] == [] and not state["table"]["over"]
    replayed = Game.from_record(GameRecord.from_dict(record))
    assert state["table"]["turn"] == replayed.state.turn == 7  # six turns played, no more
    standings = [(s.seat, s.rank, s.worms) for s in replayed.state.ranking()]
    shown = [(s["seat"], s["rank"], s["worms"]) for s in state["table"]["ranking"]]
    assert shown == standings
    assert record["meta"]["stopped_after"] == 6 and record["meta"]["turn_limit"] == 4
    assert listed["status"] == "abandoned" and listed["stopped_after"] == 6
    stored = stored_game(database, game["id"])
    assert stored.status == "abandoned" and list(stored.moves) == record["moves"]


def test_without_a_limit_or_under_it_a_game_plays_to_its_end(database):
    for limit in (0, TURN_LIMIT):
        with TestClient(app(database, turn_limit=limit)) as client:
            game = create(client, BOTS)
            state = watch_until_ended(client, game)
            listed = {g["id"]: g for g in client.get("/api/games").json()}[game["id"]]
        assert state["status"] == "over" and state["stopped_after"] is None
        assert listed["stopped_after"] is None


def test_a_rated_game_stored_past_the_limit_stops_when_read_and_its_standings_count(database):
    """As if the server stopped between the move that ended the limit's last turn and the
    status: read again at the next start (by a server with another limit: the game's own
    counts), the game stops; its people did not leave it (an abandoned game's people
    otherwise rank after the bots), the standings decide."""
    duel = {"seats": [{"name": "A"}, {"name": "Robo", "bot": "easy"}], "rated": True}
    limit = 8
    with TestClient(app(database, turn_limit=limit, bot_delay=3600)) as client:  # nothing moves
        ann = claim(client, "Ann")
        establish(engine_of(client), ann["id"])  # a player of standing: the bot's rating moves
        game = client.post("/api/games", json=duel, headers=as_profile(ann)).json()
    stored = stored_game(database, game["id"])
    played = Game.from_record(GameRecord.from_json(stored.header))
    advance(played, [make_bot("hard", 1), make_bot("easy", 2)], SeededDice(7))
    moves, replay = [], Game.from_record(GameRecord.from_json(stored.header))
    for move in played.record.moves:
        if replay.state.turn > limit:
            break
        replay.push(move)
        moves.append(move)
    store = Store(database)
    try:
        store.append_moves(game["id"], 0, moves)
    finally:
        store.close()
    ranks = {s.seat: s.rank for s in replay.state.ranking()}
    assert len(set(ranks.values())) == 2, "a seed where one of them leads"

    with TestClient(app(database, bot_delay=3600)) as client:
        assert stored_game(database, game["id"]).status == "abandoned"  # at the start
        assert game["id"] not in client.app.state.rooms.rooms  # nobody there: not held
        with client.websocket_connect(socket_path(game, 0)) as seat:
            state = next_of(seat, "state")
            assert state["stopped_after"] == limit and state["status"] == "abandoned"
            seat.send_json({"type": "act", "action": "roll", "seq": state["seq"]})
            refused(next_of(seat, "error"), "game_abandoned")
        page = client.get(f"/api/profiles/{ann['id']}").json()
        robo = client.get("/api/profiles/bot-easy").json()
    (result,) = page["results"]
    assert result["rated"] and not result["left"] and result["rank"] == ranks[0]
    if ranks[0] == 1:
        assert page["rating"]["mu"] > 25 > robo["rating"]["mu"]
    else:
        assert page["rating"]["mu"] < 25 < robo["rating"]["mu"]
    assert len(stored_game(database, game["id"]).moves) == len(moves)  # nothing played on


def test_a_game_stopped_on_one_process_gets_no_move_more_from_the_one_driving_its_bots(
    postgres_cluster: TemporaryPostgres,
):
    """A review: Ann's move on one process ended the limit's last turn, and the process
    driving the bot, following her moves, had the bot roll once more after the stop."""
    database = postgres_cluster.new_database()
    spec = {"seats": [{"name": "Ann"}, {"name": "Robo", "bot": "easy"}], "start_player": 1}
    with (
        TestClient(app(database, turn_limit=2, bot_delay=0.2)) as here,
        TestClient(app(database, turn_limit=2, bot_delay=0.2)) as there,
    ):
        game = create(here, spec)  # made here: here drives Robo
        with there.websocket_connect(socket_path(game, 0)) as ann:
            state = until(ann, lambda s: s["status"] == "playing")
            while state["status"] == "playing":  # Robo's turn, Ann's, Robo's, Ann's: stopped
                if state["table"]["current"] == 0 and state["actions"]:
                    state = play_a_turn(ann, state)
                else:
                    state = until(ann, lambda s: True)
        assert state["stopped_after"] == 2 and state["status"] == "abandoned"
        driver = here.app.state.rooms.held(game["id"])
        wait_until(
            lambda: driver.status == "abandoned" and driver.bots.idle(), "the stop heard there"
        )
    stored = stored_game(database, game["id"])
    assert stored.status == "abandoned" and len(stored.moves) == state["seq"]
