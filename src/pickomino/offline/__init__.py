"""The offline app: the score keeper and the dice advisor as a static, installable web app
that works with no server and no network once loaded (``pickomino build-app OUT``). Its pages
are the web app's own; the same Python package answers them in the browser, in Pyodide.

- :mod:`~pickomino.offline.answers` runs in the browser: the keeper's API, answered locally;
- :mod:`pickomino.web.offline_app` runs here: writes the app's folder (and serves it at
  ``/app/``).
"""
