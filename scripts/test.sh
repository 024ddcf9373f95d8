#!/usr/bin/env bash
# Install everything the tests need into .venv (once, and again only when pyproject.toml
# changes) and, when missing, the Debian packages chromium-headless-shell for the browser
# tests (chromium for the offline app's benchmark) and postgresql for the database tests; then run ruff (lint and format), mypy (on src), compile
# the checkout's modules to bytecode (see venv.sh) and run the whole suite. Extra arguments go
# to pytest, e.g. `bash scripts/test.sh -m "not slow"`.
set -euo pipefail
cd "$(dirname "$0")/.."
missing=()
[ -x /usr/bin/chromium ] || missing+=(chromium)
[ -x /usr/bin/chromium-headless-shell ] || missing+=(chromium-headless-shell)
command -v initdb >/dev/null || compgen -G "/usr/lib/postgresql/*/bin/initdb" >/dev/null \
    || missing+=(postgresql)
if [ "${#missing[@]}" -gt 0 ]; then
    sudo=""
    [ "$(id -u)" -eq 0 ] || sudo="sudo"
    $sudo apt-get update -qq
    DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq "${missing[@]}" >/dev/null
fi
source scripts/venv.sh
ensure_installed '.[test]' installed-test "pickomino with everything its tests need"
.venv/bin/python -m ruff check src tests benchmarks scripts
.venv/bin/python -m ruff format --check src tests benchmarks scripts
.venv/bin/python -m mypy
compile_sources src tests benchmarks scripts
exec .venv/bin/python -m pytest "$@"
