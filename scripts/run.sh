#!/usr/bin/env bash
# Install pickomino into .venv and run the main job. Until the web app lands this is the
# closest working command: watch bots play a whole game in the terminal.
# Extra arguments replace the default ones, e.g. `bash scripts/run.sh show game.json`.
set -euo pipefail
cd "$(dirname "$0")/.."
[ -x .venv/bin/python ] || python3 -m venv .venv
.venv/bin/python -m pip install -q --disable-pip-version-check -e .
if [ "$#" -eq 0 ]; then set -- selfplay --bots simple,random,simple --seed 1; fi
exec .venv/bin/pickomino "$@"
