"""Files written whole or not at all: a save, a record or a chart that fails half-way (a full
disk, a quota) leaves the file it was to replace as it was, never cut short."""

from __future__ import annotations

import os
import secrets
import shutil
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path


@contextmanager
def replacing(path: Path) -> Iterator[Path]:
    """A new file beside ``path`` to write in the block (its ending the same, for writers
    that go by it); when the block ends it takes ``path``'s place at once (with an earlier
    file's permissions), and if the block fails it is removed and ``path`` is untouched."""
    part = path.with_name(f".{path.stem[:64]}.{secrets.token_hex(4)}.part{path.suffix}")
    try:
        yield part
        if path.exists():
            shutil.copymode(path, part)
        os.replace(part, path)
    finally:
        part.unlink(missing_ok=True)


def write_whole(path: Path, text: str) -> None:
    """``text`` (UTF-8) in ``path``, written whole or not at all."""
    with replacing(path) as part:
        part.write_text(text, encoding="utf-8")
