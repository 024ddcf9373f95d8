# Sourced by run.sh and test.sh, from the checkout's root: keep .venv up to date without
# running pip at every start (pip takes seconds even when there is nothing to do). A stamp
# file in .venv remembers the checksum of the pyproject.toml it last installed from.

# ensure_installed TARGET STAMP WHAT: install TARGET (".[all]", ".[test]") into .venv, saying
# so as WHAT, unless .venv/STAMP holds the checksum of the current pyproject.toml and
# pickomino can be imported there. The install is uv's (`uv pip install`, brought into .venv
# by pip): it fetches and unpacks in parallel, about 11 s for the tests' packages where pip
# took 53 s. It also compiles the packages to bytecode (--compile-bytecode), once: uv leaves
# that to the first import otherwise, and where PYTHONDONTWRITEBYTECODE is set (as on some CI
# machines) every process then compiles all it imports, every time: `pickomino odds` started
# in 0.9 s instead of 0.6 s, and the suite spent about twice the CPU on tests that start
# commands (benchmarks/README.md, "Bytecode").
ensure_installed() {
    local target=$1 stamp=.venv/$2 what=$3 sum
    sum=$(cksum < pyproject.toml)
    if [ -f "$stamp" ] && [ "$(cat "$stamp")" = "$sum" ] \
        && .venv/bin/python -c "import pickomino" 2>/dev/null; then
        return 0
    fi
    if [ ! -x .venv/bin/python ]; then
        echo "Installing $what into .venv (first run, about half a minute)…" >&2
        python3 -m venv .venv
    elif [ -f "$stamp" ] && [ "$(cat "$stamp")" != "$sum" ]; then
        echo "pyproject.toml has changed: updating $what in .venv…" >&2
    else
        echo "Installing $what into .venv…" >&2
    fi
    .venv/bin/python -m pip install -q --disable-pip-version-check uv
    .venv/bin/python -m uv pip install -q --compile-bytecode --python .venv/bin/python -e "$target"
    echo "$sum" > "$stamp"
}

# compile_sources DIR…: the checkout's own modules compiled to bytecode (only those changed
# since), for the same reason: the editable install leaves them out of uv's compiling.
compile_sources() {
    .venv/bin/python -m compileall -q -j 0 "$@"
}
