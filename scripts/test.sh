#!/usr/bin/env bash
# Install everything the tests need into .venv, then run the whole suite.
# Extra arguments go to pytest, e.g. `bash scripts/test.sh -m "not slow"`.
set -euo pipefail
cd "$(dirname "$0")/.."
[ -x .venv/bin/python ] || python3 -m venv .venv
.venv/bin/python -m pip install -q --disable-pip-version-check -e '.[test]'
.venv/bin/python -m ruff check src tests benchmarks scripts
exec .venv/bin/python -m pytest "$@"
