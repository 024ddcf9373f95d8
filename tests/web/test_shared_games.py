"""Two server processes' memories of one stored game, in one process: two rooms on one
store. The database serialises their moves (a unique move number per game): the room that is
behind is refused as stale and catches up; nothing is played twice."""

from __future__ import annotations

import asyncio
import json
import threading

import pytest

from pickomino.core import GameRecord
from pickomino.web.db.move_writes import StaleMoves
from pickomino.web.db.store import Store, StoredSeat
from pickomino.web.db.tables import moves
from pickomino.web.errors import Refused
from pickomino.web.game.room import Room
from pickomino.web.game.seating import Seating


def two_memories(database: str) -> tuple[Store, Room, Room]:
    """A game of two people, both seated, as two processes hold it."""
    store = Store(database)
    record = GameRecord(["Ann", "Bob"], start_player=0)
    here = Room.create(store, record, [None, None], bot_delay=0, creator=0)
    here.claim(1)
    stored = store.load(here.id)
    assert stored is not None and here.status == "playing"
    return store, here, Room(stored, store, bot_delay=0)


def test_a_taken_move_number_is_refused_and_nothing_of_the_batch_is_kept(database):
    store, here, _there = two_memories(database)
    store.append_moves(here.id, 0, ["roll"])
    with pytest.raises(StaleMoves):
        store.append_moves(here.id, 0, ["roll", "dice 11112222"])
    assert store.load(here.id).moves == ["roll"]


def test_the_room_behind_is_refused_as_stale_and_catches_up(database):
    store, here, there = two_memories(database)
    asyncio.run(here.act(0, "roll", 0))
    assert here.seq == 1  # the first roll: its dice
    with pytest.raises(Refused) as refusal:
        asyncio.run(there.act(0, "roll", 0))  # same seat, same version: a race lost
    assert refusal.value.code == "stale"
    assert store.load(here.id).moves == here.game.record.moves  # one roll, not two
    assert there.game.record.moves == here.game.record.moves  # caught up
    assert there.snapshot() == here.snapshot()


def test_a_move_from_a_seat_s_old_device_is_refused_once_the_seat_moved_on_another_process(
    database,
):
    """An audit (a process stopped for a second, SIGSTOP): Ann moved her seat to a new
    device on another process; the process behind, which had not heard yet, took a move
    from her old device (the move's transaction checked the move's number and the seating,
    not who holds the seat). The moves are stored only while the secret the mover came with
    still holds the seat: refused as stale, the seat's new holder read."""
    store, here, there = two_memories(database)
    new_device = here.take(0, here.transfer(0))
    assert new_device is not None and there.seats[0].token != new_device  # there: behind
    with pytest.raises(Refused) as refusal:
        asyncio.run(there.act(0, "roll", 0))
    assert refusal.value.code == "stale"
    assert store.load(here.id).moves == []  # nothing stored
    assert there.seats[0].token == new_device and there.game.record.moves == []
    asyncio.run(here.act(0, "roll", 0))  # from the seat's new device: taken
    assert store.load(here.id).moves == here.game.record.moves != []


def test_a_move_and_a_vote_are_checked_with_the_secret_their_device_came_with(database):
    """A review: the check compared the secret memory knew the seat by, which a catching up
    between the message's reading and its storing (a timed game's vote reads the whole game;
    a move refused by a seating changed elsewhere is tried again after reading it) had made
    the seat's new one already: the old device's move and vote were stored."""

    async def from_the_old_device() -> None:
        store, here, there = two_memories(database)
        old = there.seats[0].token
        assert old is not None
        here.take(0, here.transfer(0))
        there.catch_up()  # memory follows, after the old device's messages were read
        with pytest.raises(Refused) as refusal:
            await there.act(0, "roll", 0, secret=old)
        assert refusal.value.code == "stale" and store.load(here.id).moves == []
        with pytest.raises(Refused) as refusal:
            await there.vote(0, 1, secret=old)  # Bob connected nowhere: a vote may be cast
        assert refusal.value.code == "seat_moved"
        assert store.load(here.id).seating is None  # no vote stored

    asyncio.run(from_the_old_device())


def test_a_move_waiting_for_the_pass_s_end_is_stored_before_its_seat_moves(database):
    """A review: Ann's move waits for the end of the event loop's pass to be stored; in the
    same pass her seat moves to another device on this process. The move was made by the
    seat's holder: it is stored first, not refused for the seat's new secret."""

    async def one_pass() -> None:
        store, here, _there = two_memories(database)
        moving = asyncio.create_task(here.act(0, "roll", 0))
        await asyncio.sleep(0)  # the move is made, its storing waits for the pass's end
        here.take(0, here.transfer(0))  # in the same pass
        await moving
        assert store.load(here.id).moves == here.game.record.moves != []

    asyncio.run(one_pass())


def test_catching_up_follows_seats_and_status(database):
    store, here, there = two_memories(database)
    store.abandon([here.id])
    assert there.catch_up() and there.status == "abandoned"
    assert not there.catch_up()  # nothing new: nothing to tell the clients


def test_a_game_stored_without_meta_catches_up(database):
    """A record's ``meta`` is optional (a game stored from a record file may have none): the
    room another process loaded still follows what is stored after (CI once failed on it)."""
    store = Store(database)
    record = GameRecord(["Ann", "Bob"], start_player=0)
    header = json.dumps(record.to_dict())
    assert "meta" not in json.loads(header)
    people = [StoredSeat(n, name, None, f"t{n}", True) for n, name in enumerate(record.seats)]
    store.create_game("bare", header, people)
    stored = store.load("bare")
    assert stored is not None
    there = Room(stored, store, bot_delay=0)
    store.append_moves("bare", 0, ["dice 11223345"])
    store.abandon(["bare"])
    assert there.catch_up() and there.status == "abandoned"
    assert there.game.record.moves == ["dice 11223345"]


def test_two_people_seated_at_once_on_two_processes_start_the_game(database):
    """An audit (three processes under churn): Bob took his seat on one process and Cy hers
    on another at the same moment; each process started the game only if its own memory had
    every seat taken, so neither did, and the game waited for its players for ever. A claim
    reads the seats stored before it decides (the last of two claims sees both)."""
    store = Store(database)
    record = GameRecord(["Ann", "Bob", "Cy"], start_player=0)
    here = Room.create(store, record, [None, None, None], bot_delay=0, creator=0)
    there = Room(store.load(here.id), store, bot_delay=0)
    here.claim(1)
    assert here.status == "open"  # Cy's seat is not taken: nothing to start
    there.claim(2)  # its memory still has Bob's seat free
    assert there.status == "playing" and store.load(here.id).status == "playing"
    here.catch_up()
    assert here.status == "playing"


def three_seated(store: Store, start_player: int) -> Room:
    """A game of three people, all seated, as the process that created it holds it."""
    record = GameRecord(["Ann", "Bob", "Cy"], start_player=start_player)
    room = Room.create(store, record, [None, None, None], bot_delay=0, creator=0)
    room.claim(1)
    room.claim(2)
    assert room.status == "playing"
    return room


def vote(voter: int, on: int):
    """A change of the seating: ``voter``'s vote to let a bot play for ``on``."""
    return lambda seating: seating.votes.setdefault(on, []).append(voter) or []


def test_a_vote_from_a_seat_s_old_device_is_refused_once_the_seat_moved_on_another_process(
    database,
):
    """As a move (above): a process behind took a vote, or a coming back, from the device a
    seat had moved away from on another process. The seating is changed only while the
    secret the voter came with still holds their seat."""

    async def vote_from_the_old_device() -> None:  # alarms are set in the event loop
        store = Store(database)
        here = three_seated(store, start_player=1)  # Bob to play, connected nowhere
        there = Room(store.load(here.id), store, bot_delay=0)
        told: list[str] = []  # another page of the old device, on the process behind

        async def old_page(message: str) -> None:
            told.append(message)

        await there.connect(old_page, 0)
        new_device = here.take(0, here.transfer(0))
        with pytest.raises(Refused) as refusal:
            await there.vote(0, 1)  # Ann's old device, on the process behind
        assert refusal.value.code == "seat_moved"
        assert any("seat_moved" in message for message in told)  # it only watches now
        assert there.connections[old_page] is None
        stored = Seating.load(store.load(here.id).seating, here.game.record.meta, 3)
        assert stored.votes.get(1, []) == [] and there.seats[0].token == new_device
        await here.vote(0, 1)  # from the seat's new device: cast
        stored = Seating.load(store.load(here.id).seating, here.game.record.meta, 3)
        assert stored.votes[1] == [0]

    asyncio.run(vote_from_the_old_device())


def test_two_changes_of_the_seating_at_once_on_two_processes_both_count(database):
    """An audit (three processes): Ann and Cy voted at the same moment, on two processes, to
    let a bot play for Bob; each process stored its memory's seating with its own vote, the
    last one overwriting the other's: one vote was lost, with no error. A change of the
    seating is made to what is stored (the row locked meanwhile)."""

    async def votes() -> None:  # alarms are set in the event loop
        store = Store(database)
        here = three_seated(store, start_player=1)
        there = Room(store.load(here.id), store, bot_delay=0)
        assert here.change_seating(vote(0, on=1))
        assert there.change_seating(vote(2, on=1))  # its memory has not heard of Ann's vote
        stored = Seating.load(store.load(here.id).seating, here.game.record.meta, 3)
        assert sorted(stored.votes[1]) == [0, 2]
        assert sorted(there.seating.votes[1]) == [0, 2]  # and its memory read both
        here.catch_up()
        assert sorted(here.seating.votes[1]) == [0, 2]

    asyncio.run(votes())


def test_a_move_and_a_vote_at_once_on_two_processes_both_count(database):
    """Found after the audit: a move that changes the seating (a turn's end in a timed game,
    or the votes on the mover, which end as they move) stored the seating its process had
    worked out from memory: a vote cast on another process at the same moment was undone,
    with no error. The move is refused as stale there, read again and tried on what is
    stored: both count."""

    async def race() -> None:  # alarms are set in the event loop
        store = Store(database)
        here = three_seated(store, start_player=0)
        assert here.change_seating(vote(2, on=0))
        there = Room(store.load(here.id), store, bot_delay=0)  # it knows Cy's vote on Ann
        # Ann votes on Bob there while her roll is on its way here (whose memory has not
        # heard of it): the roll ends the votes on Ann, and must leave hers on Bob
        assert there.change_seating(vote(0, on=1))
        await here.act(0, "roll", here.seq)
        stored = store.load(here.id)
        assert stored.moves == here.game.record.moves and len(stored.moves) == 1  # once
        votes = Seating.load(stored.seating, here.game.record.meta, 3).votes
        assert votes == {1: [0]}  # Cy's vote on Ann ended by her move, Ann's on Bob kept
        assert here.seating.votes == {1: [0]}  # and memory follows what is stored
        there.catch_up()
        assert there.seating.votes == {1: [0]} and there.snapshot() == here.snapshot()

    asyncio.run(race())


def test_a_vote_on_the_mover_stored_elsewhere_as_they_move_ends_with_the_move(database):
    """A review: a person's move ends the votes on them, but only those its process knew: a
    vote on Ann stored by another process while her roll was on its way stood after it (a
    bot could be voted in for a person who had just moved). The move checks, as it is
    stored, that no vote on the mover is stored; one is: the move is tried again on it."""

    async def race() -> None:  # alarms are set in the event loop
        store = Store(database)
        here = three_seated(store, start_player=0)  # a game without a clock
        there = Room(store.load(here.id), store, bot_delay=0)
        assert there.change_seating(vote(2, on=0))  # Cy's vote on Ann, there
        assert here.seating.votes == {}  # not heard of here as Ann rolls
        await here.act(0, "roll", here.seq)
        stored = store.load(here.id)
        assert len(stored.moves) == 1 and stored.moves == here.game.record.moves
        assert Seating.load(stored.seating, here.game.record.meta, 3).votes == {}
        assert here.seating.votes == {}

    asyncio.run(race())


def test_a_change_of_the_seating_does_not_wait_for_moves_being_stored(database):
    """A review's stress test (PostgreSQL): a change of the seating locked the game's row FOR
    UPDATE, so it waited for every transaction storing a move of the game (the move's row
    refers to it: a key-share lock), holding its place in the row's queue meanwhile; a
    process storing moves of two games then waited for it, closing a circle: deadlocks, a
    vote refused. It locks FOR NO KEY UPDATE now, which a move's reference does not stop."""
    if not database.startswith("postgresql"):
        pytest.skip("row locks: PostgreSQL's (SQLite has one writer)")
    store = Store(database)
    here = three_seated(store, start_player=0)
    writing = store.engine.connect()
    writing.begin()  # a process storing a move, not yet committed
    writing.execute(moves.insert().values(game_id=here.id, seq=0, move="dice 11223345"))
    voted = threading.Thread(target=lambda: store.change_seating(here.id, lambda s: None))
    voted.start()
    voted.join(timeout=20)  # a bound, not a timing: waiting for the move's commit never ends
    waited = voted.is_alive()
    writing.commit()
    writing.close()
    voted.join()
    assert not waited


def test_two_profiles_seated_at_once_on_two_processes_both_stay(database):
    """A review: the game's header (its names, which profile plays each seat) was written
    whole from each process's memory: of two claims at the same moment, the last lost the
    other's profile, and a rated game was not rated. A claim changes only its seat in what is
    stored."""
    store = Store(database)
    record = GameRecord(["Ann", "Bob", "Cy"], start_player=0)
    record.meta = {"rated": True, "profiles": ["p0", None, None]}
    here = Room.create(store, record, [None, None, None], bot_delay=0, creator=0)
    there = Room(store.load(here.id), store, bot_delay=0)
    here.claim(1, name="Bobby", profile="p1")
    there.claim(2, name="Cyd", profile="p2")  # its memory has neither Bobby nor p1
    header = json.loads(store.load(here.id).header)
    assert header["meta"]["profiles"] == ["p0", "p1", "p2"]
    assert header["seats"] == ["Ann", "Bobby", "Cyd"]
    assert there.profiles() == ["p0", "p1", "p2"] and there.rated
