"""The garbage collector's pauses, per process, for ``web_load.py`` (see benchmarks/README.md,
"The collector's pauses"): put this folder first on ``PYTHONPATH`` and name a folder in
``PICKOMINO_GC_LOG``; every Python process started so (and every process forked from one,
as the benchmark's server is) appends to ``gc_<pid>.log`` there, at each collection of an
older generation, its collections so far per generation: how many, their total time and the
longest. ``PICKOMINO_GC_THRESHOLDS`` (e.g. ``50000,20,100``) replaces the thresholds any
``gc.set_threshold`` asks for (``serve``'s), to compare them in one sitting.
"""

import gc
import os
import sys
import time

_folder = os.environ.get("PICKOMINO_GC_LOG")
_thresholds = os.environ.get("PICKOMINO_GC_THRESHOLDS")

if _thresholds:
    _asked = tuple(int(value) for value in _thresholds.split(","))
    _set_threshold = gc.set_threshold
    gc.set_threshold = lambda *_: _set_threshold(*_asked)  # type: ignore[assignment]

if _folder:
    _started = [0.0]
    _seen: dict[int, tuple[int, float, float]] = {}  # generation: (count, total, longest)

    def _timed(phase: str, info: dict) -> None:
        if phase == "start":
            _started[0] = time.perf_counter()
            return
        took = time.perf_counter() - _started[0]
        generation = info["generation"]
        count, total, longest = _seen.get(generation, (0, 0.0, 0.0))
        _seen[generation] = (count + 1, total + took, max(longest, took))
        if generation >= 1:
            parts = " ".join(
                f"gen{g} {n} {t * 1000:.0f}ms longest {m * 1000:.1f}ms"
                for g, (n, t, m) in sorted(_seen.items())
            )
            line = f"{time.time():.3f} {' '.join(sys.argv[:2])} {gc.get_threshold()} {parts}\n"
            with open(os.path.join(_folder, f"gc_{os.getpid()}.log"), "a") as log:
                log.write(line)

    gc.callbacks.append(_timed)
    os.register_at_fork(after_in_child=_seen.clear)  # a forked server counts its own
