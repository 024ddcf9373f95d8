"""The offline app, built: a static folder that any web server can serve. It holds the score
keeper's page and the table page for solo games against the bots (the web app's own pages,
their links made relative), the pages' scripts and words, the pure-Python package
(``pickomino.zip``: the core, the table, the solver, the bots and :mod:`pickomino.offline`),
Pyodide's runtime (:mod:`.runtime`) with its standard library and the package compiled to
bytecode (:mod:`.bytecode`), a web app manifest with icons, and a service worker that keeps
all of it on the first visit.
"""

from __future__ import annotations

import hashlib
import io
import json
import shutil
import tempfile
import zipfile
from collections.abc import Callable
from importlib.resources import files
from pathlib import Path
from string import Template

from pickomino.core import PickominoError
from pickomino.i18n import LANGUAGES, catalogue
from pickomino.offline.answers import options
from pickomino.web.api.pages import Bar, Page
from pickomino.web.api.words import rules_html
from pickomino.web.offline_app.bytecode import compiled_package, standard_library
from pickomino.web.offline_app.runtime import (
    PYODIDE,
    RUNTIME_FILES,
    BuildError,
    checked_runtime,
    pyodide_runtime,
)

#: The parts of the package that run in the browser (pure Python, no NumPy needed), and the
#: evaluator, whose import stops at NumPy: the bots that need it are then left out.
BROWSER_PACKAGES = ("core", "solver", "table", "bots", "evaluation", "offline")
#: The package's own modules those parts import (``files``: a session's save).
BROWSER_MODULES = ("__init__.py", "files.py")
#: Marks a folder as a built app, and lists the app's files: building again into it replaces
#: them (keeping any other file put there since: a CNAME, say); any other folder that holds
#: something is refused, so that nothing of the user's is overwritten.
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
#: Told why the app's Python will start more slowly than it could (see :mod:`.bytecode`).
Note = Callable[[PickominoError], None] | None
HEAD = (
    '<link rel="manifest" href="manifest.webmanifest" />\n'
    '    <link rel="apple-touch-icon" href="icon-192.png" />\n'
    '    <meta name="theme-color" content="#a8452a" />\n'
    "    <title"
)


def build(out: Path, runtime: Path | None = None, note: Note = None) -> Path:
    """Write the app into ``out`` (created; a folder built before is replaced, keeping the
    files put there since) and return it.
    ``runtime``: a folder holding Pyodide's files, else they come from the cache (fetched from
    the npm registry the first time). Checks ``out`` before any download. ``note`` is told
    why the app's Python is not compiled to bytecode, if it is not."""
    out = out.resolve()
    runtime = checked_runtime(runtime) if runtime else None
    check_destination(out)
    runtime = runtime or pyodide_runtime()
    made = app_files(runtime, note)
    try:
        out.parent.mkdir(parents=True, exist_ok=True)
        with tempfile.TemporaryDirectory(dir=out.parent, prefix=".pickomino-app-") as work:
            folder = Path(work) / "app"
            for name, content in made.items():
                path = folder / name
                path.parent.mkdir(parents=True, exist_ok=True)
                if isinstance(content, Path):
                    shutil.copyfile(content, path)
                else:
                    path.write_bytes(content)
            # a CNAME, say: what the app did not put there (a newer version's file wins)
            for name in set(users_files(out)) - set(made):
                (folder / name).parent.mkdir(parents=True, exist_ok=True)
                shutil.copy2(out / name, folder / name)
            mark = [f"pickomino offline app, Pyodide {PYODIDE}", *sorted(made)]
            (folder / MARK).write_text("\n".join(mark) + "\n", encoding="utf-8")
            put_in_place(folder, out, aside=Path(work) / "old")
    except OSError as error:  # a full disk, say: the folder as it was, or none
        raise BuildError("app_folder_unwritable", path=str(out), why=error) from None
    return out


def put_in_place(folder: Path, out: Path, aside: Path) -> None:
    """``folder`` becomes ``out``; an ``out`` there before is moved ``aside`` first, and back
    if the new one cannot take its place (it is deleted with ``aside``'s folder after)."""
    if out.exists():
        out.rename(aside)
    try:
        folder.rename(out)
    except OSError:
        if aside.exists():
            aside.rename(out)
        raise


def users_files(out: Path) -> list[str]:
    """The files in a folder built before that the app did not put there (its mark lists the
    app's files): kept when it is built again. A mark from before the list: none."""
    mark = out / MARK
    if not mark.is_file():
        return []
    listed = set(mark.read_text(encoding="utf-8").splitlines()[1:])
    if not listed:
        return []
    found = (path.relative_to(out).as_posix() for path in out.rglob("*") if path.is_file())
    return sorted(name for name in found if name not in listed and name != MARK)


def check_destination(out: Path) -> None:
    """Refuse a destination the app cannot be built in, before any download; the folders
    it lacks are not made yet (a build refused later leaves none behind): the nearest one
    there must take a new file."""
    out = out.resolve()
    if out.exists() and not out.is_dir():
        raise BuildError("app_not_a_folder", path=str(out))
    if out.is_dir() and any(out.iterdir()) and not (out / MARK).exists():
        raise BuildError("app_folder_not_empty", path=str(out))
    there = next(folder for folder in out.parents if folder.exists())
    try:
        tempfile.TemporaryFile(dir=there).close()
    except OSError as error:
        raise BuildError("app_folder_unwritable", path=str(out), why=error) from None


def app_files(runtime: Path, note: Note = None) -> dict[str, Path | bytes]:
    """Every file of the app by its path in the app's folder: a file to copy as it is, or the
    bytes made here (the pages, the words, the package, the service worker). ``note``: as for
    :func:`build`."""
    found: dict[str, Path | bytes] = {}
    for source in sorted((WEB / "static").iterdir()):
        found[f"static/{source.name}"] = source
    for source in sorted(OFFLINE.iterdir()):
        at_top = source.suffix in (".png", ".webmanifest")
        found[source.name if at_top else f"static/{source.name}"] = source
    del found["static/sw.js"]  # made below, with the list of files to keep
    for name in RUNTIME_FILES:
        found[f"pyodide/{name}"] = runtime / name
    found["pyodide/python_stdlib.zip"], slower = standard_library(runtime)
    package = package_zip()
    found["pickomino.zip"], slower_package = compiled_package(runtime, package)
    reason = slower or slower_package  # told once: mostly the same for both
    if note and reason:
        note(reason)
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
    sources = [PACKAGE / module for module in BROWSER_MODULES]
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
