"""Files written whole or not at all: a save, a record or a chart that fails half-way (a full
disk, a quota) leaves the file it was to replace as it was, never cut short; the check,
before any work, that a file can be written at all; and a file read whole, within bounds. A
link is written through (the file it names is replaced, the link stays); a device, a pipe or
a socket is never written (replacing one would put a file in its place, opening a pipe waits
for a reader) nor read whole (/dev/zero never ends)."""

from __future__ import annotations

import errno
import os
import secrets
import shutil
import stat
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path


class NotAFileError(OSError):
    """A device, a pipe or a socket where a file was to be written (its reason is worded
    by whoever says it)."""


@contextmanager
def replacing(path: Path) -> Iterator[Path]:
    """A new file beside ``path`` to write in the block (its ending the same, for writers
    that go by it); when the block ends it takes ``path``'s place at once (with an earlier
    file's permissions), and if the block fails it is removed and ``path`` is untouched.
    Through a link, the file it names is replaced."""
    path = Path(os.path.realpath(path))
    if path.is_dir():
        raise IsADirectoryError(errno.EISDIR, os.strerror(errno.EISDIR), str(path))
    if path.exists() and not path.is_file():
        raise NotAFileError(errno.EINVAL, "not a file (a device, a pipe or a socket)", str(path))
    part = path.with_name(f".{path.stem[:64]}.{secrets.token_hex(4)}.part{path.suffix}")
    try:
        yield part
        if path.exists():
            shutil.copymode(path, part)
        os.replace(part, path)
    finally:
        part.unlink(missing_ok=True)


#: The most a file read whole may hold: a record of the longest game, annotated, is some
#: hundreds of kilobytes; /dev/zero or a file of gigabytes would fill the memory instead.
MOST_READ = 16 * 1024 * 1024


def read_whole(path: Path, most: int = MOST_READ) -> bytes:
    """A file's bytes, read whole: refused (:class:`NotAFileError`) if it is a device, a pipe
    or a socket (reading /dev/zero never ends, a pipe waits for a writer), or (``EFBIG``)
    if it holds more than ``most`` bytes."""
    if not stat.S_ISREG(path.stat().st_mode):  # asked before opening: a pipe would wait
        raise NotAFileError(errno.EINVAL, "not a file (a device, a pipe or a socket)", str(path))
    with path.open("rb") as file:
        data = file.read(most + 1)
    if len(data) > most:
        raise OSError(errno.EFBIG, os.strerror(errno.EFBIG), str(path))
    return data


def write_whole(path: Path, text: str) -> None:
    """``text`` (UTF-8) in ``path``, written whole or not at all."""
    with replacing(path) as part:
        part.write_text(text, encoding="utf-8")


def write_problem(path: Path) -> tuple[str, Path, OSError | None] | None:
    """Why ``path`` cannot be written, or None: what (``is_folder``, ``not_a_file``: a
    device, a pipe or a socket, ``not_a_folder``: its folder is a file, ``no_folder``,
    ``unwritable``), the path that is about, and the system's error (for ``unwritable``).
    Tried for real, by opening it to append (a file made so is removed again) and making a
    new file beside it (as :func:`replacing` does): permission bits or a read-only disk can
    mislead."""
    try:  # asking about a name can fail too (too long a name, a loop of links)
        if path.is_dir():
            return "is_folder", path, None
        if path.exists() and not path.is_file():  # asked before opening: a pipe would wait
            return "not_a_file", path, None
        path = Path(os.path.realpath(path))  # a link: the file it names is written
        folder = path.parent
        if folder.exists() and not folder.is_dir():
            return "not_a_folder", folder, None
        if not folder.exists():
            return "no_folder", folder, None
        existed = path.exists()
        with path.open("a", encoding="utf-8"):
            pass
        if not existed:
            path.unlink()
        tempfile.TemporaryFile(dir=folder).close()
    except OSError as error:
        return "unwritable", path, error
    return None


#: :func:`write_problem` in English, for the scripts and benchmarks (the command line says it
#: in the user's language).
PROBLEMS = {
    "is_folder": "{path} is a folder",
    "not_a_file": "{path} is not a file (a device, a pipe or a socket)",
    "not_a_folder": "{path} is not a folder",
    "no_folder": "{path} is not a folder",
    "unwritable": "{path} cannot be written ({why})",
}


def unwritable(path: Path) -> str | None:
    """Why ``path`` cannot be written, in English, or None."""
    problem = write_problem(path)
    if problem is None:
        return None
    what, where, why = problem
    return PROBLEMS[what].format(path=where, why=why and (why.strerror or str(why)))
