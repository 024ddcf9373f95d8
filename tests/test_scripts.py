"""scripts/venv.sh: run.sh and test.sh install into .venv only when they need to, and
start from bytecode compiled once.

The shell function runs for real in a temporary checkout whose python3 and .venv/bin/python
are a fake that logs its calls, so no test here runs pip.
"""

import os
import subprocess
import sys
from pathlib import Path

import pytest

VENV_SH = Path(__file__).resolve().parent.parent / "scripts" / "venv.sh"

FAKE_PYTHON = """#!/usr/bin/env bash
# python3 -m venv DIR makes DIR/bin/python (this script); uv's pip install makes pickomino
# importable (pip only brings uv); every call is logged.
here=$(cd "$(dirname "$0")" && pwd)
echo "$*" >> "$FAKE_LOG"
case "$1 $2" in
    "-m venv") mkdir -p "$3/bin" && cp "$0" "$3/bin/python" ;;
    "-m pip") ;;
    "-m uv") touch "$here/pickomino-installed" ;;
    "-c import pickomino") [ -f "$here/pickomino-installed" ] ;;
    *) exit 2 ;;
esac
"""


def install(target: str = ".") -> list[str]:
    """The calls that install ``target``: uv brought by pip, then uv's pip install."""
    return [
        "-m pip install -q --disable-pip-version-check uv",
        f"-m uv pip install -q --compile-bytecode --python .venv/bin/python -e {target}",
    ]


@pytest.fixture
def checkout(tmp_path):
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir()
    fake = bin_dir / "python3"
    fake.write_text(FAKE_PYTHON)
    fake.chmod(0o755)
    (tmp_path / "repo").mkdir()
    (tmp_path / "repo" / "pyproject.toml").write_text('[project]\nname = "pickomino"\n')
    return tmp_path


def ensure(checkout, target=".", stamp="installed"):
    """Run ensure_installed in the checkout; the pip and venv calls made, and what it said."""
    log = checkout / "calls.log"
    log.write_text("")
    env = {
        **os.environ,
        "PATH": f"{checkout / 'bin'}:{os.environ['PATH']}",
        "FAKE_LOG": str(log),
    }
    result = subprocess.run(
        ["bash", "-c", f'set -euo pipefail; source {VENV_SH}; ensure_installed "$@"', "-"]
        + [target, stamp, "pickomino"],
        cwd=checkout / "repo",
        env=env,
        capture_output=True,
        text=True,
        check=True,
    )
    calls = [line for line in log.read_text().splitlines() if not line.startswith("-c ")]
    return calls, result.stderr


def test_first_run_makes_the_venv_installs_and_says_so(checkout):
    calls, said = ensure(checkout)
    assert calls == ["-m venv .venv", *install()]
    assert "Installing pickomino into .venv (first run, about half a minute)" in said


def test_later_runs_do_not_call_pip(checkout):
    ensure(checkout)
    assert ensure(checkout) == ([], "")


def test_a_changed_pyproject_installs_again(checkout):
    ensure(checkout)
    with (checkout / "repo" / "pyproject.toml").open("a") as pyproject:
        pyproject.write('dependencies = ["click"]\n')
    calls, said = ensure(checkout)
    assert calls == install()
    assert "pyproject.toml has changed: updating pickomino in .venv" in said
    assert ensure(checkout) == ([], "")


def test_a_venv_without_the_package_installs_again(checkout):
    ensure(checkout)
    (checkout / "repo" / ".venv" / "bin" / "pickomino-installed").unlink()
    calls, said = ensure(checkout)
    assert calls == install()
    assert "Installing pickomino into .venv" in said


def test_each_target_has_its_own_stamp(checkout):
    ensure(checkout)
    calls, _ = ensure(checkout, ".[test]", "installed-test")
    assert calls == install(".[test]")
    assert ensure(checkout, ".[test]", "installed-test") == ([], "")
    assert ensure(checkout) == ([], "")


def test_the_sources_are_compiled_once_even_where_bytecode_is_not_written(tmp_path):
    """``compile_sources`` writes the bytecode that a machine with PYTHONDONTWRITEBYTECODE
    would otherwise make again in every process, and leaves a module unchanged since alone."""
    (tmp_path / ".venv" / "bin").mkdir(parents=True)
    (tmp_path / ".venv" / "bin" / "python").symlink_to(sys.executable)
    package = tmp_path / "src" / "package"
    package.mkdir(parents=True)
    (package / "module.py").write_text("ANSWER = 42\n")
    env = {**os.environ, "PYTHONDONTWRITEBYTECODE": "1"}

    def compile_sources() -> list[Path]:
        subprocess.run(
            ["bash", "-c", f"set -euo pipefail; source {VENV_SH}; compile_sources src"],
            cwd=tmp_path, env=env, check=True,
        )  # fmt: skip
        return list((package / "__pycache__").glob("module.*.pyc"))

    [compiled] = compile_sources()
    written = compiled.stat().st_mtime_ns
    assert compile_sources() == [compiled] and compiled.stat().st_mtime_ns == written
