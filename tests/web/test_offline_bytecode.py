"""The offline app's Python starts from bytecode: ``pickomino build-app`` ships Pyodide's
standard library compiled by Pyodide itself under Node.js (once, then from the cache), and
without Node.js, or when it fails, ships the runtime's source and says so. The app working
on it in the browser is shown by every test of test_offline_app.py; here, what is shipped."""

from __future__ import annotations

import shutil
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest
from click.testing import CliRunner, Result

from pickomino.cli import main
from pickomino.web.offline_app import pyodide_runtime
from pickomino.web.offline_app.bytecode import standard_library
from pickomino.web.offline_app.runtime import cache_folder

BENCHMARK = Path(__file__).resolve().parents[2] / "benchmarks" / "pyodide_start.py"
HASH_BASED_UNCHECKED = (1).to_bytes(4, "little")  # a .pyc's flags (PEP 552)


def built(out: Path, env: dict[str, str]) -> Result:
    """``pickomino build-app`` with Pyodide's runtime from the cache and ``env`` set."""
    runtime = pyodide_runtime()
    return CliRunner().invoke(main, ["build-app", str(out), "--runtime", str(runtime)], env=env)


def shipped(app: Path) -> zipfile.ZipFile:
    return zipfile.ZipFile(app / "pyodide" / "python_stdlib.zip")


def test_every_module_of_the_standard_library_is_shipped_as_bytecode_of_one_python(
    tmp_path: Path,
) -> None:
    done = built(tmp_path / "app", {})
    assert done.exit_code == 0 and "more slowly" not in done.output, done.output
    with zipfile.ZipFile(pyodide_runtime() / "python_stdlib.zip") as source:
        modules = {name for name in source.namelist() if name.endswith(".py")}
        others = set(source.namelist()) - modules
    with shipped(tmp_path / "app") as app:
        names = set(app.namelist())
        headers = {app.read(name)[:8] for name in names if name.endswith(".pyc")}
    left = {name for name in modules if name in names}  # those this Python cannot compile
    assert len(left) < len(modules) / 100, sorted(left)
    assert names == others | left | {name + "c" for name in modules - left}
    (magic_and_flags,) = headers  # one Python's magic number, unchecked hash-based
    assert magic_and_flags[4:] == HASH_BASED_UNCHECKED


def path_without_node(tmp_path: Path, node: str | None = None) -> str:
    """A PATH holding no ``node``, or ``node`` as the script given."""
    folder = tmp_path / "bin"
    folder.mkdir()
    if node is not None:
        (folder / "node").write_text(node)
        (folder / "node").chmod(0o755)
    return str(folder)


def test_without_node_the_source_is_shipped_and_the_build_says_so(tmp_path: Path) -> None:
    env = {"PATH": path_without_node(tmp_path), "XDG_CACHE_HOME": str(tmp_path / "cache")}
    done = built(tmp_path / "app", env)
    assert done.exit_code == 0, done.output
    assert "will start more slowly" in done.output and "without Node.js" in done.output
    assert "Offline app written to" in done.output
    source = pyodide_runtime() / "python_stdlib.zip"
    assert (tmp_path / "app/pyodide/python_stdlib.zip").read_bytes() == source.read_bytes()


def test_a_node_that_fails_leaves_the_source_and_the_build_says_why(tmp_path: Path) -> None:
    failing = "#!/bin/sh\necho 'SyntaxError: this node is too old' >&2\nexit 1\n"
    env = {"PATH": path_without_node(tmp_path, failing), "XDG_CACHE_HOME": str(tmp_path / "c")}
    done = built(tmp_path / "app", env)
    assert done.exit_code == 0, done.output
    assert "could not be compiled to bytecode: SyntaxError: this node is too old" in done.output
    source = pyodide_runtime() / "python_stdlib.zip"
    assert (tmp_path / "app/pyodide/python_stdlib.zip").read_bytes() == source.read_bytes()
    assert not list((tmp_path / "c/pickomino/bytecode").iterdir())  # nothing half made kept


def test_the_library_compiled_once_is_taken_from_the_cache_without_node(tmp_path: Path) -> None:
    compiled, why = standard_library(pyodide_runtime())  # compiled now if it was not yet
    assert why is None and compiled.parent == cache_folder() / "bytecode"
    cache = tmp_path / "cache" / "pickomino" / "bytecode"
    cache.mkdir(parents=True)
    shutil.copyfile(compiled, cache / compiled.name)
    env = {"PATH": path_without_node(tmp_path), "XDG_CACHE_HOME": str(tmp_path / "cache")}
    done = built(tmp_path / "app", env)
    assert done.exit_code == 0 and "more slowly" not in done.output, done.output
    assert (tmp_path / "app/pyodide/python_stdlib.zip").read_bytes() == compiled.read_bytes()


@pytest.mark.slow  # two starts of Python in Node.js
def test_the_start_benchmark_runs_and_imports_from_bytecode() -> None:
    done = subprocess.run(
        [sys.executable, str(BENCHMARK), "--starts", "1"], capture_output=True, text=True
    )
    assert done.returncode == 0, done.stderr
    said = (line.split(": ", 1) for line in done.stdout.splitlines() if ": " in line)
    lines = {name.strip(): rest for name, rest in said}
    assert lines["compiled"].endswith("json/__init__.pyc")
    assert lines["source"].endswith("json/__init__.py")
    assert "source/compiled, cpu" in lines


def test_the_start_benchmark_refuses_no_starts() -> None:
    done = subprocess.run(
        [sys.executable, str(BENCHMARK), "--starts", "0"], capture_output=True, text=True
    )
    assert done.returncode == 2 and "--starts must be at least 1" in done.stderr
