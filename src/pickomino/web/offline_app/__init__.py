"""The offline app: a static folder that any web server can serve (``pickomino build-app
OUT``, and ``pickomino serve`` at ``/app``), which then works with no server and no network.

- :mod:`.build`: the folder's files and the service worker that keeps them;
- :mod:`.runtime`: Pyodide, fetched once from the npm registry and checked;
- :mod:`.bytecode`: Pyodide's standard library and the package compiled, so that Python
  starts sooner;
- :mod:`.router`: the same files at ``/app/`` of ``pickomino serve``.
"""

from pickomino.web.offline_app.build import MARK, build, check_destination
from pickomino.web.offline_app.runtime import (
    PYODIDE,
    RUNTIME_FILES,
    BuildError,
    pyodide_runtime,
    runtime_cached,
)

__all__ = [
    "MARK",
    "PYODIDE",
    "RUNTIME_FILES",
    "BuildError",
    "build",
    "check_destination",
    "pyodide_runtime",
    "runtime_cached",
]
