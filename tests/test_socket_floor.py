"""benchmarks/socket_floor.py: a tiny run against its bare server, and a refusal (the
measurement is in benchmarks/README.md, "The floor of this stack")."""

import importlib.util
import re
import subprocess
import sys
from pathlib import Path

import pytest

SCRIPT = Path(__file__).resolve().parent.parent / "benchmarks" / "socket_floor.py"


def run(*arguments: str) -> subprocess.CompletedProcess:
    command = [sys.executable, str(SCRIPT), *arguments]
    return subprocess.run(command, capture_output=True, text=True, timeout=120)


@pytest.mark.slow
def test_the_floor_benchmark_plays_actions_on_its_bare_server():
    done = run("--games", "2", "--seconds", "1", "--engine-seconds", "0.2")
    assert done.returncode == 0, done.stderr
    played = re.search(
        r"bare server \(websockets-sansio\), 2 games, [\d.]+ s: ([\d,]+) actions", done.stdout
    )
    assert played and int(played[1].replace(",", "")) > 10, done.stdout
    assert re.search(
        r"server CPU per action \d+ us; bare engine [\d.]+ us; ratio \d+x", done.stdout
    )


def test_the_floor_benchmark_refuses_an_empty_load():
    done = run("--games", "0")
    assert done.returncode == 2
    assert "--games, --seconds and --engine-seconds must be positive" in done.stderr


def test_the_floor_benchmark_refuses_an_unknown_websocket_implementation():
    done = run("--ws", "wsproto")
    assert done.returncode == 2
    assert "invalid choice: 'wsproto'" in done.stderr


@pytest.mark.skipif(importlib.util.find_spec("granian") is not None, reason="granian installed")
def test_the_floor_benchmark_says_granian_is_to_be_installed_first():
    done = run("--server", "granian")
    assert done.returncode == 2
    assert "granian is not installed (not a pickomino dependency): pip install granian" in (
        done.stderr
    )
