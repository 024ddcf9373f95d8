"""benchmarks/startup.py: a tiny run, and a refusal (the measurement is in benchmarks/README.md)."""

import subprocess
import sys
from pathlib import Path

SCRIPT = Path(__file__).resolve().parent.parent / "benchmarks" / "startup.py"


def run(*arguments: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, str(SCRIPT), *arguments], capture_output=True, text=True)


def test_the_startup_benchmark_compares_compiled_and_uncompiled_runs():
    done = run("--runs", "1", "--", "-c", "import json")
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    assert lines[0] == "python -c import json: CPU seconds a run, median of 1"
    assert [line.split()[0] for line in lines[1:]] == [
        "compiled",
        "uncompiled",
        "uncompiled/compiled",
    ]


def test_the_startup_benchmark_refuses_no_runs():
    done = run("--runs", "0")
    assert done.returncode == 2 and "--runs must be at least 1" in done.stderr
