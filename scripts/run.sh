#!/usr/bin/env bash
# Install pickomino into .venv (once, and again only when pyproject.toml changes) and run the
# main job: the web app on http://127.0.0.1:8000/ with its games in an SQLite file in your
# user data folder.
# Extra arguments replace the default ones, e.g. `bash scripts/run.sh play` (terminal game)
# or `bash scripts/run.sh serve --port 8080 --database /tmp/games.sqlite3`.
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/venv.sh
ensure_installed '.[all]' installed "pickomino with every face (web, terminal, plots)"
compile_sources src
if [ "$#" -eq 0 ]; then set -- serve; fi
exec .venv/bin/pickomino "$@"
