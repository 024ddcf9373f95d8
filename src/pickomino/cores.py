"""The cores this process may run on, for whatever sizes a pool of workers by them (the local
tournament engine's processes, the web server's bot threads)."""

from __future__ import annotations

import os


def usable_cores() -> int:
    """The cores this process may run on: a container or ``taskset`` may allow fewer than the
    machine has."""
    if hasattr(os, "sched_getaffinity"):
        return len(os.sched_getaffinity(0))
    return os.cpu_count() or 1
