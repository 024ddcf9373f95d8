"""Storing moves, the one write of every action: now, in a transaction of their own, or
together with the other actions of the event loop's pass (:meth:`MoveWrites.at_tick_end`).

An action's moves are stored before anybody is told of them. Committing each action on its
own costs a commit per action (SQLite's write-ahead log, PostgreSQL's round trip and flush);
instead, the actions the event loop handles in one pass over its ready sockets are written
in one transaction, by a callback the loop runs right after that pass, and each action waits
for that commit before it is acknowledged. A move acknowledged is still a move stored.

Moves a person made are stored only while the secret they came with still holds their
seat (:class:`StaleHolder`): a process a moment behind (stopped, or slow to hear) may still
take a move from a device whose seat moved to another one elsewhere.

Each action's outcome stays its own. Moves whose number another process took first fail
alone (:class:`StaleMoves`): a taken number is seen without an error (``ON CONFLICT DO
NOTHING``, on SQLite and PostgreSQL alike), those of its moves already written go, and the
transaction goes on for the others. If the transaction fails as a whole (the database away,
a row it refuses), each action's moves are tried again alone, so one game's fault is not
another's.

Memory never shows what is not stored: what the game does once its moves are stored
(``kept``) or refused (``taken_back``) runs inside :meth:`MoveWrites.flush`, before anything
else runs; whatever would store anything else about the game (its seating, another
process's moves played in) or show it on a page flushes first, and a state for its sockets
waits for them (:meth:`MoveWrites.waiting`).

>>> import sqlalchemy as sa
>>> from pickomino.web.db.tables import metadata, moves
>>> engine = sa.create_engine("sqlite://", poolclass=sa.StaticPool)
>>> metadata.create_all(engine)
>>> writes = MoveWrites(engine, origin="p1")
>>> writes.now(GameMoves("g1", 0, ["dice 11223345", "keep 3"]))
>>> writes.now(GameMoves("g1", 1, ["keep 2"]))  # another process stored move 1 first
Traceback (most recent call last):
pickomino.web.db.move_writes.StaleMoves: ('g1', 1)
>>> with engine.connect() as db:
...     db.execute(sa.select(moves.c.move).order_by(moves.c.seq)).scalars().all()
['dice 11223345', 'keep 3']
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import sqlalchemy as sa

from pickomino.web.db.database import insert_unless_there
from pickomino.web.db.notices import CHANNEL, NOTIFY, notice
from pickomino.web.db.prepared import Prepared, driver_transaction
from pickomino.web.db.tables import games, moves, seats

log = logging.getLogger("pickomino.web")


class StaleMoves(Exception):
    """A move number already taken: another process stored a move of the game first."""


class StaleSeating(StaleMoves):
    """The seating stored with the moves (who plays each seat, the clock) was worked out from
    one another process has changed since (a vote cast there): stored, it would undo that
    change. The moves are refused as stale, to be tried again on the seating as stored."""


class StaleHolder(StaleMoves):
    """The person who moved came with a secret that no longer holds their seat: another
    process moved the seat to another device (a transfer link, a profile's recovery code)
    meanwhile. The moves are refused as stale; memory reads the seat's new holder."""


@dataclass(frozen=True)
class GameMoves:
    """An action's moves, numbered from ``first_seq``, and what goes with them: ``turns``,
    given when they began a turn or ended the game (stored for the lobby, and marking the
    game active now), ``seating``, given when they changed the clock or the votes, and
    ``seating_from``: whether the seating stored now (read in the transaction, the game's row
    locked) is still the one it was worked out from, or one the moves may follow (else
    :class:`StaleSeating`), and ``holder``: the seat of the person who moved, with its
    secret (see :class:`StaleHolder`)."""

    game_id: str
    first_seq: int
    moves: list[str]
    turns: int | None = None
    seating: str | None = None
    seating_from: Callable[[str | None], bool] | None = None
    #: The person's seat who made the moves and the secret their device holds it by:
    #: stored only while that secret still holds the seat (else :class:`StaleHolder`).
    holder: tuple[int, str] | None = None


@dataclass(eq=False)
class PendingMoves:
    """An action's moves waiting for the end of the event loop's pass (see
    :meth:`MoveWrites.at_tick_end`)."""

    action: GameMoves
    kept: Callable[[], None]
    taken_back: Callable[[Exception], BaseException]
    done: asyncio.Future[None]  #: the action's: it raises what storing came to
    #: Whoever waits for the game's moves to be stored (:meth:`MoveWrites.waiting`): done
    #: right after ``done``, even if the action stopped waiting (cancelled).
    settled: asyncio.Future[None]

    def settle(self, error: Exception | None) -> None:
        """Memory follows what was stored (``kept``, or ``taken_back`` after ``error``), then
        the action waiting is told."""
        outcome: BaseException | None = None
        try:
            if error is not None:
                outcome = self.taken_back(error)
            else:
                self.kept()
        except Exception as failed:  # raised to the action, as if it ran there; the
            outcome = failed  # other actions of the pass are settled all the same
        if self.done.cancelled():  # the action stopped waiting
            pass
        elif outcome is None:
            self.done.set_result(None)
        else:
            self.done.set_exception(outcome)
        self.settled.set_result(None)


class MoveWrites:
    """The moves of every action, stored through the driver's own connection (see
    :mod:`.prepared`); ``notify`` when the other processes share the database and are told
    of each (see :mod:`.notices`)."""

    def __init__(self, engine: sa.Engine, origin: str, notify: bool = False) -> None:
        self.engine, self.origin = engine, origin
        self._insert = Prepared(engine, insert_unless_there(engine, moves))
        self._delete = Prepared(
            engine,
            moves.delete().where(
                moves.c.game_id == sa.bindparam("game"),
                moves.c.seq >= sa.bindparam("first"),
                moves.c.seq < sa.bindparam("stop"),
            ),
        )
        self._notify = Prepared(engine, NOTIFY) if notify else None
        self.stored = 0  #: transactions committed (see :attr:`.Store.changes`)
        self._seating = Prepared(  # (FOR NO KEY UPDATE on PostgreSQL, as UPDATE_GAMES locks)
            engine,
            sa.select(games.c.seating)
            .where(games.c.id == sa.bindparam("game"))
            .with_for_update(key_share=True),
        )
        self._seating_and_holder = Prepared(  # one statement where a person's move needs both
            engine,
            sa.select(games.c.seating, seats.c.token)
            .select_from(games.join(seats, seats.c.game_id == games.c.id))
            .where(games.c.id == sa.bindparam("game"), seats.c.seat == sa.bindparam("seat"))
            .with_for_update(key_share=True, of=games),
        )
        game = games.update().where(games.c.id == sa.bindparam("game"))
        self._update_game: dict[tuple[str, ...], Prepared] = {
            columns: Prepared(engine, game, columns)
            for columns in (("turns", "updated"), ("seating",), ("turns", "updated", "seating"))
        }
        #: How the pass's transaction writes (see :meth:`_one_by_one`, :meth:`_in_few_statements`).
        self._together = (
            self._in_few_statements if engine.dialect.name == "postgresql" else self._one_by_one
        )
        self._pending: list[PendingMoves] = []
        #: each game's last action among them (asked at every action: no walk through all)
        self._last: dict[str, PendingMoves] = {}

    # ----------------------------------------------------------------- at once
    def now(self, action: GameMoves) -> None:
        """Store an action's moves in a transaction of their own (see :meth:`write`)."""
        with driver_transaction(self.engine) as cursor:
            self.write(cursor, action)
        self.stored += 1

    def write(self, cursor: Any, action: GameMoves) -> None:
        """Store an action's moves in the transaction of the driver's ``cursor``. A number
        already taken (another process moved first) raises :class:`StaleMoves` and none of
        these moves is kept: the unique (game, number) is what serialises the moves of
        several processes. The turn (for the lobby's order: once a turn is plenty) and the
        clock are stored with them; a seating another process changed meanwhile raises
        :class:`StaleSeating`, a seat moved to another device :class:`StaleHolder`, and none
        of these moves is kept either."""
        game_id, first_seq, new_moves = action.game_id, action.first_seq, action.moves
        turns, seating = action.turns, action.seating
        for n, move in enumerate(new_moves):
            self._insert.run(cursor, {"game_id": game_id, "seq": first_seq + n, "move": move})
            if cursor.rowcount != 1:  # taken: the ones written before it go too
                self._delete.run(
                    cursor, {"game": game_id, "first": first_seq, "stop": first_seq + n}
                )
                raise StaleMoves(game_id, first_seq)
        stale = self._stale(cursor, action)
        if stale is not None:
            stop = first_seq + len(new_moves)
            self._delete.run(cursor, {"game": game_id, "first": first_seq, "stop": stop})
            raise stale(game_id, first_seq)
        if self._notify is not None:
            payload = notice(self.origin, game_id, first_seq + len(new_moves), new_moves, seating)
            self._notify.run(cursor, {"channel": CHANNEL, "payload": payload})
        values: dict[str, object] = (
            {} if turns is None else {"turns": turns, "updated": time.time()}
        )
        if seating is not None:
            values["seating"] = seating
        if values:
            self._update_game[tuple(values)].run(cursor, {"game": game_id, **values})

    def _stale(self, cursor: Any, action: GameMoves) -> type[StaleMoves] | None:
        """What refuses an action's moves as they are stored: its seat moved to another
        device (:class:`StaleHolder`, checked first: a seating read again would not help it),
        or the seating it was worked out from changed elsewhere (:class:`StaleSeating`);
        ``None``: neither. Read in one statement when it needs both (a person's move)."""
        game_id, seating_from = action.game_id, action.seating_from
        seating: str | None = None
        if action.holder is not None:
            seat, secret = action.holder
            self._seating_and_holder.run(cursor, {"game": game_id, "seat": seat})
            seating, holder = cursor.fetchone() or (None, None)  # (no such seat: not theirs)
            if holder != secret:
                return StaleHolder
        elif seating_from is not None:
            self._seating.run(cursor, {"game": game_id})
            seating = cursor.fetchone()[0]
        if seating_from is not None and not seating_from(seating):
            return StaleSeating
        return None

    # ---------------------------------------------------- at the end of the pass
    def at_tick_end(
        self,
        action: GameMoves,
        kept: Callable[[], None],
        taken_back: Callable[[Exception], BaseException],
    ) -> asyncio.Future[None]:
        """Store moves with the other actions of the event loop's pass; done once they are
        stored (or raising what ``taken_back`` made of the error). ``kept`` and
        ``taken_back`` run inside :meth:`flush`: memory follows the database before
        anything else can look."""
        loop = asyncio.get_running_loop()
        if not self._pending:
            loop.call_soon(self.flush)  # right after this pass's callbacks
        pending = PendingMoves(action, kept, taken_back, loop.create_future(), loop.create_future())
        self._pending.append(pending)
        self._last[action.game_id] = pending
        return pending.done

    def waiting(self, game_id: str) -> asyncio.Future[None] | None:
        """Done when ``game_id``'s moves waiting now are stored or taken back (``None``:
        none waits)."""
        last = self._last.get(game_id)
        return None if last is None else last.settled

    def flush(self, game_id: str | None = None) -> None:
        """Store the moves waiting, in one transaction, and settle each action; a no-op when
        none waits (or none of ``game_id``'s: the others keep waiting for the pass's end).
        Called at the end of the pass, and by whatever must not run ahead of a game's
        moves (see the module's docstring)."""
        if game_id is not None and game_id not in self._last:
            return
        pending, self._pending = self._pending, []
        self._last.clear()
        if not pending:
            return
        try:
            with driver_transaction(self.engine) as cursor:
                errors = self._together(cursor, pending)
            self.stored += 1
        except Exception as failed:  # the whole transaction: try each action alone
            if len(pending) == 1:
                errors = [failed]
            else:
                log.warning("could not store %d actions' moves together; each alone", len(pending))
                errors = self._each(pending, lambda one: self.now(one.action), Exception)
        for one, error in zip(pending, errors, strict=True):
            one.settle(error)

    def _one_by_one(self, cursor: Any, pending: list[PendingMoves]) -> list[Exception | None]:
        """The pass's actions written one after the other (SQLite: each statement is a call
        into the library, in this process)."""
        return self._each(pending, lambda one: self.write(cursor, one.action), StaleMoves)

    def _in_few_statements(
        self, cursor: Any, pending: list[PendingMoves]
    ) -> list[Exception | None]:
        """The pass's actions written in three statements whatever their number (PostgreSQL:
        each statement is a round trip to another process while the event loop waits): the
        moves of all, the notices, the games' turns and clocks (and one more reading the
        seatings and holders an action's depends on, when one does). Each action's outcome is the
        same as :meth:`write`'s, one by one. Rows go in the order of their game's id, so two
        processes' transactions lock them in one order (no deadlock between them)."""
        actions = [one.action for one in pending]
        rows = sorted(
            ((one.game_id, one.first_seq + n, move, one) for one in actions
             for n, move in enumerate(one.moves)),
            key=lambda row: (row[0], row[1]),
        )  # fmt: skip
        cursor.execute(
            INSERT_ROWS,
            {
                "games": [game_id for game_id, _, _, _ in rows],
                "seqs": [seq for _, seq, _, _ in rows],
                "moves": [move for _, _, move, _ in rows],
            },
        )
        written = {(game_id, seq) for game_id, seq in cursor.fetchall()}
        moved = self._moved_seatings(cursor, actions)
        errors: dict[int, Exception] = {}  # by the action's place in ``pending``
        refused: dict[str, Exception] = {}  # a game's later actions follow its refused one
        for n, one in enumerate(actions):
            seqs = range(one.first_seq, one.first_seq + len(one.moves))
            if one.game_id not in refused:
                if any((one.game_id, s) not in written for s in seqs):
                    refused[one.game_id] = StaleMoves(one.game_id, one.first_seq)
                elif (one.seating_from or one.holder) and one.game_id in moved:
                    refused[one.game_id] = moved[one.game_id](one.game_id, one.first_seq)
            if one.game_id in refused:
                errors[n] = refused[one.game_id]
        undone = {id(one) for n, one in enumerate(actions) if n in errors}
        ours = [(g, s) for g, s, _, one in rows if id(one) in undone and (g, s) in written]
        if ours:  # the refused actions' moves written before their number was found taken
            cursor.execute(
                DELETE_ROWS, {"games": [g for g, _ in ours], "seqs": [s for _, s in ours]}
            )
        stored = [one for n, one in enumerate(actions) if n not in errors]
        if self._notify is not None and stored:
            payloads = [
                notice(self.origin, one.game_id, one.first_seq + len(one.moves), one.moves,
                       one.seating)
                for one in stored
            ]  # fmt: skip
            cursor.execute(NOTIFY_ALL, {"channel": CHANNEL, "payloads": payloads})
        changes: dict[str, tuple[int | None, str | None]] = {}  # a game's last turn, clock
        for one in stored:
            turns, seating = changes.get(one.game_id, (None, None))
            turns = one.turns if one.turns is not None else turns
            seating = one.seating if one.seating is not None else seating
            if turns is not None or seating is not None:
                changes[one.game_id] = (turns, seating)
        if changes:
            now, ids = time.time(), sorted(changes)
            cursor.execute(
                UPDATE_GAMES,
                {
                    "ids": ids,
                    "turns": [changes[game_id][0] for game_id in ids],
                    "updated": [None if changes[game_id][0] is None else now for game_id in ids],
                    "seatings": [changes[game_id][1] for game_id in ids],
                },
            )
        return [errors.get(n) for n in range(len(pending))]

    @staticmethod
    def _moved_seatings(cursor: Any, actions: list[GameMoves]) -> dict[str, type[StaleMoves]]:
        """The games whose stored seating another process changed since an action's seating
        was worked out from it (see :attr:`GameMoves.seating_from`: :class:`StaleSeating`),
        or whose mover's seat it moved to another device (:class:`StaleHolder`). The rows of
        every game the pass will update are locked here, in the order of their ids
        (``UPDATE_GAMES`` then holds them: each transaction takes its locks in one order, no
        deadlock)."""
        checked: dict[str, GameMoves] = {}
        for one in actions:  # a game's first (a change waits for the one before: one a pass)
            if one.seating_from is not None or one.holder is not None:
                checked.setdefault(one.game_id, one)
        if not checked:
            return {}
        updated = {one.game_id for one in actions if one.turns is not None or one.seating}
        updated |= checked.keys()
        cursor.execute(SEATINGS, {"ids": sorted(updated)})
        seatings: dict[str, str | None] = {}
        secrets: dict[tuple[str, int], str | None] = {}
        for game_id, seating, seat, secret in cursor.fetchall():
            seatings[game_id] = seating
            secrets[game_id, seat] = secret
        moved: dict[str, type[StaleMoves]] = {}
        for game_id, one in checked.items():  # the holder first, as :meth:`write` does
            if one.holder is not None and secrets.get((game_id, one.holder[0])) != one.holder[1]:
                moved[game_id] = StaleHolder
            elif one.seating_from is not None and not one.seating_from(seatings[game_id]):
                moved[game_id] = StaleSeating
        return moved

    @staticmethod
    def _each(
        pending: list[PendingMoves],
        store: Callable[[PendingMoves], None],
        refusal: type[Exception],
    ) -> list[Exception | None]:
        """Each action's ``refusal`` storing it (``None``: stored; any other error ends them
        all); once a game's moves failed, its later ones fail too, unwritten (they follow
        the ones refused)."""
        errors: list[Exception | None] = []
        failed: dict[str, Exception] = {}
        for one in pending:
            error = failed.get(one.action.game_id)
            if error is None:
                try:
                    store(one)
                except refusal as refused:
                    error = failed[one.action.game_id] = refused
            errors.append(error)
        return errors


#: PostgreSQL's statements for a whole pass (:meth:`MoveWrites._in_few_statements`), each
#: taking its rows as arrays, so one text serves any number of actions (and is prepared once).
#: The games' rows are locked in the order of their ids (``locked``), as the moves are written.
INSERT_ROWS = """INSERT INTO moves (game_id, seq, move)
SELECT * FROM unnest(%(games)s::varchar[], %(seqs)s::int[], %(moves)s::varchar[])
ON CONFLICT DO NOTHING RETURNING game_id, seq"""
DELETE_ROWS = """DELETE FROM moves USING unnest(%(games)s::varchar[], %(seqs)s::int[]) AS r(g, s)
WHERE moves.game_id = r.g AND moves.seq = r.s"""
NOTIFY_ALL = """SELECT pg_notify(%(channel)s, p.payload)
FROM unnest(%(payloads)s::text[]) WITH ORDINALITY AS p(payload, n) ORDER BY p.n"""
SEATINGS = """SELECT g.id, g.seating, s.seat, s.token FROM games g
LEFT JOIN seats s ON s.game_id = g.id WHERE g.id = ANY(%(ids)s::varchar[])
ORDER BY g.id FOR NO KEY UPDATE OF g"""
UPDATE_GAMES = """WITH locked AS (
  SELECT id FROM games WHERE id = ANY(%(ids)s::varchar[]) ORDER BY id FOR NO KEY UPDATE)
UPDATE games SET turns = COALESCE(v.turns, games.turns),
updated = COALESCE(v.updated, games.updated), seating = COALESCE(v.seating, games.seating)
FROM unnest(%(ids)s::varchar[], %(turns)s::int[], %(updated)s::float8[], %(seatings)s::text[])
AS v(id, turns, updated, seating) JOIN locked ON locked.id = v.id WHERE games.id = v.id"""
