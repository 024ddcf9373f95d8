"""``pickomino serve --workers N``: N processes of the app on one port.

uvicorn's own supervisor binds the port once and starts N worker processes that accept on
that one socket (and starts a worker again if one dies); each worker builds its app here,
from the options ``serve`` put in the environment. The processes share nothing but the
PostgreSQL database (see :mod:`pickomino.web.cluster.bridge`), so the same holds for processes on
several hosts behind one proxy.
"""

from __future__ import annotations

import gc
import json
import os

from fastapi import FastAPI

#: The environment variable carrying ``create_app``'s keyword arguments to the workers.
OPTIONS = "PICKOMINO_SERVE_OPTIONS"
#: What uvicorn imports in each worker.
FACTORY = "pickomino.web.cluster.workers:worker_app"


#: The collector's thresholds: a young collection every 50,000 objects made and kept, a
#: middle one at every third of those, a full one at every 701st middle one (about 100
#: million objects, as with the 50,000 / 20 / 100 before). A pause is as long as the
#: generations it walks: the middle one, at every 21st young one before, walked up to a
#: million objects (half a second with 1,000 games); now up to 150,000, in the same time
#: all told (benchmarks/README.md, "The collector's pauses").
THRESHOLDS = (50_000, 2, 700)


def tune_collector() -> None:
    """Long-lived objects (engine tables, loaded games) need no collecting: freezing them and
    collecting the full heap rarely keeps full collections from pausing every game
    (benchmarks/). A full collection then hardly ever runs: what the server drops must be
    freed by its reference counts, never left in a cycle (a room's parts know it weakly).
    The thresholds are the generational collector's; CPython 3.14's incremental one (its
    third threshold always 0) reads the second as the old generation's pace and bounds its
    pauses by itself, so it keeps its own."""
    gc.freeze()
    if gc.get_threshold()[2] != 0:
        gc.set_threshold(*THRESHOLDS)


def worker_app() -> FastAPI:
    """The app of one worker process."""
    from pickomino.web import create_app

    app = create_app(**json.loads(os.environ[OPTIONS]))
    tune_collector()
    return app
