"""The offline app, built: a static folder that any web server can serve (``pickomino
build-app OUT``, and ``pickomino serve`` at ``/app``), which then works with no server and no
network. It holds the score keeper's page and the table page for solo games against the bots
(the web app's own pages, their links made relative),
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
import mimetypes
import os
import shutil
import subprocess
import tarfile
import tempfile
import zipfile
from importlib.resources import files
from pathlib import Path
from string import Template

from fastapi import APIRouter
from fastapi.responses import FileResponse, RedirectResponse, Response

from pickomino.core import PickominoError
from pickomino.i18n import LANGUAGES, catalogue
from pickomino.offline.answers import options
from pickomino.web.api.pages import Bar, Page
from pickomino.web.api.words import rules_html
from pickomino.web.errors import refused

mimetypes.add_type("text/javascript", ".mjs")  # Pyodide's modules (Python 3.11 knows no .mjs)
mimetypes.add_type("application/manifest+json", ".webmanifest")
#: The Pyodide release the app runs on, and the npm registry's checksum of its package.
PYODIDE = "314.0.8"
PYODIDE_SHA512 = (
    "74Wq1kXOC+CCEzAfxuRAO701nAcCMLjf8NrwvWpu8S41dVMXwXmLQ05dYB+F4e46AdnGo0oq7YHSVUpHsoarLQ=="
)
#: How long fetching Pyodide may take (``pickomino serve`` waits for it once, at its start).
FETCH_SECONDS = 120
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
    'href="/mine"': 'href="play.html"',  # "My games": the solo games kept in this browser
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


def build(out: Path, runtime: Path | None = None) -> Path:
    """Write the app into ``out`` (created; a folder built before is replaced) and return it.
    ``runtime``: a folder holding Pyodide's files, else they come from the cache (fetched from
    the npm registry the first time). Checks ``out`` before any download."""
    out = out.resolve()
    check_destination(out)
    runtime = _checked_runtime(runtime) if runtime else pyodide_runtime()
    with tempfile.TemporaryDirectory(dir=out.parent, prefix=".pickomino-app-") as work:
        folder = Path(work) / "app"
        for name, content in app_files(runtime).items():
            path = folder / name
            path.parent.mkdir(parents=True, exist_ok=True)
            if isinstance(content, Path):
                shutil.copyfile(content, path)
            else:
                path.write_bytes(content)
        (folder / MARK).write_text(f"pickomino offline app, Pyodide {PYODIDE}\n", encoding="utf-8")
        if out.exists():
            shutil.rmtree(out)
        folder.rename(out)
    return out


def check_destination(out: Path) -> None:
    """Refuse a destination the app cannot be built in, before any download."""
    out = out.resolve()
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
        raise BuildError("runtime_incomplete", path=str(folder), missing=", ".join(missing))
    return folder


def runtime_cached() -> bool:
    """Whether Pyodide's files are in the cache already (no download to announce)."""
    return all((cache_folder() / f"pyodide-{PYODIDE}" / name).is_file() for name in RUNTIME_FILES)


def pyodide_runtime() -> Path:
    """Pyodide's files in the cache, fetched with npm the first time and checked against the
    registry's checksum (SHA-512) written here."""
    folder = cache_folder() / f"pyodide-{PYODIDE}"
    if runtime_cached():
        return folder
    npm = shutil.which("npm")
    if npm is None:
        raise BuildError("runtime_needs_npm", version=PYODIDE)
    try:
        return _fetched_runtime(npm, folder)
    except OSError as error:  # a cache folder that cannot be written
        raise BuildError("app_folder_unwritable", path=str(folder), why=error.strerror) from None
    except subprocess.TimeoutExpired:
        raise BuildError("runtime_fetch_timeout", version=PYODIDE, seconds=FETCH_SECONDS) from None


def _fetched_runtime(npm: str, folder: Path) -> Path:
    folder.parent.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory(dir=folder.parent) as work:
        fetched = subprocess.run(
            [npm, "pack", f"pyodide@{PYODIDE}", "--pack-destination", work, "--silent"],
            capture_output=True,
            text=True,
            timeout=FETCH_SECONDS,
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
        try:
            unpacked.rename(folder)
        except OSError:  # another build was quicker: its files are the same, checked alike
            if not runtime_cached():
                raise
    return folder


def app_files(runtime: Path) -> dict[str, Path | bytes]:
    """Every file of the app by its path in the app's folder: a file to copy as it is, or the
    bytes made here (the pages, the words, the package, the service worker)."""
    found: dict[str, Path | bytes] = {}
    for source in sorted((WEB / "static").iterdir()):
        found[f"static/{source.name}"] = source
    for source in sorted(OFFLINE.iterdir()):
        at_top = source.suffix in (".png", ".webmanifest")
        found[source.name if at_top else f"static/{source.name}"] = source
    del found["static/sw.js"]  # made below, with the list of files to keep
    for name in RUNTIME_FILES:
        found[f"pyodide/{name}"] = runtime / name
    found["pickomino.zip"] = package = package_zip()
    # what the page can have before Python is up: the set-up form's options, and which
    # package made a stored sheet's view (a view made by another version is not shown)
    engine = {"package": hashlib.sha256(package).hexdigest()[:16], "options": options()}
    found["engine.json"] = json.dumps(engine).encode()
    found["index.html"] = app_page(Page("keeper", (), None), "app").encode()
    found["play.html"] = app_page(Page("game", (), None), "play").encode()
    found["rules.html"] = app_page(
        Page("rules", (), Bar("page.rules", ("keeper",))), "rules"
    ).encode()
    found["i18n/languages.json"] = json.dumps(LANGUAGES).encode()
    for language in LANGUAGES:
        for kind in ("game", "web"):
            words = json.dumps(catalogue(language, kind), ensure_ascii=False).encode()
            found[f"i18n/{language}/{kind}.json"] = words
        found[f"i18n/{language}/rules.html"] = rules_html(language).encode()
    found["sw.js"] = service_worker(found)
    return found


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


def service_worker(files: dict[str, Path | bytes]) -> bytes:
    """sw.js with the list of every file to keep, and a name made of their contents."""
    digest = hashlib.sha256()
    for name in sorted(files):
        content = files[name]
        digest.update(name.encode() + b"\0")
        digest.update(content.read_bytes() if isinstance(content, Path) else content)
    script = Template((OFFLINE / "sw.js").read_text(encoding="utf-8"))
    listed = json.dumps(["./", *sorted(files)], indent=2)
    return script.substitute(version=digest.hexdigest()[:16], files=listed).encode()


def offline_app_router(runtime: Path) -> APIRouter:
    """``/app/``: the app served by ``pickomino serve`` (made once, when the server starts)."""
    made = app_files(runtime)
    router = APIRouter(include_in_schema=False)

    @router.get("/app")
    async def app_root() -> RedirectResponse:
        return RedirectResponse("/app/")  # the app's addresses are relative to its folder

    @router.api_route("/app/{path:path}", methods=["GET", "HEAD"])
    async def app_file(path: str) -> Response:
        content = made.get(path or "index.html")
        if content is None:
            raise refused(404, "no_app_file")
        kind = mimetypes.guess_type(path or "index.html")[0] or "application/octet-stream"
        if isinstance(content, Path):
            return FileResponse(content, media_type=kind)
        return Response(content, media_type=kind)

    return router
