"""Pyodide's runtime for the offline app: fetched once with npm from the registry, checked
against its published checksum (SHA-512) and kept in the user's cache folder; or a folder of
its files that the user gives (``pickomino build-app --runtime``)."""

from __future__ import annotations

import base64
import hashlib
import io
import os
import shutil
import subprocess
import tarfile
import tempfile
from pathlib import Path

from pickomino.core import PickominoError

#: The Pyodide release the app runs on, and the npm registry's checksum of its package.
PYODIDE = "314.0.8"
PYODIDE_SHA512 = (
    "74Wq1kXOC+CCEzAfxuRAO701nAcCMLjf8NrwvWpu8S41dVMXwXmLQ05dYB+F4e46AdnGo0oq7YHSVUpHsoarLQ=="
)
#: How long fetching Pyodide may take (``pickomino serve`` waits for it once, at its start).
FETCH_SECONDS = 120
#: What of the package the browser needs: the runtime, its standard library, its lock file.
RUNTIME_FILES = (
    "pyodide.mjs",
    "pyodide.asm.mjs",
    "pyodide.asm.wasm",
    "python_stdlib.zip",
    "pyodide-lock.json",
)


class BuildError(PickominoError):
    """The app cannot be built where asked, or its runtime cannot be had."""


def cache_folder() -> Path:
    """Where downloads are kept between builds: ``$XDG_CACHE_HOME/pickomino``."""
    root = os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache"
    return Path(root) / "pickomino"


def checked_runtime(folder: Path) -> Path:
    missing = [name for name in RUNTIME_FILES if not (folder / name).is_file()]
    if missing:
        raise BuildError("runtime_incomplete", path=str(folder), missing=", ".join(missing))
    return folder


def runtime_cached() -> bool:
    """Whether Pyodide's files are in the cache already (no download to announce)."""
    return all((cache_folder() / f"pyodide-{PYODIDE}" / name).is_file() for name in RUNTIME_FILES)


def pyodide_runtime() -> Path:
    """Pyodide's files in the cache, fetched with npm the first time and checked against the
    registry's checksum (SHA-512) written here."""
    folder = cache_folder() / f"pyodide-{PYODIDE}"
    if runtime_cached():
        return folder
    npm = shutil.which("npm")
    if npm is None:
        raise BuildError("runtime_needs_npm", version=PYODIDE)
    try:
        return _fetched_runtime(npm, folder)
    except OSError as error:  # a cache folder that cannot be written
        raise BuildError("app_folder_unwritable", path=str(folder), why=error) from None
    except subprocess.TimeoutExpired:
        raise BuildError("runtime_fetch_timeout", version=PYODIDE, seconds=FETCH_SECONDS) from None


def _fetched_runtime(npm: str, folder: Path) -> Path:
    folder.parent.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory(dir=folder.parent) as work:
        fetched = subprocess.run(
            [npm, "pack", f"pyodide@{PYODIDE}", "--pack-destination", work, "--silent"],
            capture_output=True,
            text=True,
            timeout=FETCH_SECONDS,
        )
        tarballs = list(Path(work).glob("*.tgz"))
        if fetched.returncode or len(tarballs) != 1:
            why = (fetched.stderr.strip().splitlines() or ["no package"])[-1]
            raise BuildError("runtime_not_fetched", version=PYODIDE, why=why[:200])
        data = tarballs[0].read_bytes()
        if base64.b64encode(hashlib.sha512(data).digest()).decode() != PYODIDE_SHA512:
            raise BuildError("runtime_checksum", version=PYODIDE)
        unpacked = Path(work) / "runtime"
        unpacked.mkdir()
        with tarfile.open(fileobj=io.BytesIO(data)) as archive:
            for name in RUNTIME_FILES:
                member = archive.extractfile(f"package/{name}")
                if member is None:
                    raise BuildError(
                        "runtime_incomplete", path=f"pyodide@{PYODIDE}", missing=[name]
                    )
                (unpacked / name).write_bytes(member.read())
        try:
            unpacked.rename(folder)
        except OSError:  # another build was quicker: its files are the same, checked alike
            if not runtime_cached():
                raise
    return folder
