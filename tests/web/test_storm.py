"""A storm of spectators against a real ``pickomino serve`` on loopback: the players keep
playing while many spectators join at once, every spectator is let in, and a join costs the
others nothing (before, every join sent the whole state to everyone: O(N²) messages for N
joins, and the players' states queued behind them)."""

from __future__ import annotations

import asyncio
import json
from pathlib import Path

import httpx
import pytest
from websockets.asyncio.client import ClientConnection, connect

from .clients import follow
from .server_process import ServerProcess

pytestmark = pytest.mark.slow  # a real server, a few hundred sockets

SPECTATORS = 200
MOVES = 30  # the players' moves while (and after) the spectators join
DEADLINE = 60  # seconds for the whole storm: a bound, not a timing


class Storm:
    """The players' progress, as the spectators need to know it."""

    def __init__(self) -> None:
        self.joined = 0  # spectators that got their first state
        self.all_joined = asyncio.Event()
        self.final_seq: int | None = None  # set once the players have stopped


async def newer_state(ws: ClientConnection, seq: int) -> dict:
    """The next state after version ``seq`` (skipping the rest: presence, repeats)."""
    while True:
        message = follow(ws, json.loads(await ws.recv()))  # a change: the state it makes
        if message["type"] == "state" and message["seq"] > seq:
            return message


async def play(players: list[ClientConnection], storm: Storm) -> int:
    """Whoever is to move plays the first offered action, each answered by a newer state
    (read by both players, so neither falls behind), until every spectator is in and MOVES
    moves were made; the last version."""
    for ws in players:  # Ann is seated since creation; the game starts when Bob comes
        while (state := await newer_state(ws, -1))["status"] != "playing":
            pass
    while not (storm.all_joined.is_set() and state["seq"] >= MOVES or state["table"]["over"]):
        seat = state["table"]["current"]
        act = {"type": "act", "action": state["actions"][0], "seq": state["seq"]}
        await players[seat].send(json.dumps(act))
        state = [await newer_state(ws, state["seq"]) for ws in players][seat]
    return state["seq"]


async def watch(url: str, storm: Storm) -> list[dict]:
    """A spectator: everything it hears until it has seen the players' last state."""
    heard: list[dict] = []
    async with connect(url, max_size=2**24) as ws:
        seen = -1
        while storm.final_seq is None or seen < storm.final_seq:
            try:
                async with asyncio.timeout(0.2):  # a poll of final_seq, not a timing
                    message = follow(ws, json.loads(await ws.recv()))
            except TimeoutError:
                continue
            heard.append(message)
            if message["type"] == "state":
                if seen < 0:
                    storm.joined += 1
                    if storm.joined == SPECTATORS:
                        storm.all_joined.set()
                seen = message["seq"]
    return heard


async def run_storm(server: ServerProcess, game: dict) -> list[list[dict]]:
    links = [server.ws_url + s["link"].replace("/games/", "/ws/games/", 1) for s in game["seats"]]
    storm = Storm()
    async with connect(links[0]) as ann, connect(links[1]) as bob:
        watch_url = f"{server.ws_url}/ws/games/{game['id']}"
        spectators = [asyncio.create_task(watch(watch_url, storm)) for _ in range(SPECTATORS)]
        storm.final_seq = await play([ann, bob], storm)
        return await asyncio.gather(*spectators)


def test_players_keep_playing_while_many_spectators_join(tmp_path: Path) -> None:
    many = ("--connections-per-address", "1000", "--http-connections-per-address", "1000")
    server = ServerProcess(tmp_path / "games.sqlite3", options=many).start()  # all on 127.0.0.1
    try:
        game = httpx.post(
            server.url + "/api/games",
            json={"seats": [{"name": "Ann"}, {"name": "Bob"}], "start_player": 0},
        ).json()
        heard = asyncio.run(asyncio.wait_for(run_storm(server, game), DEADLINE))
    finally:
        server.stop()
    for messages in heard:
        assert messages[0]["type"] == "welcome" and messages[0]["seat"] is None
        states = [m["seq"] for m in messages if m["type"] == "state"]
        assert states, "a spectator never got the state"
        # One state on joining, then one per move: nobody else's join sent it anything.
        assert states == sorted(set(states)), states
    assert max(m["seq"] for messages in heard for m in messages if m["type"] == "state") >= MOVES
