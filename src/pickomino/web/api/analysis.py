"""A game's review for the browser's Analysis view: ``GET /api/games/{id}/analysis`` for a
finished game here, ``POST /api/analysis`` for a record sent as the body (with its seats and
replay frames).

The review is :func:`pickomino.analysis.review` as data (no words: the page says them): every
player's chance of winning after every move (``chances``, with the ``turns`` they belong to),
each decision with its choices, cost and label, and each player's account (accuracy, labels,
skill, luck, the others' play, drift) with its ``verdict``: ``luck`` when the dice moved the
player's chance at least twice as much as the decisions at the table (the player's own and
the others', each counted by its size) and the drift together, ``skill`` in the opposite
case, else ``both``.
Each decision also says where it was made: the dice ``kept`` before it, their ``total`` and,
for a keep, the ``roll`` (dice as in a record: ``"35WW"``), and its ``position`` as text;
``thresholds`` gives where each label past "good" starts at this game's table size, whose
``weight`` says how much a point counts there (N/2 at a table of N:
:func:`pickomino.analysis.weight`; :class:`pickomino.analysis.decisions.Threshold`:
``{"cost", "share", "least"}``). Chances
and costs are 0..1, rounded to 4 places.

Only a game that is over has a review (409 ``game_not_over`` before, ``game_abandoned`` for one
nobody will finish). A review takes 0.3–9 s of one core: it is computed in a process of its
own (the event loop and the bots keep theirs; it ends after :data:`IDLE` seconds without a
review, or after a review that grew it past :data:`MEMORY_CEILING`; one that takes over
:data:`REVIEW_SECONDS` is stopped, 409 ``review_too_long``), one at a time, and kept
in memory for the last :data:`KEPT` games (a finished game's
review never changes); concurrent requests for one game share one computation. The reviews
waiting are served fairly between addresses, by their work (players × moves): a burst of
long reviews from one address does not hold back another's short one. At most
:data:`WAITING` reviews wait in all and :data:`PER_ADDRESS` from one address (the last
quarter of the places only from sites with none waiting, so that one IPv6 /48 cannot hold
them all); beyond, 429 ``analysis_queue_full`` with the seconds to wait (also in
``Retry-After``). A client address
may have ``per_minute`` reviews computed (those already kept are free), then gets 429
``too_many_analyses``. Records sent as the body (not games of this server) may fill at most
:data:`SENT_WAITING` of those places, one from each address: an audit's eight addresses kept
forged seven-player records waiting and the players of this server's games were refused 18
times in 21 asking for theirs. The server's own reviews (asked with no address: a game with results,
as it ends, see :class:`pickomino.web.lifespan.ResultReviews`) wait in the same fair queue as
one asker of their own, beyond those limits, and are not counted among the :data:`WAITING`.
"""

from __future__ import annotations

import asyncio
import hashlib
import heapq
import itertools
import json
import logging
import math
import multiprocessing
import time
from collections import OrderedDict, deque
from collections.abc import Awaitable, Callable
from concurrent.futures import Executor, ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from typing import Any, cast

import orjson
from fastapi import APIRouter, Depends, HTTPException, Request, Response
from fastapi.exceptions import RequestValidationError
from pydantic import TypeAdapter, ValidationError

from pickomino.core import Game, GameRecord, RecordError
from pickomino.table.view import replay_frames
from pickomino.web.addresses import Shares, site_of
from pickomino.web.api.review_work import Review, end_with_the_server, reviewed_here
from pickomino.web.errors import Refused, refusal, refused
from pickomino.web.forms import RecordName, client_address
from pickomino.web.game.room import Room
from pickomino.web.protocol import RateLimits

log = logging.getLogger("pickomino.web")

#: How many reviews the server keeps in memory (about 0.2–0.5 MB each).
KEPT = 32
#: How many reviews may wait (or be under way) at once, from everyone, and from one address;
#: the last quarter of the places are for sites with none waiting (an IPv6 /48's eight /64s,
#: three each, would have held every place).
WAITING, PER_ADDRESS = 24, 3
#: Of them, how many may be records sent as the body, in all and from one address: the others
#: are kept for the reviews of this server's games (each had to be played here).
SENT_WAITING, SENT_PER_ADDRESS = 12, 1
#: How many of the last games reviewed ``Reviews.computed`` names (what the cache missed).
NAMED = 100
#: Seconds without a review after which the review process ends (its tables' memory back).
IDLE = 600.0
#: Bytes a review process may have held and go on: past them it ends after its review (the
#: next starts afresh). Its searches' caches keep what a review grew them to: an audit's
#: forged seven-player record under other rules left it at 442 MB for as long as reviews
#: kept coming (a real one of 1,788 moves peaks at 222 MB, a two-player game at 90 MB).
MEMORY_CEILING = 256 * 2**20
#: Seconds a review may take: past them its process is stopped (the next review starts
#: another) and the game refused, 409 ``review_too_long``, at once when asked again. The
#: longest real review measured, seven players and 1,788 moves under other rules, takes 5.5
#: s, an audit's forged record 17–29 s; a game stretched to the turn limit under other rules
#: would have held every other review for minutes.
REVIEW_SECONDS = 120.0
#: A first guess of a review's seconds per unit of work (players × moves), until measured;
#: and the yardstick of what a review took beyond its size (:meth:`FairQueue.charge`).
SECONDS_PER_WORK = 1e-3
#: The fair queue's name for the server's own reviews; askers' addresses are named apart.
OWN = "own"
#: The start of the key of a review of a record sent as the body (not a game of this server).
RECORD_KEY = "record:"
#: How many answers to records sent as the body are kept encoded (a 16 KB body's, the most
#: a request may send, is up to a megabyte or so: 0.7 MB for 1,414 moves of 7): an audit
#: sending one reviewed record again and again from ten addresses held the event loop 21 ms
#: a time (replaying it, making its frames, FastAPI encoding them), another player's ping p99
#: 164–368 ms.
ANSWERS_KEPT = 8


def work(record: GameRecord) -> int:
    """A review's work, in proportion to its time: every move values every player's chance."""
    return len(record.seats) * max(1, len(record.moves))


def still_to_run(expected: float, elapsed: float) -> float:
    """Seconds a review under way should still take: what its size said it would, less what
    it ran; one that ran past that (a forged record can take 6.5 times its size's time) as
    long again as it ran, at a guess (an audit was told 1 s while 28 s were left).

    >>> still_to_run(expected=10.0, elapsed=4.0), still_to_run(expected=2.0, elapsed=6.0)
    (6.0, 6.0)
    """
    return expected - elapsed if elapsed < expected else elapsed


def _asker(address: str | None) -> str:
    """The fair queue's name for an asker: its address, or the server's own reviews."""
    return OWN if address is None else f"address {address}"


def review_process() -> ProcessPoolExecutor:
    """One process of its own for the reviews, so that their computing never holds the event
    loop (a thread would share the interpreter's lock with it). Spawned, not forked: the
    server has threads."""
    spawn = multiprocessing.get_context("spawn")
    return ProcessPoolExecutor(1, spawn, initializer=end_with_the_server)


class FairQueue:
    """Jobs from many addresses, taken one at a time so that each address waiting gets an
    equal share of the work done (start-time fair queueing): a job's place is its address's
    work asked for so far, counted from the work done when it began to wait. A long burst
    from one address thus takes turns with a short job that arrives after it."""

    def __init__(self) -> None:
        self.jobs: list[tuple[float, int, float, object]] = []  # (finish, arrival, work, job)
        self.finish: dict[str, float] = {}  # each address's queued work ends here
        self.now = 0.0  # where the job being done started
        self.work = 0.0  # the work waiting
        self._arrivals = itertools.count()

    def __len__(self) -> int:
        return len(self.jobs)

    def put(self, address: str, work: float, job: object) -> None:
        start = max(self.now, self.finish.get(address, 0.0))
        self.finish[address] = start + work
        heapq.heappush(self.jobs, (start + work, next(self._arrivals), work, job))
        self.work += work

    def take(self) -> object:
        """The next job (there must be one)."""
        finish, _, work, job = heapq.heappop(self.jobs)
        self.now, self.work = finish - work, self.work - work
        self.finish = {a: end for a, end in self.finish.items() if end > self.now}
        return job

    def charge(self, address: str, extra: float) -> None:
        """A job of ``address`` took ``extra`` more work than it was put with (measured once
        done): its next jobs start that much later, so a record forged to cost more than its
        size says takes no more than its share. (Less than put with is not given back.)"""
        if extra > 0:
            self.finish[address] = max(self.now, self.finish.get(address, 0.0)) + extra


class Reviews:
    """The reviews of the last :data:`KEPT` games asked for, computed one at a time in
    ``worker`` (by default a process of their own, started when first needed), the waiting
    ones in a :class:`FairQueue`; their own process ends after ``idle`` seconds without a
    review. ``on_reviewed(game_id, review)`` is called with each new review before its askers
    have it. ``computed`` lists the last games reviewed, in order."""

    def __init__(
        self,
        per_minute: float,
        kept: int = KEPT,
        waiting: int = WAITING,
        per_address: int = PER_ADDRESS,
        worker: Executor | None = None,
        idle: float = IDLE,
        on_reviewed: Callable[[str, Review], object] | None = None,
        memory_ceiling: int = MEMORY_CEILING,
        review_seconds: float = REVIEW_SECONDS,
    ) -> None:
        self.kept, self.waiting, self.per_address = kept, waiting, per_address
        self.idle, self.on_reviewed = idle, on_reviewed
        self.memory_ceiling, self.review_seconds = memory_ceiling, review_seconds
        self.too_long: deque[str] = deque(maxlen=NAMED)  # the games refused as too long
        self.done: OrderedDict[str, Review] = OrderedDict()
        self.encoded: dict[str, bytes] = {}  # those of :attr:`done` asked for over HTTP
        self.pending: dict[str, asyncio.Future[Review]] = {}
        self.asking = Shares()  # reviews waiting or under way, per address and site
        self.sending = Shares()  # of them, records sent as the body
        self.own = 0  # the server's own reviews waiting or under way
        self.queue = FairQueue()
        self.computed: deque[str] = deque(maxlen=NAMED)
        self.limits = RateLimits.per_minute(per_minute)
        self.seconds_per_work = SECONDS_PER_WORK
        self._worker, self._own_worker = worker, worker is None
        self._serving: asyncio.Task[None] | None = None
        self._running: tuple[float, int] | None = None  # the review under way: started, work
        self._idle: asyncio.TimerHandle | None = None

    async def get(self, game_id: str, record: GameRecord, address: str | None) -> Review:
        """The review of the finished game ``game_id`` (its ``record``), for ``address``
        (``None``: the server's own, beyond the limits)."""
        made = self.made(game_id)
        if made is not None:
            return made
        if game_id in self.too_long:
            raise self._too_long()
        future = self.pending.get(game_id)
        if future is None:  # else asked for already: share the computation
            future = self._enqueue(game_id, record, address)
        return await asyncio.shield(future)  # an asker who leaves does not stop it

    def made(self, game_id: str) -> Review | None:
        """The review of ``game_id`` if made already (kept the longest from now on)."""
        data = self.done.get(game_id)
        if data is not None:
            self.done.move_to_end(game_id)
        return data

    def made_encoded(self, game_id: str) -> bytes | None:
        """:meth:`made`, as JSON encoded once (a long game's review is a megabyte: encoding
        it again at each look held the event loop for milliseconds)."""
        data = self.made(game_id)
        if data is None:
            return None
        encoded = self.encoded.get(game_id)
        if encoded is None:
            encoded = self.encoded[game_id] = orjson.dumps(data)
        return encoded

    def close(self) -> None:
        """Stop serving; the process (if the reviews' own) ends after its current review."""
        for future in self.pending.values():
            future.cancel()
        if self._serving is not None:
            self._serving.cancel()
        if self._idle is not None:
            self._idle.cancel()
        if self._own_worker and self._worker is not None:
            self._worker.shutdown(wait=False, cancel_futures=True)
            self._worker = None

    def _enqueue(
        self, game_id: str, record: GameRecord, address: str | None
    ) -> asyncio.Future[Review]:
        if address is not None:
            others = len(self.pending) - self.own
            # the last quarter of the places: for sites with no review waiting
            kept_for_others = others >= self.waiting - self.waiting // 4 and bool(
                self.asking[site_of(address)]
            )
            if (
                others >= self.waiting
                or kept_for_others
                or self.asking.full(address, self.per_address)
            ):
                raise self._queue_full()
            if game_id.startswith(RECORD_KEY) and (
                self.sending.total() >= SENT_WAITING or self.sending.full(address, SENT_PER_ADDRESS)
            ):
                raise self._queue_full()
            if not self.limits.allow(address):
                raise refused(429, "too_many_analyses")
        future = self.pending[game_id] = asyncio.get_running_loop().create_future()
        if self._idle is not None:
            self._idle.cancel()
        if address is None:
            self.own += 1
        else:
            self.asking.take(address)
            if game_id.startswith(RECORD_KEY):
                self.sending.take(address)
        self.queue.put(_asker(address), work(record), (game_id, record, address))
        if self._serving is None or self._serving.done():
            self._serving = asyncio.create_task(self._serve())
        return future

    def _queue_full(self) -> HTTPException:
        """429 with the seconds the reviews waiting now and the one under way should take
        (measured ones' pace)."""
        waiting = self.queue.work * self.seconds_per_work
        if self._running is not None:
            started, running = self._running
            expected = running * self.seconds_per_work
            waiting += still_to_run(expected, time.perf_counter() - started)
        seconds = max(1, math.ceil(waiting))
        error = Refused("analysis_queue_full", seconds=seconds)
        return HTTPException(429, error.to_dict(), {"Retry-After": str(seconds)})

    async def _serve(self) -> None:
        """Review the waiting games, the fairest next first, until none waits."""
        while self.queue:
            taken = cast(tuple[str, GameRecord, str | None], self.queue.take())
            game_id, record, address = taken
            future, started = self.pending[game_id], time.perf_counter()
            self._running = started, work(record)
            warm = self._worker is not None or not self._own_worker  # no process to start
            try:
                data = await self._review(game_id, record)
            except Exception as error:  # the askers get it (the app answers 500)
                future.set_exception(error)
            else:
                seconds = time.perf_counter() - started
                if warm:  # a fixed yardstick: one the same reviews move would forgive them
                    self.queue.charge(_asker(address), seconds / SECONDS_PER_WORK - work(record))
                self._learn(work(record), seconds)
                await self._note(game_id, data)  # before anyone has it, from here or the cache
                self._keep(game_id, data)
                future.set_result(data)
            finally:
                self._running = None
                del self.pending[game_id]
                if address is None:
                    self.own -= 1
                else:
                    self.asking.give_back(address)
                    if game_id.startswith(RECORD_KEY):
                        self.sending.give_back(address)
        if self._own_worker:
            self._idle = asyncio.get_running_loop().call_later(self.idle, self._end_process)

    async def _note(self, game_id: str, data: Review) -> None:
        """``on_reviewed`` (in a thread), before the askers have the review: once they do,
        whatever it keeps is kept. Its failure is logged (the review still stands)."""
        if self.on_reviewed is not None and not game_id.startswith(RECORD_KEY):
            try:
                await asyncio.to_thread(self.on_reviewed, game_id, data)
            except Exception:
                log.exception("could not keep the review of game %s", game_id)

    async def _review(self, game_id: str, record: GameRecord) -> Review:
        """``record``'s review from the review process; one that died (killed, out of memory)
        is replaced, once: a record that kills it again fails. One that has held more than
        :attr:`memory_ceiling` ends after it (the next review starts another)."""
        try:
            data, peak = await self._in_process(game_id, record)
        except BrokenProcessPool:
            if not self._own_worker:
                raise
            self._worker = None
            data, peak = await self._in_process(game_id, record)
        if peak > self.memory_ceiling:
            self._end_process()
        return data

    async def _in_process(self, game_id: str, record: GameRecord) -> tuple[Review, int]:
        """The review and the process's peak memory, within :attr:`review_seconds`: past
        them the process is stopped and the game refused as too long (now and from then on)."""
        reviewing = asyncio.get_running_loop().run_in_executor(
            self._process(), reviewed_here, record
        )
        try:
            return await asyncio.wait_for(reviewing, self.review_seconds)
        except TimeoutError:
            log.warning("the review of %s took over %s s: stopped", game_id, self.review_seconds)
            self._end_process(kill=True)
            self.too_long.append(game_id)
            raise self._too_long() from None

    def _too_long(self) -> HTTPException:
        return refused(409, "review_too_long", seconds=round(self.review_seconds))

    def _end_process(self, kill: bool = False) -> None:
        """End the reviews' own process (idle for a while, or grown past its ceiling; the next
        review starts one), or ``kill`` it in the middle of a review: the standard library
        stops a worker's task only from Python 3.14 on (``kill_workers``), so its processes
        are killed by hand. A worker not its own is left alone (it finishes, unheard)."""
        worker = self._worker
        if worker is None or not self._own_worker:
            return
        self._worker = None
        if kill:
            for process in list(getattr(worker, "_processes", {}).values()):
                process.kill()
        worker.shutdown(wait=False, cancel_futures=kill)

    def _process(self) -> Executor:
        if self._worker is None:
            self._worker = review_process()
        return self._worker

    def _learn(self, work: int, seconds: float) -> None:
        """Follow the measured seconds per unit of work (for ``Retry-After``)."""
        self.seconds_per_work = (self.seconds_per_work + seconds / work) / 2

    def _keep(self, game_id: str, data: Review) -> None:
        self.computed.append(game_id)
        self.done[game_id] = data
        while len(self.done) > self.kept:
            forgotten, _ = self.done.popitem(last=False)
            self.encoded.pop(forgotten, None)


class SentAnswers:
    """The encoded answers to the last :data:`ANSWERS_KEPT` records sent as the body, by
    the record's key (the same game written otherwise: replayed, in a worker thread, but
    neither framed nor encoded again), and which record each of the last bodies sent was (the
    same file sent again: nothing replayed).

    >>> kept = SentAnswers(kept=2)
    >>> kept.keep("record:a", b"A", "sent:1"); kept.keep("record:b", b"B", "sent:2")
    >>> kept.keep("record:a", b"A", "sent:3")  # the same record, written otherwise
    >>> kept.sent("sent:1"), kept.sent("sent:3"), kept.sent("sent:2")
    (b'A', b'A', b'B')
    >>> kept.keep("record:c", b"C", "sent:4")  # a third: the answer asked for longest ago goes
    >>> kept.sent("sent:1"), kept.sent("sent:2"), kept.sent("sent:4"), len(kept.answers)
    (None, b'B', b'C', 2)
    """

    def __init__(self, kept: int = ANSWERS_KEPT) -> None:
        self.kept = kept
        self.answers: OrderedDict[str, bytes] = OrderedDict()  # by record, the last asked last
        self.bodies: OrderedDict[str, str] = OrderedDict()  # a body's record key

    def sent(self, body: str) -> bytes | None:
        """The answer kept to the body whose key is ``body``."""
        record = self.bodies.get(body)
        return None if record is None else self.get(record)

    def get(self, record: str) -> bytes | None:
        """The answer kept to the record whose key is ``record``."""
        answer = self.answers.get(record)
        if answer is not None:
            self.answers.move_to_end(record)
        return answer

    def keep(self, record: str, answer: bytes, body: str) -> None:
        """Keep ``answer`` to the record ``record``, sent as the body ``body``."""
        self.answers[record] = answer
        self.answers.move_to_end(record)
        while len(self.answers) > self.kept:
            self.answers.popitem(last=False)
        self.bodies[body] = record
        self.bodies.move_to_end(body)
        while len(self.bodies) > 4 * self.kept:  # names only: those of answers gone ask again
            self.bodies.popitem(last=False)


def replayed(body: dict[str, Any]) -> tuple[GameRecord, str]:
    """The record sent (its ``meta`` ignored), replayed, and its review's key: one for every
    way of writing the same record. Raises :class:`RecordError`."""
    record = Game.from_record(GameRecord.from_dict({**body, "meta": {}})).record
    text = json.dumps(record.to_dict(), sort_keys=True).encode()
    return record, RECORD_KEY + hashlib.sha256(text).hexdigest()


def answer_to(record: GameRecord, data: Review) -> bytes:
    """What ``POST /api/analysis`` answers for ``record``, encoded (by orjson: FastAPI's own
    encoding of a long game's frames took tens of milliseconds)."""
    return orjson.dumps({"seats": record.seats, "frames": replay_frames(record), "review": data})


RECORD_NAMES = TypeAdapter(list[RecordName])

#: A finished game's review never changes (until the server's evaluator does): a browser
#: looking again asks nothing.
KEEP_AN_HOUR = {"Cache-Control": "private, max-age=3600"}


def analysis_router(
    room_of: Callable[[str, Request], Awaitable[Room]],
    reviews: Reviews,
    limit: Callable[[Request], None],
    limit_kept: Callable[[Request], None],
) -> APIRouter:
    """The routes; ``await room_of(id, request)`` is the game (or the app's 404 or 500 refusal, or
    429 when it must be read from the store too often); ``limit`` counts every record sent
    (each is replayed whole before anything else); ``limit_kept`` every review answered as
    kept (an audit pulled a kept 436 KB review 438 times a second from one address: 1.5
    Gbit/s of the server's link)."""
    router = APIRouter()
    sent_answers = SentAnswers()

    @router.get("/api/games/{game_id}/analysis")
    async def analysis(game_id: str, request: Request) -> Response:
        """The review of a finished game: chances per move, decisions, players' accounts
        (encoded by orjson: a long game's review is a megabyte, asked for by every player
        at the end, and FastAPI's own encoding of it took tens of milliseconds)."""
        made = reviews.made_encoded(game_id)  # only ever of a finished game: no look-up
        if made is not None:
            limit_kept(request)
            return Response(made, media_type="application/json", headers=KEEP_AN_HOUR)
        room = await room_of(game_id, request)
        if room.status == "abandoned":
            raise refused(409, "game_abandoned")
        if not room.game.state.is_over:
            raise refused(409, "game_not_over")
        record = GameRecord.from_dict(room.game.record.to_dict())  # the worker's own copy
        data = await reviews.get(game_id, record, client_address(request.client))
        encoded = reviews.made_encoded(game_id) or orjson.dumps(data)  # kept, unless forgotten
        return Response(encoded, media_type="application/json", headers=KEEP_AN_HOUR)

    @router.post("/api/analysis", dependencies=[Depends(limit)])
    async def analyse_record(body: dict[str, Any], request: Request) -> Response:
        """A record sent as the body (one made on the command line, say; finished or not,
        its ``meta`` ignored): its seats, its replay frames and its review, computed in the
        same queue as every game's; replayed and encoded in a worker thread, the answer kept
        (:class:`SentAnswers`)."""
        sent = "sent:" + hashlib.sha256(await request.body()).hexdigest()
        answer = sent_answers.sent(sent)
        if answer is None:
            answer = await answer_anew(body, request, sent)
        return Response(answer, media_type="application/json")

    async def answer_anew(body: dict[str, Any], request: Request, sent: str) -> bytes:
        """The answer to a body not sent lately: its names checked, replayed, reviewed (or
        the review of the same record, kept), then encoded."""
        seats = body.get("seats")
        if isinstance(seats, list) and all(isinstance(name, str) for name in seats):
            try:  # the page shows them: nothing invisible (a file may hold anything); first,
                RECORD_NAMES.validate_python(seats)  # so that the form can mark the name
            except ValidationError as invalid:
                where = [
                    {**error, "loc": ("body", "seats", *error["loc"])} for error in invalid.errors()
                ]
                raise RequestValidationError(where) from None
        try:
            record, key = await asyncio.to_thread(replayed, body)
        except RecordError as error:
            raise refusal(400, error) from None
        answer = sent_answers.get(key)
        if answer is None:
            data = await reviews.get(key, record, client_address(request.client))
            answer = await asyncio.to_thread(answer_to, record, data)
        sent_answers.keep(key, answer, sent)
        return answer

    return router
