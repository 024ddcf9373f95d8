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


def tune_collector() -> None:
    """Long-lived objects (engine tables, loaded games) need no collecting: freezing them and
    collecting less often keeps full collections from pausing every game (benchmarks/). A
    full collection then hardly ever runs: what the server drops must be freed by its
    reference counts, never left in a cycle (a room's parts know it weakly)."""
    gc.freeze()
    gc.set_threshold(50_000, 20, 100)


def worker_app() -> FastAPI:
    """The app of one worker process."""
    from pickomino.web import create_app

    app = create_app(**json.loads(os.environ[OPTIONS]))
    tune_collector()
    return app
