"""The offline app's Python compiled to bytecode: Pyodide's standard library, and the package.

Pyodide ships its standard library as source, so Python in the browser compiled the 200-odd
modules it imports at every start: most of the start's time (in Node.js here, loading Pyodide
took 2.7 s from source, 0.7 s from bytecode; importing the package, 0.36 s and 0.15 s). Only
Pyodide's own Python can write bytecode of its version, so Pyodide itself compiles them
(``compile_zip.mjs``), run by Node.js, which npm, fetching Pyodide, runs on anyway. That is
done once per runtime (and per package) and kept in the cache folder. Without Node.js (a
``--runtime`` folder given on a machine without it), the app ships the source as it comes
and works the same, starting slower.
"""

from __future__ import annotations

import functools
import hashlib
import shutil
import subprocess
import tempfile
from pathlib import Path

from pickomino.core import PickominoError
from pickomino.web.offline_app.runtime import cache_folder

#: Changes when the compiled zips are made another way, so that ones made before are not used.
FORMAT = 2
#: Compiling takes some seconds of CPU; a run this long has gone wrong.
COMPILE_SECONDS = 180
#: Where the page's worker puts the package for Python to import (engine.js).
PACKAGE_MOUNTED = "/home/pyodide/pickomino.zip"
#: The compiled packages kept: each version of the package built makes one.
PACKAGES_KEPT = 4
#: The compiled standard libraries kept: each Pyodide (a pickomino upgrade may bring a new
#: one) makes one of some 4.5 MB; the one before stays for a build with an older pickomino.
LIBRARIES_KEPT = 2
SCRIPT = Path(__file__).with_name("compile_zip.mjs")


class SlowerStart(PickominoError):
    """A zip could not be compiled: the app works, its Python starts more slowly."""


def library_to_compile(runtime: Path) -> bool:
    """Whether building with ``runtime`` will compile the standard library now (a few
    seconds, once): it is not in the cache yet, and Node.js is there to do it."""
    cached = _cached("python_stdlib", _runtime_digest(runtime)).is_file()
    return not cached and shutil.which("node") is not None


def standard_library(runtime: Path) -> tuple[Path, SlowerStart | None]:
    """The standard library to ship with ``runtime``: compiled, without its source (made now
    if it is not in the cache yet), or the runtime's own with the reason it is not compiled."""
    source = runtime / "python_stdlib.zip"
    compiled = _cached("python_stdlib", _runtime_digest(runtime))
    if compiled.is_file():
        return compiled, None
    why = _compile(runtime, source, compiled, "", "drop")
    if why:
        return source, why
    _keep_newest("python_stdlib", LIBRARIES_KEPT)
    return compiled, None


def compiled_package(runtime: Path, package: bytes) -> tuple[bytes, SlowerStart | None]:
    """``package`` (a zip of the package's sources) with their bytecode beside them for
    ``runtime``'s Python, or as it is with the reason it is not compiled."""
    digest = hashlib.sha256(_runtime_digest(runtime).encode() + package).hexdigest()[:16]
    compiled = _cached("pickomino", digest)
    if not compiled.is_file():
        with tempfile.TemporaryDirectory() as work:
            source = Path(work) / "pickomino.zip"
            source.write_bytes(package)
            why = _compile(runtime, source, compiled, PACKAGE_MOUNTED, "keep")
        if why:
            return package, why
        _keep_newest("pickomino", PACKAGES_KEPT)
    return compiled.read_bytes(), None


def _cached(kind: str, digest: str) -> Path:
    return cache_folder() / "bytecode" / f"{kind}-{digest}.zip"


def _keep_newest(kind: str, count: int) -> None:
    """Remove all but the ``count`` newest zips of ``kind`` from the cache (one was just
    made): each new runtime or package version would otherwise leave its zip for ever."""
    for old in sorted((cache_folder() / "bytecode").glob(f"{kind}-*.zip"), key=_age)[count:]:
        old.unlink(missing_ok=True)


def _age(path: Path) -> float:
    try:
        return -path.stat().st_mtime  # the newest first
    except OSError:  # removed by a build beside this one
        return 0.0


def _runtime_digest(runtime: Path) -> str:
    """Names the Python that compiles (the bytecode is that Python's) and its library; read
    once per process for files unchanged (a build asks three times, of 12 MB)."""
    files = tuple(runtime.resolve() / name for name in ("python_stdlib.zip", "pyodide.asm.wasm"))
    return _digest_of(files, tuple(path.stat().st_mtime_ns for path in files))


@functools.cache
def _digest_of(files: tuple[Path, ...], changed: tuple[int, ...]) -> str:
    digest = hashlib.sha256(str(FORMAT).encode())
    for path in files:
        digest.update(path.read_bytes())
    return digest.hexdigest()[:16]


def _compile(
    runtime: Path, source: Path, compiled: Path, mounted: str, sources: str
) -> SlowerStart | None:
    """Compile ``source`` into ``compiled`` with Node.js, or say why not."""
    node = shutil.which("node")
    if node is None:
        return SlowerStart("bytecode_needs_node")
    try:
        compiled.parent.mkdir(parents=True, exist_ok=True)
        with tempfile.TemporaryDirectory(dir=compiled.parent) as work:
            made = Path(work) / compiled.name
            done = subprocess.run(
                [node, str(SCRIPT), str(runtime.resolve()), str(source), str(made), mounted,
                 sources],
                capture_output=True, text=True, timeout=COMPILE_SECONDS,
            )  # fmt: skip
            if done.returncode or not made.is_file():
                why = (done.stderr.strip().splitlines() or [f"exit status {done.returncode}"])[-1]
                return SlowerStart("bytecode_not_compiled", why=why[:200])
            made.replace(compiled)  # whole or not at all, even with builds side by side
    except subprocess.TimeoutExpired:
        return SlowerStart("bytecode_not_compiled", why=f"over {COMPILE_SECONDS} s")
    except OSError as error:
        return SlowerStart("bytecode_not_compiled", why=error)
    return None
