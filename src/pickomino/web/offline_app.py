"""The offline app, built: a static folder that any web server can serve (``pickomino
build-app OUT``, and ``pickomino serve`` at ``/app``), which then works with no server and no
network. It holds the score keeper's page (this app's own pages, their links made relative),
the pages' scripts and words, the pure-Python package (``pickomino.zip``: the core, the table,
the solver, the bots and :mod:`pickomino.offline`), Pyodide's runtime (from the npm registry,
checked against its published checksum and kept in the user's cache folder), a web app
manifest with icons, and a service worker that keeps all of it on the first visit.
"""

from __future__ import annotations

import base64
import hashlib
import io
import json
import os
import shutil
import subprocess
import tarfile
import tempfile
import zipfile
from importlib.resources import files
from pathlib import Path
from string import Template

from pickomino.core import PickominoError
from pickomino.i18n import LANGUAGES, catalogue
from pickomino.web.api.pages import Bar, Page
from pickomino.web.api.words import rules_html

#: The Pyodide release the app runs on, and the npm registry's checksum of its package.
PYODIDE = "314.0.8"
PYODIDE_SHA512 = (
    "74Wq1kXOC+CCEzAfxuRAO701nAcCMLjf8NrwvWpu8S41dVMXwXmLQ05dYB+F4e46AdnGo0oq7YHSVUpHsoarLQ=="
)
#: What of the package the browser needs: the runtime, its standard library, its lock file.
RUNTIME_FILES = (
    "pyodide.mjs",
    "pyodide.asm.mjs",
    "pyodide.asm.wasm",
    "python_stdlib.zip",
    "pyodide-lock.json",
)
#: The parts of the package that run in the browser (pure Python, no NumPy needed), and the
#: evaluator, whose import stops at NumPy: the bots that need it are then left out.
BROWSER_PACKAGES = ("core", "solver", "table", "bots", "evaluation", "offline")
#: Marks a folder as a built app: building again into it replaces it; any other folder that
#: holds something is refused, so that nothing of the user's is overwritten.
MARK = ".pickomino-app"
PACKAGE = Path(str(files("pickomino")))
WEB = PACKAGE / "web"
OFFLINE = PACKAGE / "offline" / "static"
#: The server's addresses in the pages, and the app's (relative, so the folder works anywhere).
ADDRESSES = {
    'href="/"': 'href="./"',
    'href="/keeper"': 'href="./"',
    'href="/rules"': 'href="rules.html"',
    'href="/static/': 'href="static/',
    'src="/static/': 'src="static/',
}
HEAD = (
    '<link rel="manifest" href="manifest.webmanifest" />\n'
    '    <link rel="apple-touch-icon" href="icon-192.png" />\n'
    '    <meta name="theme-color" content="#a8452a" />\n'
    "    <title"
)


class BuildError(PickominoError):
    """The app cannot be built where asked, or its runtime cannot be had."""


def cache_folder() -> Path:
    """Where downloads are kept between builds: ``$XDG_CACHE_HOME/pickomino``."""
    root = os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache"
    return Path(root) / "pickomino"


def build_app(out: Path, runtime: Path | None = None) -> Path:
    """Write the app into ``out`` (created; a folder built before is replaced) and return it.
    ``runtime``: a folder holding Pyodide's files, else they come from the cache (fetched from
    the npm registry the first time). Checks ``out`` before any download."""
    out = out.resolve()
    _check_destination(out)
    runtime = _checked_runtime(runtime) if runtime else pyodide_runtime()
    with tempfile.TemporaryDirectory(dir=out.parent, prefix=".pickomino-app-") as work:
        folder = Path(work) / "app"
        _write_app(folder, runtime)
        if out.exists():
            shutil.rmtree(out)
        folder.rename(out)
    return out


def _check_destination(out: Path) -> None:
    if out.exists() and not out.is_dir():
        raise BuildError("app_not_a_folder", path=str(out))
    if out.is_dir() and any(out.iterdir()) and not (out / MARK).exists():
        raise BuildError("app_folder_not_empty", path=str(out))
    try:
        out.parent.mkdir(parents=True, exist_ok=True)
        tempfile.TemporaryFile(dir=out.parent).close()
    except OSError as error:
        raise BuildError("app_folder_unwritable", path=str(out), why=error.strerror) from None


def _checked_runtime(folder: Path) -> Path:
    missing = [name for name in RUNTIME_FILES if not (folder / name).is_file()]
    if missing:
        raise BuildError("runtime_incomplete", path=str(folder), missing=missing)
    return folder


def pyodide_runtime() -> Path:
    """Pyodide's files in the cache, fetched with npm the first time and checked against the
    registry's checksum (SHA-512) written here."""
    folder = cache_folder() / f"pyodide-{PYODIDE}"
    if all((folder / name).is_file() for name in RUNTIME_FILES):
        return folder
    npm = shutil.which("npm")
    if npm is None:
        raise BuildError("runtime_needs_npm", version=PYODIDE)
    folder.parent.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory(dir=folder.parent) as work:
        fetched = subprocess.run(
            [npm, "pack", f"pyodide@{PYODIDE}", "--pack-destination", work, "--silent"],
            capture_output=True,
            text=True,
        )
        tarballs = list(Path(work).glob("*.tgz"))
        if fetched.returncode or len(tarballs) != 1:
            why = (fetched.stderr.strip().splitlines() or ["no package"])[-1]
            raise BuildError("runtime_not_fetched", version=PYODIDE, why=why[:200])
        data = tarballs[0].read_bytes()
        if base64.b64encode(hashlib.sha512(data).digest()).decode() != PYODIDE_SHA512:
            raise BuildError("runtime_checksum", version=PYODIDE)
        unpacked = Path(work) / "runtime"
        unpacked.mkdir()
        with tarfile.open(fileobj=io.BytesIO(data)) as archive:
            for name in RUNTIME_FILES:
                member = archive.extractfile(f"package/{name}")
                if member is None:
                    raise BuildError(
                        "runtime_incomplete", path=f"pyodide@{PYODIDE}", missing=[name]
                    )
                (unpacked / name).write_bytes(member.read())
        if not folder.exists():  # another build may have been quicker: its files are the same
            unpacked.rename(folder)
    return folder


def _write_app(folder: Path, runtime: Path) -> None:
    static = folder / "static"
    shutil.copytree(WEB / "static", static)
    for source in OFFLINE.iterdir():
        at_top = source.suffix in (".png", ".webmanifest") or source.name == "sw.js"
        shutil.copy2(source, folder / source.name if at_top else static / source.name)
    shutil.copytree(
        runtime, folder / "pyodide", ignore=lambda _, names: set(names) - set(RUNTIME_FILES)
    )
    (folder / "pickomino.zip").write_bytes(package_zip())
    (folder / "index.html").write_text(app_page(Page("keeper", (), None), "app"), encoding="utf-8")
    rules = Page("rules", (), Bar("page.rules", ("keeper",)))
    (folder / "rules.html").write_text(app_page(rules, "rules"), encoding="utf-8")
    words = folder / "i18n"
    words.mkdir()
    (words / "languages.json").write_text(json.dumps(LANGUAGES), encoding="utf-8")
    for language in LANGUAGES:
        (words / language).mkdir()
        for kind in ("game", "web"):
            text = json.dumps(catalogue(language, kind), ensure_ascii=False)
            (words / language / f"{kind}.json").write_text(text, encoding="utf-8")
        (words / language / "rules.html").write_text(rules_html(language), encoding="utf-8")
    (folder / MARK).write_text(f"pickomino offline app, Pyodide {PYODIDE}\n", encoding="utf-8")
    _write_service_worker(folder)


def app_page(page: Page, script: str) -> str:
    """A page of the web app made a page of this app: its module ``static/{script}.js``, its
    links to the app's own pages (relative), the manifest; marked ``data-offline``."""
    html = page.render().replace(f'src="/static/{page.name}.js"', f'src="static/{script}.js"')
    for server, here in ADDRESSES.items():
        html = html.replace(server, here)
    html = html.replace('class="wordless">', 'class="wordless" data-offline>', 1)
    html = html.replace("<title", HEAD, 1)
    if 'href="/' in html or 'src="/' in html:  # a link that would leave the app
        raise AssertionError(f"{page.name}: an address of the server is left in the app's page")
    return html


def package_zip() -> bytes:
    """The package's pure-Python parts as a zip Python imports from (fixed dates: the same
    source gives the same bytes, so the service worker sees a change only when there is one)."""
    buffer = io.BytesIO()
    sources = [PACKAGE / "__init__.py"]
    for part in BROWSER_PACKAGES:
        sources += sorted((PACKAGE / part).rglob("*.py"))
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as archive:
        for source in sources:
            name = f"pickomino/{source.relative_to(PACKAGE).as_posix()}"
            archive.writestr(zipfile.ZipInfo(name, (2026, 1, 1, 0, 0, 0)), source.read_bytes())
    return buffer.getvalue()


def _write_service_worker(folder: Path) -> None:
    """sw.js with the list of every file to keep, and a name made of their contents."""
    names = sorted(
        path.relative_to(folder).as_posix()
        for path in folder.rglob("*")
        if path.is_file() and path.name not in ("sw.js", MARK)
    )
    digest = hashlib.sha256()
    for name in names:
        digest.update(name.encode() + b"\0" + (folder / name).read_bytes())
    worker = folder / "sw.js"
    script = Template(worker.read_text(encoding="utf-8"))
    listed = json.dumps(["./", *names], indent=2)
    worker.write_text(
        script.substitute(version=digest.hexdigest()[:16], files=listed), encoding="utf-8"
    )
