"""Where the chunks of a simulation run: in this process, in a pool of local processes, or on
a Dask cluster. All three offer ``submit`` and ``as_completed`` as :mod:`concurrent.futures`
does, so one loop, :func:`map_chunks`, drives them: the tournament and the comparison do not
know which one plays their games.

Why Dask for a cluster: it is pure Python and installed with pip, it is the usual engine for
Python clusters (started by hand with ``dask scheduler`` / ``dask worker``, or on SSH hosts,
Kubernetes or SLURM by its deployers), and it runs again the tasks of a worker that is lost.

>>> with local_engine(jobs=1) as engine:
...     list(map_chunks(abs, [-2, 3, -4], engine))
[2, 3, 4]
"""

from __future__ import annotations

import asyncio
import math
from collections.abc import Callable, Iterable, Iterator, Sequence
from concurrent.futures import ProcessPoolExecutor, as_completed
from contextlib import contextmanager
from typing import Any, Protocol, TypeVar

from pickomino.cores import usable_cores

Item = TypeVar("Item")
Result = TypeVar("Result")

CONNECT_TIMEOUT = 10.0  # seconds to reach a scheduler, and then to see a worker
MAX_CHUNK = 100  # games a task at most: progress and the last chunks' balance stay fine


class Future(Protocol):
    def result(self) -> Any: ...


class Engine(Protocol):
    """What runs chunks: ``workers`` at a time."""

    workers: int

    def submit(self, function: Callable[[Any], Any], item: Any) -> Future: ...

    def as_completed(self, futures: Sequence[Future]) -> Iterable[Future]: ...


class ClusterUnreachable(Exception):
    """No scheduler answers at ``address``: malformed, refused or too slow (``why``)."""

    def __init__(self, address: str, why: str) -> None:
        super().__init__(f"no Dask scheduler at {address}: {why}")
        self.address, self.why = address, why


class ClusterHasNoWorkers(Exception):
    """The scheduler answers but no worker joined it within the timeout."""

    def __init__(self, address: str) -> None:
        super().__init__(f"the Dask scheduler at {address} has no worker")
        self.address = address


class _Deferred:
    """A chunk of the in-process engine: played when its result is asked for, so a progress
    bar moves chunk by chunk as with the other engines."""

    def __init__(self, function: Callable[[Any], Any], item: Any) -> None:
        self.function, self.item = function, item

    def result(self) -> Any:
        return self.function(self.item)


class InProcess:
    """This process alone (one job): no pickling, no process to start."""

    workers = 1

    def submit(self, function: Callable[[Any], Any], item: Any) -> Future:
        return _Deferred(function, item)

    def as_completed(self, futures: Sequence[Future]) -> Iterable[Future]:
        return futures


class ProcessPool:
    """``jobs`` processes of this machine."""

    def __init__(self, pool: ProcessPoolExecutor, jobs: int) -> None:
        self.pool, self.workers = pool, jobs

    def submit(self, function: Callable[[Any], Any], item: Any) -> Future:
        return self.pool.submit(function, item)

    def as_completed(self, futures: Sequence[Future]) -> Iterable[Future]:
        return as_completed(futures)  # type: ignore[arg-type]


class DaskCluster:
    """The workers of a Dask cluster, through a connected ``distributed.Client``."""

    def __init__(self, client: Any) -> None:
        self.client = client
        self.workers = sum(client.nthreads().values())  # at the start: sizes the chunks

    def submit(self, function: Callable[[Any], Any], item: Any) -> Future:
        # pure=False: every chunk is its own task, never merged with an equal-looking one
        return self.client.submit(function, item, pure=False)

    def as_completed(self, futures: Sequence[Future]) -> Iterable[Future]:
        from distributed import as_completed as completed

        return completed(futures, loop=self.client.loop)


@contextmanager
def local_engine(jobs: int) -> Iterator[Engine]:
    """This process for one job, else a pool of ``jobs`` processes (shut down on leaving),
    at most one for each core this process may use: more would only wait for the cores (an
    audit's ``--jobs 100000`` started 1,400 processes for two games, and never ended)."""
    jobs = min(jobs, usable_cores())
    if jobs <= 1:
        yield InProcess()
        return
    with ProcessPoolExecutor(max_workers=jobs) as pool:
        try:
            yield ProcessPool(pool, jobs)
        finally:
            pool.shutdown(cancel_futures=True)


@contextmanager
def given_or_local(engine: Engine | None, jobs: int) -> Iterator[Engine]:
    """``engine`` as it is (its owner closes it), else ``jobs`` local processes."""
    if engine is not None:
        yield engine
        return
    with local_engine(jobs) as local:
        yield local


@contextmanager
def cluster_engine(address: str, timeout: float = CONNECT_TIMEOUT) -> Iterator[DaskCluster]:
    """The Dask cluster whose scheduler is at ``address`` (``tcp://host:8786``), checked
    before any work: :class:`ClusterUnreachable` if no scheduler answers within ``timeout``
    seconds, :class:`ClusterHasNoWorkers` if no worker joins it within as long."""
    from distributed import Client

    _probe(address, timeout)
    try:
        client = Client(address, timeout=timeout, set_as_default=False)
    except (OSError, ValueError) as error:  # gone between the probe and now
        raise ClusterUnreachable(address, str(error)) from None
    try:
        try:
            client.wait_for_workers(1, timeout=timeout)
        except TimeoutError:
            raise ClusterHasNoWorkers(address) from None
        yield DaskCluster(client)
    finally:
        client.close()


def _probe(address: str, timeout: float) -> None:
    """Open and close one connection to the scheduler. A ``Client`` that fails to connect
    takes as long again to tear itself down, with a traceback on standard error; this fails
    cleanly, at once for a malformed address."""
    from distributed.comm import connect
    from distributed.security import Security

    async def knock() -> None:
        args = Security().get_connection_args("client")
        comm = await connect(address, timeout=timeout, **args)
        await comm.close()

    try:
        asyncio.run(knock())
    except (OSError, ValueError, TypeError) as error:
        raise ClusterUnreachable(address, str(error)) from None


def game_ranges(games: int, workers: int, chunk: int | None = None) -> list[range]:
    """Games ``0 … games-1`` cut into chunks of ``chunk`` games, by default about eight a
    worker (the slowest last chunk then leaves the others idle briefly) of at most
    :data:`MAX_CHUNK`: each task costs a few milliseconds (pickling, and on a cluster a
    round trip), which a chunk shares out.

    >>> game_ranges(10, workers=1, chunk=4)
    [range(0, 4), range(4, 8), range(8, 10)]
    """
    size = chunk or max(1, min(MAX_CHUNK, math.ceil(games / (8 * max(1, workers)))))
    return [range(start, min(start + size, games)) for start in range(0, games, size)]


def map_chunks(
    function: Callable[[Item], Result],
    items: Sequence[Item],
    engine: Engine,
    done: Callable[[Result], None] | None = None,
) -> Iterator[Result]:
    """``function`` over ``items`` on ``engine``: the results in the order of ``items``
    whatever order they finish in (sums over them are then the same to the last bit with
    any engine), and ``done`` told of each one as soon as it finishes (a progress bar).

    Results are keyed by the item's index and a second result for one index is dropped: a
    chunk is counted once even if an engine delivers it twice (Dask runs again the chunks
    of a lost worker; their first run never reports). A result taken is let go at once,
    so that Dask does not play it again when the worker that holds it is lost."""
    index_of = {engine.submit(function, item): index for index, item in enumerate(items)}
    finished: dict[int, Result] = {}
    next_index = 0
    for future in engine.as_completed(list(index_of)):
        index = index_of.pop(future, None)
        if index is None:
            continue
        finished[index] = future.result()
        del future  # the last reference to it: see above
        if done:
            done(finished[index])
        while next_index in finished:
            yield finished.pop(next_index)
            next_index += 1
