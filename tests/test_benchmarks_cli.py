"""Benchmarks' command lines that no other test file covers: bad arguments and paths are
refused with one line (exit 2) before any work."""

import subprocess
import sys
from pathlib import Path

import pytest

BENCHMARKS = Path(__file__).resolve().parents[1] / "benchmarks"


@pytest.mark.parametrize(
    ("where", "message"),
    [
        ("{tmp}", "--profile: {tmp} is a folder"),
        ("{tmp}/no/stacks.txt", "--profile: {tmp}/no is not a folder"),
        pytest.param(
            "/sys/stacks.txt",
            "--profile: /sys/stacks.txt cannot be written",
            marks=pytest.mark.skipif(not Path("/sys").is_dir(), reason="no /sys to write in"),
        ),
    ],
)
def test_the_load_benchmark_refuses_a_profile_it_cannot_write_before_any_load(
    tmp_path, where, message
):
    """``web_load.py --profile OUT``: tried before the server starts, not read after the run
    (a folder, a missing one, a read-only place, where no one may write, root neither)."""
    done = subprocess.run(
        [sys.executable, str(BENCHMARKS / "web_load.py"), "--games", "1", "--seconds", "1",
         "--profile", where.format(tmp=tmp_path)],
        capture_output=True, text=True, timeout=120,
    )  # fmt: skip
    assert done.returncode == 2 and message.format(tmp=tmp_path) in done.stderr, done.stderr
    assert "Traceback" not in done.stderr and not done.stdout
    assert list(tmp_path.iterdir()) == []


def test_the_leaderboard_benchmark_runs_small_and_refuses_no_games():
    """``leaderboard.py``: a tiny run times both routes; ``--games 0`` is refused."""
    script = str(BENCHMARKS / "leaderboard.py")
    done = subprocess.run(
        [sys.executable, script, "--games", "60", "--profiles", "6", "--repeats", "1"],
        capture_output=True, text=True, timeout=120,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    assert "60 rated games" in done.stdout and done.stdout.count("faster") == 2
    refused = subprocess.run(
        [sys.executable, script, "--games", "0"], capture_output=True, text=True, timeout=60
    )
    assert refused.returncode == 2 and "--games must be at least 1" in refused.stderr
