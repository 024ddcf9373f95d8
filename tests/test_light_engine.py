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


@pytest.mark.parametrize(
    ("missing", "args", "extra"),
    [
        ("uvicorn", ["serve", "--port", "1"], "web"),
        ("matplotlib", ["odds", "--plot", "odds.png"], "plot"),
    ],
)
def test_a_face_left_out_of_a_light_install_is_named_with_its_extra(
    monkeypatch, tmp_path, missing, args, extra
):
    """As in an install without the extra: the command says what to install, and nothing
    is started or written."""
    from click.testing import CliRunner

    from pickomino.cli import main

    monkeypatch.chdir(tmp_path)
    monkeypatch.setitem(sys.modules, missing, None)  # `import missing` now fails
    result = CliRunner().invoke(main, args)
    assert result.exit_code == 2, result.output
    assert f"pip install 'pickomino[{extra}]'" in result.output
    assert list(tmp_path.iterdir()) == []


def test_the_light_install_asks_for_no_face_library():
    """pyproject's own dependencies (the light install) name no face's library; each face's
    libraries come in its extra, and ``all`` brings every face."""
    import re
    import tomllib
    from pathlib import Path

    project = tomllib.loads(Path(__file__).parents[1].joinpath("pyproject.toml").read_text())
    extras = project["project"]["optional-dependencies"]

    def names(requirements: list[str]) -> set[str]:
        return {re.split(r"[\[<>=~ ]", requirement)[0] for requirement in requirements}

    faces = {
        "web": {"fastapi", "uvicorn", "sqlalchemy", "psycopg", "openskill", "markdown-it-py"},
        "terminal": {"textual"},
        "plot": {"matplotlib"},
    }
    for extra, libraries in faces.items():
        assert libraries <= names(extras[extra])
        assert not libraries & names(project["project"]["dependencies"])
    assert extras["all"] == ["pickomino[web,terminal,plot]"]
