"""The manual: the README (a front page) and the pages in docs/, built as an MkDocs site.

The site must build with ``--strict`` (a broken link, anchor or API reference fails it), and
every file the pages name must exist: the docs cite what is committed, or drop the claim.
"""

import re
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PAGES = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]
#: a path into the repository as the pages write it: docs/…, benchmarks/…, scripts/…, src/…
PATH = re.compile(r"(?<![\w./-])(?:docs|benchmarks|scripts|src)/[\w./-]*")


def mentioned_paths(text: str) -> set[str]:
    """The repository paths a page names, without placeholders (``<code>``) or globs."""
    paths = set()
    for match in PATH.finditer(text):
        path, after = match.group().rstrip("."), text[match.end() : match.end() + 1]
        if after not in ("<", "*", "…"):
            paths.add(path)
    return paths


def test_the_docs_site_builds_strict_without_a_warning(tmp_path):
    built = subprocess.run(
        [sys.executable, "-m", "mkdocs", "build", "--strict", "--site-dir", str(tmp_path / "site")],
        cwd=ROOT,
        capture_output=True,
        text=True,
        env={"PATH": "/usr/bin:/bin", "NO_MKDOCS_2_WARNING": "1"},
    )
    log = built.stdout + built.stderr
    assert built.returncode == 0, log
    assert "WARNING" not in log, log
    assert (tmp_path / "site" / "api" / "index.html").read_text().count("pickomino.core.rules") > 0
    assert (tmp_path / "site" / "rules" / "fi" / "index.html").exists()


def test_every_file_the_docs_name_exists():
    missing = {
        f"{page.name}: {path}"
        for page in PAGES
        for path in mentioned_paths(page.read_text(encoding="utf-8"))
        if not (ROOT / path).exists()
    }
    assert not missing, sorted(missing)


def test_mentioned_paths_reads_paths_and_skips_placeholders():
    text = "`docs/rules.md`, src/pickomino/i18n/<code>/ and benchmarks/web_load.py; not mydocs/x."
    assert mentioned_paths(text) == {"docs/rules.md", "benchmarks/web_load.py"}
