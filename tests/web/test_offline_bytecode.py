"""The offline app's Python starts from bytecode: ``pickomino build-app`` ships Pyodide's
standard library compiled (without its source) and the package compiled (beside its source),
both by Pyodide itself under Node.js, once, then from the cache; without Node.js, or when it
fails, it ships the source and says so. The app working on them in the browser is shown by
every test of test_offline_app.py; here, what is shipped and when it is made."""

from __future__ import annotations

import io
import os
import shutil
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest
from click.testing import CliRunner, Result

from pickomino.cli import main
from pickomino.web.offline_app import pyodide_runtime
from pickomino.web.offline_app.build import package_zip
from pickomino.web.offline_app.bytecode import (
    LIBRARIES_KEPT,
    PACKAGES_KEPT,
    compiled_package,
    library_to_compile,
    standard_library,
)
from pickomino.web.offline_app.runtime import cache_folder

BENCHMARK = Path(__file__).resolve().parents[2] / "benchmarks" / "pyodide_start.py"
HASH_BASED_UNCHECKED = (1).to_bytes(4, "little")  # a .pyc's flags (PEP 552)


def built(out: Path, env: dict[str, str]) -> Result:
    """``pickomino build-app`` with Pyodide's runtime from the cache and ``env`` set."""
    runtime = pyodide_runtime()
    return CliRunner().invoke(main, ["build-app", str(out), "--runtime", str(runtime)], env=env)


def names(zip_file: Path | bytes) -> set[str]:
    with zipfile.ZipFile(zip_file if isinstance(zip_file, Path) else io.BytesIO(zip_file)) as z:
        return set(z.namelist())


def pyc_headers(zip_file: Path) -> set[bytes]:
    """The first 8 bytes of each .pyc: the magic number of the Python that wrote it, and
    the flags."""
    with zipfile.ZipFile(zip_file) as z:
        return {z.read(name)[:8] for name in z.namelist() if name.endswith(".pyc")}


def test_the_library_is_shipped_as_bytecode_and_the_package_with_bytecode_beside_it(
    tmp_path: Path,
) -> None:
    done = built(tmp_path / "app", {})
    assert done.exit_code == 0 and "more slowly" not in done.output, done.output
    library = names(pyodide_runtime() / "python_stdlib.zip")
    modules = {name for name in library if name.endswith(".py")}
    shipped = names(tmp_path / "app/pyodide/python_stdlib.zip")
    left = modules & shipped  # those this Python cannot compile
    assert len(left) < len(modules) / 100, sorted(left)
    assert shipped == (library - modules) | left | {name + "c" for name in modules - left}
    package = names(package_zip())
    assert names(tmp_path / "app/pickomino.zip") == package | {
        name + "c" for name in package if name.endswith(".py")
    }
    (header,) = pyc_headers(tmp_path / "app/pyodide/python_stdlib.zip") | pyc_headers(
        tmp_path / "app/pickomino.zip"
    )  # one Python's magic number, and unchecked hash-based
    assert header[4:] == HASH_BASED_UNCHECKED


def path_without_node(tmp_path: Path, node: str | None = None) -> str:
    """A PATH holding no ``node``, or ``node`` as the script given."""
    folder = tmp_path / "bin"
    folder.mkdir()
    if node is not None:
        (folder / "node").write_text(node)
        (folder / "node").chmod(0o755)
    return str(folder)


def assert_source_shipped(app: Path) -> None:
    source = pyodide_runtime() / "python_stdlib.zip"
    assert (app / "pyodide/python_stdlib.zip").read_bytes() == source.read_bytes()
    assert (app / "pickomino.zip").read_bytes() == package_zip()


def test_without_node_the_source_is_shipped_and_the_build_says_so(tmp_path: Path) -> None:
    env = {"PATH": path_without_node(tmp_path), "XDG_CACHE_HOME": str(tmp_path / "cache")}
    done = built(tmp_path / "app", env)
    assert done.exit_code == 0, done.output
    assert done.output.count("will start more slowly") == 1, done.output  # said once
    assert "without Node.js" in done.output and "Offline app written to" in done.output
    assert "Compiling" not in done.output  # nothing to compile with
    assert_source_shipped(tmp_path / "app")


def test_a_node_that_fails_leaves_the_source_and_the_build_says_why(tmp_path: Path) -> None:
    failing = "#!/bin/sh\necho 'SyntaxError: this node is too old' >&2\nexit 1\n"
    env = {"PATH": path_without_node(tmp_path, failing), "XDG_CACHE_HOME": str(tmp_path / "c")}
    done = built(tmp_path / "app", env)
    assert done.exit_code == 0, done.output
    assert "Compiling the app's Python to bytecode with Node.js" in done.output  # announced
    assert "could not be compiled to bytecode: SyntaxError: this node is too old" in done.output
    assert_source_shipped(tmp_path / "app")
    assert not list((tmp_path / "c/pickomino/bytecode").iterdir())  # nothing half made kept


def test_the_library_is_to_compile_only_when_not_cached_and_node_is_there(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    runtime = pyodide_runtime()
    standard_library(runtime)  # compiled into the user's cache, if it was not
    assert not library_to_compile(runtime)
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "empty"))
    assert library_to_compile(runtime)
    monkeypatch.setenv("PATH", path_without_node(tmp_path))
    assert not library_to_compile(runtime)


def cache_holding_the_library(tmp_path: Path) -> Path:
    """A cache folder holding the standard library compiled (as the user's cache does)."""
    compiled, why = standard_library(pyodide_runtime())  # compiled now if it was not yet
    assert why is None and compiled.parent == cache_folder() / "bytecode"
    cache = tmp_path / "cache" / "pickomino" / "bytecode"
    cache.mkdir(parents=True)
    shutil.copyfile(compiled, cache / compiled.name)
    return cache


def test_what_was_compiled_once_is_taken_from_the_cache_without_node(tmp_path: Path) -> None:
    cache = cache_holding_the_library(tmp_path)
    package, why = compiled_package(pyodide_runtime(), package_zip())  # into the user's cache
    assert why is None
    for kept in (cache_folder() / "bytecode").glob("pickomino-*.zip"):
        shutil.copyfile(kept, cache / kept.name)
    env = {"PATH": path_without_node(tmp_path), "XDG_CACHE_HOME": str(tmp_path / "cache")}
    done = built(tmp_path / "app", env)
    assert done.exit_code == 0 and "more slowly" not in done.output, done.output
    assert (tmp_path / "app/pickomino.zip").read_bytes() == package


@pytest.mark.slow  # compiles the package in Node.js
def test_a_new_package_is_compiled_and_only_the_newest_few_are_kept(tmp_path: Path) -> None:
    cache = cache_holding_the_library(tmp_path)
    for age in range(PACKAGES_KEPT + 2):  # compiled packages of older versions
        old = cache / f"pickomino-old{age}.zip"
        old.write_bytes(b"")
        os.utime(old, (1_000_000 - age, 1_000_000 - age))
    env = {"XDG_CACHE_HOME": str(tmp_path / "cache")}
    done = built(tmp_path / "app", env)
    assert done.exit_code == 0 and "more slowly" not in done.output, done.output
    assert "Compiling" not in done.output  # the library was compiled once: only the package
    kept = sorted(path.name for path in cache.glob("pickomino-*.zip"))
    assert len(kept) == PACKAGES_KEPT and "pickomino-old0.zip" in kept
    assert f"pickomino-old{PACKAGES_KEPT - 2}.zip" in kept
    assert f"pickomino-old{PACKAGES_KEPT - 1}.zip" not in kept
    assert names(tmp_path / "app/pickomino.zip") > names(package_zip())


@pytest.mark.slow  # compiles the standard library in Node.js
def test_a_new_runtime_s_library_is_compiled_and_only_the_newest_few_are_kept(
    tmp_path: Path,
) -> None:
    """A cache holding the libraries of older Pyodides (each some 4.5 MB): building with a
    new one compiles its library and removes all but the newest few."""
    cache = tmp_path / "cache" / "pickomino" / "bytecode"
    cache.mkdir(parents=True)
    for age in range(LIBRARIES_KEPT + 1):
        old = cache / f"python_stdlib-old{age}.zip"
        old.write_bytes(b"")
        os.utime(old, (1_000_000 - age, 1_000_000 - age))
    done = built(tmp_path / "app", {"XDG_CACHE_HOME": str(tmp_path / "cache")})
    assert done.exit_code == 0 and "more slowly" not in done.output, done.output
    assert "Compiling" in done.output  # this runtime's library was not in the cache
    kept = sorted(path.name for path in cache.glob("python_stdlib-*.zip"))
    assert len(kept) == LIBRARIES_KEPT and "python_stdlib-old0.zip" in kept
    assert f"python_stdlib-old{LIBRARIES_KEPT - 1}.zip" not in kept
    assert (tmp_path / "app/pyodide/python_stdlib.zip").read_bytes() != b""


@pytest.mark.slow  # two starts of Python in Node.js
def test_the_start_benchmark_runs_and_imports_from_bytecode() -> None:
    done = subprocess.run(
        [sys.executable, str(BENCHMARK), "--starts", "1"], capture_output=True, text=True
    )
    assert done.returncode == 0, done.stderr
    said = (line.split(": ", 1) for line in done.stdout.splitlines() if ": " in line)
    lines = {name.strip(): rest for name, rest in said}
    assert lines["compiled"].endswith(
        "json/__init__.pyc, the engine from /home/pyodide/pickomino.zip/pickomino/core/state.pyc"
    )
    assert lines["source"].endswith(
        "json/__init__.py, the engine from /home/pyodide/pickomino.zip/pickomino/core/state.py"
    )
    assert "source/compiled, cpu" in lines


def test_the_start_benchmark_refuses_no_starts() -> None:
    done = subprocess.run(
        [sys.executable, str(BENCHMARK), "--starts", "0"], capture_output=True, text=True
    )
    assert done.returncode == 2 and "--starts must be at least 1" in done.stderr
