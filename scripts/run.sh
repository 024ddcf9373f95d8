#!/usr/bin/env bash
# Install pickomino into .venv and run the main job. Until the web app lands this is the
# closest working command: play a game in the terminal against two bots.
# Extra arguments replace the default ones, e.g. `bash scripts/run.sh selfplay --seed 1`.
set -euo pipefail
cd "$(dirname "$0")/.."
[ -x .venv/bin/python ] || python3 -m venv .venv
.venv/bin/python -m pip install -q --disable-pip-version-check -e .
if [ "$#" -eq 0 ]; then set -- play; fi
exec .venv/bin/pickomino "$@"
