"""A command's start with the bytecode compiled (what scripts/venv.sh does, once) against
without it (every import compiled again, as on a machine with PYTHONDONTWRITEBYTECODE where
nothing compiled the packages): the CPU time of the whole process, the two alternated.

Run: ``.venv/bin/python benchmarks/startup.py [--runs 5] [COMMAND …]`` (default: the
``pickomino odds --json`` that the command-line tests start dozens of times).
"""

from __future__ import annotations

import argparse
import os
import resource
import statistics
import subprocess
import sys
import tempfile

DEFAULT = ["-m", "pickomino", "odds", "--json"]


def child_cpu() -> float:
    used = resource.getrusage(resource.RUSAGE_CHILDREN)
    return used.ru_utime + used.ru_stime


def cpu_of(command: list[str], env: dict[str, str]) -> float:
    """The CPU seconds of one run of ``python COMMAND``, which must succeed."""
    before = child_cpu()
    subprocess.run([sys.executable, *command], env=env, check=True, capture_output=True)
    return child_cpu() - before


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--runs", type=int, default=5, help="runs of each (default 5)")
    parser.add_argument("command", nargs="*", help="python's arguments (default: %(default)s)")
    args = parser.parse_args(argv)
    if args.runs < 1:
        parser.error("--runs must be at least 1")
    command = args.command or DEFAULT
    with tempfile.TemporaryDirectory() as nowhere:
        # bytecode looked for (and not written) in an empty folder: none is ever found
        uncompiled = {**os.environ, "PYTHONPYCACHEPREFIX": nowhere, "PYTHONDONTWRITEBYTECODE": "1"}
        compiled = {**os.environ, "PYTHONDONTWRITEBYTECODE": "1"}
        writing = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
        cpu_of(command, writing)  # writes the bytecode, where this checkout lacks some
        times: dict[str, list[float]] = {"compiled": [], "uncompiled": []}
        for _ in range(args.runs):
            times["uncompiled"].append(cpu_of(command, uncompiled))
            times["compiled"].append(cpu_of(command, compiled))
    print(f"python {' '.join(command)}: CPU seconds a run, median of {args.runs}")
    medians = {kind: statistics.median(runs) for kind, runs in times.items()}
    for kind, median in medians.items():
        print(f"  {kind:<10} {median:.3f}")
    print(f"  uncompiled/compiled {medians['uncompiled'] / medians['compiled']:.2f}")


if __name__ == "__main__":
    main()
