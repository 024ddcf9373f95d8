"""The engine is a light library: importing it loads the standard library only, and the
solver, bots, table, simulations and learning environments load no face's library (web,
terminal, plotting, ratings, the catalogues' Babel). Each import runs in a fresh
interpreter, so that what the test process already loaded cannot hide a dependency."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

#: Libraries only the faces need (web, terminal, plots, ratings, words, command line).
FACE_LIBRARIES = {
    "babel", "click", "fastapi", "starlette", "uvicorn", "sqlalchemy", "psycopg", "textual",
    "rich", "matplotlib", "openskill", "markdown_it", "tqdm", "platformdirs",
}  # fmt: skip


def loaded_by(module: str) -> set[str]:
    """The top-level names of every module that ``import module`` loads."""
    code = f"import json, sys, {module}; print(json.dumps(sorted(sys.modules)))"
    output = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True
    ).stdout
    return {name.split(".")[0] for name in json.loads(output)}


def test_the_core_loads_the_standard_library_only():
    """Beyond what a bare interpreter loads (``site``'s hooks included)."""
    outside = loaded_by("pickomino.core") - loaded_by("os") - set(sys.stdlib_module_names)
    outside -= {"pickomino"}
    assert not outside, f"import pickomino.core loads {sorted(outside)}"


@pytest.mark.parametrize("module", ["solver", "bots", "table", "sim", "envs"])
def test_the_engines_layers_load_no_face_library(module):
    faces = loaded_by(f"pickomino.{module}") & FACE_LIBRARIES
    assert not faces, f"import pickomino.{module} loads {sorted(faces)}"


def test_an_engine_error_still_reads_in_english():
    """The catalogues load at the first error shown instead of on import."""
    code = (
        "from pickomino.core import IllegalAction\n"
        "print(IllegalAction('R6', 'face_kept', face='W'))"
    )
    shown = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True
    ).stdout
    assert shown.startswith("R6: ") and "face_kept" not in shown
