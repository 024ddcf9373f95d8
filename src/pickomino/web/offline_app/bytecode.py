"""Pyodide's standard library compiled to bytecode for the offline app.

Pyodide ships its standard library as source, so Python in the browser compiled the 200-odd
modules it imports at every start: most of the start's time (in Node.js here, loading Pyodide
took 2.7 s from source, 0.7 s from bytecode). Only Pyodide's own Python can write bytecode
of its version, so Pyodide itself compiles the library (``compile_stdlib.mjs``), run by
Node.js, which npm, fetching Pyodide, runs on anyway. That is done once per runtime and kept in
the cache folder. Without Node.js (a ``--runtime`` folder given on a machine without it), the
app ships the source as it comes and works the same, starting slower.
"""

from __future__ import annotations

import hashlib
import shutil
import subprocess
import tempfile
from pathlib import Path

from pickomino.core import PickominoError
from pickomino.web.offline_app.runtime import cache_folder

#: Changes when the compiled zip is made another way, so that one made before is not used.
FORMAT = 1
#: Compiling takes some seconds of CPU; a run this long has gone wrong.
COMPILE_SECONDS = 180
SCRIPT = Path(__file__).with_name("compile_stdlib.mjs")


class SlowerStart(PickominoError):
    """The library could not be compiled: the app works, its Python starts more slowly."""


def standard_library(runtime: Path) -> tuple[Path, SlowerStart | None]:
    """The standard library to ship with ``runtime``: compiled (made now if it is not in the
    cache yet), or the runtime's own with the reason it is not compiled."""
    source = runtime / "python_stdlib.zip"
    compiled = cache_folder() / "bytecode" / f"python_stdlib-{_runtime_digest(runtime)}.zip"
    if compiled.is_file():
        return compiled, None
    node = shutil.which("node")
    if node is None:
        return source, SlowerStart("stdlib_needs_node")
    try:
        _compile(node, runtime, compiled)
    except SlowerStart as why:
        return source, why
    return compiled, None


def _runtime_digest(runtime: Path) -> str:
    """Names the library and the Python that compiles it (the bytecode is that Python's)."""
    digest = hashlib.sha256(str(FORMAT).encode())
    for name in ("python_stdlib.zip", "pyodide.asm.wasm"):
        digest.update((runtime / name).read_bytes())
    return digest.hexdigest()[:16]


def _compile(node: str, runtime: Path, compiled: Path) -> None:
    try:
        compiled.parent.mkdir(parents=True, exist_ok=True)
        with tempfile.TemporaryDirectory(dir=compiled.parent) as work:
            made = Path(work) / compiled.name
            done = subprocess.run(
                [node, str(SCRIPT), str(runtime.resolve()), str(made)],
                capture_output=True,
                text=True,
                timeout=COMPILE_SECONDS,
            )
            if done.returncode or not made.is_file():
                why = (done.stderr.strip().splitlines() or [f"exit status {done.returncode}"])[-1]
                raise SlowerStart("stdlib_not_compiled", why=why[:200])
            made.replace(compiled)  # whole or not at all, even with builds side by side
    except subprocess.TimeoutExpired:
        raise SlowerStart("stdlib_not_compiled", why=f"over {COMPILE_SECONDS} s") from None
    except OSError as error:
        raise SlowerStart("stdlib_not_compiled", why=error.strerror or str(error)) from None
