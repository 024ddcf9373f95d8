"""The package as ``pip install pickomino`` gets it: a wheel built from this checkout holds
every file of ``src/pickomino`` (the win-value networks, the pages and the offline app's
scripts, the words, the migrations), not only the modules: an editable install, which the
project's own scripts use, would never show a file left out."""

from __future__ import annotations

import shutil
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]


@pytest.mark.slow  # builds a wheel (setuptools in uv's isolated environment)
def test_the_wheel_holds_every_file_of_the_package(tmp_path: Path) -> None:
    checkout = tmp_path / "checkout"  # a copy: the build leaves build/ and egg-info behind
    shutil.copytree(
        ROOT / "src", checkout / "src", ignore=shutil.ignore_patterns("__pycache__", "*.egg-info")
    )
    for name in ("pyproject.toml", "README.md"):
        shutil.copyfile(ROOT / name, checkout / name)
    package = checkout / "src"
    files = {path.relative_to(package).as_posix() for path in package.rglob("*") if path.is_file()}
    subprocess.run(
        [sys.executable, "-m", "uv", "build", "--wheel", "--out-dir", str(tmp_path / "dist")],
        cwd=checkout, check=True, capture_output=True, timeout=300,
    )  # fmt: skip
    (wheel,) = (tmp_path / "dist").glob("pickomino-*.whl")
    with zipfile.ZipFile(wheel) as built:
        shipped = set(built.namelist())
    assert files, "the copy holds no file"
    assert sorted(files - shipped) == []
