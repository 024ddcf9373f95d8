"""Tournaments and comparisons on a Dask cluster: the same numbers as at home, a lost worker
changes none of them, and an address without a scheduler is refused before any work."""

import json
import os
import signal
import subprocess
import sys
from concurrent.futures import Future

import pytest

from pickomino.sim import compare, run_tournament
from pickomino.sim.engines import (
    ClusterHasNoWorkers,
    ClusterUnreachable,
    InProcess,
    cluster_engine,
    map_chunks,
)

distributed = pytest.importorskip("distributed")

BOTS = ["simple", "expected", "random"]


@pytest.fixture(scope="module")
def cluster():
    """Two worker processes of one thread each, as `dask worker --nworkers 2 --nthreads 1`."""
    with distributed.LocalCluster(
        n_workers=2, processes=True, threads_per_worker=1, dashboard_address=":0"
    ) as local:
        yield local.scheduler_address


def pickomino(*args: str) -> subprocess.CompletedProcess:
    command = [sys.executable, "-m", "pickomino", *args]
    return subprocess.run(command, capture_output=True, text=True, timeout=300)


@pytest.mark.slow  # starts a cluster
def test_a_tournament_and_a_comparison_on_a_cluster_equal_the_local_run(cluster):
    played: list[int] = []
    with cluster_engine(cluster) as engine:
        assert engine.workers == 2
        there = run_tournament(BOTS, 3, 60, seed=5, engine=engine, progress=played.append)
        paired = compare("expected", "simple", "random", 2, 60, seed=5, engine=engine, chunk=7)
    assert sum(played) == 60 and len(played) > 1
    assert there.to_dict() == run_tournament(BOTS, 3, 60, seed=5, jobs=2, chunk=13).to_dict()
    assert paired == compare("expected", "simple", "random", 2, 60, seed=5)
    assert there.to_dict() != run_tournament(BOTS, 3, 60, seed=6).to_dict()


@pytest.mark.slow  # starts a cluster and four commands
def test_the_commands_on_a_cluster_print_what_they_print_locally(cluster):
    tournament = ("tournament", "--bots", "simple,random", "--games", "60", "--seed", "2")
    comparison = ("compare", "simple", "random", "--against", "simple", "--games", "40")
    for args in (tournament, comparison):
        there = pickomino(*args, "--json", "--cluster", cluster)
        here = pickomino(*args, "--json", "--jobs", "2")
        assert there.returncode == 0, there.stderr
        assert json.loads(there.stdout) == json.loads(here.stdout)


@pytest.mark.slow  # starts a cluster and kills a worker
def test_a_worker_lost_mid_run_changes_no_number(cluster):
    """The killed worker's chunk is played again elsewhere (Dask retries it); the chunks it
    had already delivered are not played again, nor counted twice."""
    killed: list[tuple[int, int]] = []
    played: list[int] = []
    with cluster_engine(cluster) as engine:
        pids = sorted(engine.client.run(os.getpid).values())

        def kill_a_worker_after_the_first_chunk(games: int) -> None:
            played.append(games)
            if not killed:
                os.kill(pids[0], signal.SIGKILL)
                killed.append((pids[0], sum(played)))

        there = run_tournament(
            BOTS,
            2,
            240,
            seed=9,
            engine=engine,
            chunk=8,
            progress=kill_a_worker_after_the_first_chunk,
        )
        assert pids[0] not in engine.client.run(os.getpid).values()
    ((_, done_when_killed),) = killed
    assert done_when_killed < 240 and sum(played) == 240
    assert there.to_dict() == run_tournament(BOTS, 2, 240, seed=9, jobs=2).to_dict()


class Twice:
    """An engine that delivers its chunks last first, and every one of them twice."""

    workers = 2

    def submit(self, function, item):
        future: Future = Future()
        future.set_result(function(item))
        return future

    def as_completed(self, futures):
        return [future for future in reversed(futures) for _ in range(2)]


@pytest.mark.parametrize("engine", [Twice(), InProcess()])
def test_chunks_are_taken_once_each_in_their_order(engine):
    told: list[int] = []
    assert list(map_chunks(abs, [-1, 2, -3, 4], engine, told.append)) == [1, 2, 3, 4]
    assert sorted(told) == [1, 2, 3, 4]


def test_an_address_without_a_scheduler_is_refused():
    with (
        pytest.raises(ClusterUnreachable, match="Timed out"),
        cluster_engine("tcp://127.0.0.1:1", timeout=0.5),
    ):
        pytest.fail("connected to nothing")
    with pytest.raises(ClusterUnreachable, match="scheme"), cluster_engine("nonsense://x"):
        pytest.fail("connected to nothing")


@pytest.mark.slow  # starts a scheduler
def test_a_scheduler_without_workers_is_refused():
    with (
        distributed.LocalCluster(n_workers=0, dashboard_address=":0") as empty,
        pytest.raises(ClusterHasNoWorkers),
        cluster_engine(empty.scheduler_address, timeout=0.5),
    ):
        pytest.fail("played on no worker")


def test_a_tournament_refuses_a_bad_address_before_any_work():
    refused = pickomino("tournament", "--bots", "simple", "--cluster", "nonsense://x")
    assert refused.returncode == 2 and refused.stdout == ""
    assert "no Dask scheduler answers at nonsense://x" in refused.stderr


@pytest.mark.slow  # a command per case
def test_a_comparison_refuses_a_bad_address_and_jobs_beside_a_cluster():
    comparison = ("compare", "simple", "random", "--against", "simple")
    refused = pickomino(*comparison, "--cluster", "tcp://127.0.0.1:1")
    assert refused.returncode == 2 and refused.stdout == ""
    assert "no Dask scheduler answers at tcp://127.0.0.1:1" in refused.stderr
    jobs = pickomino("tournament", "--bots", "simple", "--cluster", "x:1", "--jobs", "2")
    assert jobs.returncode == 2 and "--jobs" in jobs.stderr and "--cluster" in jobs.stderr
