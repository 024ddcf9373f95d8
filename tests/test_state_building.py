"""benchmarks/state_building.py: a tiny run and a refusal (the measurement is in
benchmarks/README.md, "Building the state")."""

import re
import subprocess
import sys
from pathlib import Path

SCRIPT = Path(__file__).resolve().parent.parent / "benchmarks" / "state_building.py"


def run(*arguments: str) -> subprocess.CompletedProcess:
    command = [sys.executable, str(SCRIPT), *arguments]
    return subprocess.run(command, capture_output=True, text=True, timeout=120)


def test_the_state_building_benchmark_times_the_state_and_its_table():
    done = run("--actions", "10", "--repeat", "1")
    assert done.returncode == 0, done.stderr
    assert re.search(r"a room after \d+ stored moves", done.stdout), done.stdout
    [row] = re.findall(r"^\s+1\s+([\d.]+) us\s+([\d.]+) us \(.*\)\s+([\d.]+) us", done.stdout, re.M)
    engine, whole, table = map(float, row)
    assert 0 < table < whole and engine > 0  # the table is a part of the whole state


def test_the_state_building_benchmark_refuses_a_negative_count():
    done = run("--actions", "-1")
    assert done.returncode == 2
    assert "--actions must be at least 0 and --repeat at least 1" in done.stderr
