"""The offline app (``pickomino build-app``): built as users build it, served as plain files
by a file server on loopback, opened once in the system Chromium, then used with the network
cut off: a score sheet with a steal, a bust and an undo, the dice helper's advice, all kept
across reloads. The engine in the page is the package itself (Pyodide): what the browser
stored and answered is what the package answers natively. Also: the folder's contents and
budget, the build's refusals, and the same app served by ``pickomino serve`` at ``/app/``."""

from __future__ import annotations

import functools
import http.server
import json
import re
import resource
import shutil
import subprocess
import sys
import threading
import zipfile
from collections.abc import Iterator
from pathlib import Path

import pytest
from click.testing import CliRunner
from playwright.sync_api import Page, expect

from pickomino.cli import main
from pickomino.core import Game, GameRecord
from pickomino.offline.solo import SoloTable
from pickomino.solver.advice import advice_report
from pickomino.table.sheet import ScoreSheet
from pickomino.table.sheet_requests import advise
from pickomino.table.view import sheet_view
from pickomino.web.offline_app import MARK, RUNTIME_FILES, pyodide_runtime
from pickomino.web.offline_app.bytecode import standard_library

from .browser import PHONE, Pages
from .clicking import grill_tile, play_one_action, play_until_over, player, tap
from .server_process import ServerProcess, wait_until
from .test_accessibility_browser import axe_violations

#: What a static host without compression sends on the first visit, at most (issue 28).
BUDGET_BYTES = 20_000_000
#: Starting Pyodide in a worker takes a few seconds on a loaded 2-core machine.
ENGINE_MS = 60_000


def build(out: Path, *more: str) -> tuple[int, str]:
    result = CliRunner().invoke(main, ["build-app", str(out), *more])
    return result.exit_code, result.output


@pytest.fixture(scope="module")
def app_folder(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("offline") / "app"
    code, said = build(out)
    assert code == 0, said
    assert f"Offline app written to {out}" in said
    return out


class QuietFiles(http.server.SimpleHTTPRequestHandler):
    def log_message(self, *args: object) -> None:  # the test's output is for failures
        pass


@pytest.fixture
def static_site(app_folder: Path, tmp_path: Path) -> Iterator[tuple[str, Path]]:
    """A copy of the folder (a test may put a new version in it) on a plain file server, as a
    static host serves it (no Python of ours): its address and the folder."""
    folder = tmp_path / "site"
    shutil.copytree(app_folder, folder)
    handler = functools.partial(QuietFiles, directory=str(folder))
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{server.server_port}/", folder
    server.shutdown()
    thread.join()


def test_the_folder_holds_every_file_the_service_worker_keeps_within_the_budget(
    app_folder: Path,
) -> None:
    files = {p.relative_to(app_folder).as_posix() for p in app_folder.rglob("*") if p.is_file()}
    worker = (app_folder / "sw.js").read_text(encoding="utf-8")
    kept = json.loads(worker[worker.index("const FILES = ") + 14 : worker.index("];") + 1])
    assert set(kept) == files - {"sw.js", MARK} | {"./"}
    assert {f"pyodide/{name}" for name in RUNTIME_FILES} <= files
    assert {"index.html", "rules.html", "manifest.webmanifest", "icon-512.png"} <= files
    for language in json.loads((app_folder / "i18n/languages.json").read_text()):
        assert {
            f"i18n/{language}/{kind}" for kind in ("game.json", "web.json", "rules.html")
        } <= files
    assert sum((app_folder / name).stat().st_size for name in files) <= BUDGET_BYTES
    manifest = json.loads((app_folder / "manifest.webmanifest").read_text())
    assert {icon["sizes"] for icon in manifest["icons"]} >= {"192x192", "512x512"}


def test_the_package_in_the_folder_answers_alone_without_numpy(app_folder: Path) -> None:
    """The zip the browser imports, in an interpreter that has nothing else of ours (no site
    packages: no installed pickomino, no NumPy): it makes a sheet, enters and advises."""
    code = (
        "import json, sys\n"
        f"sys.path.insert(0, {str(app_folder / 'pickomino.zip')!r})\n"
        "from pickomino.offline.answers import answer\n"
        "made = json.loads(answer('POST', '/api/sheets', '{\"names\": [\"Ann\", \"Bob\"]}'))\n"
        "path = '/api/sheets/' + made['keep']['id']\n"
        "taken = json.loads(answer('POST', path + '/entries', '{\"entry\": \"take 21\"}',"
        " made['keep']['data']))\n"
        "advice = json.loads(answer('POST', path + '/dice', '{\"rolled\": \"1135WW44\"}',"
        " taken['keep']['data']))\n"
        "print(json.dumps([taken['status'], advice['data']['best'], 'numpy' in sys.modules]))\n"
    )
    done = subprocess.run([sys.executable, "-I", "-S", "-c", code], capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    status, best, numpy = json.loads(done.stdout)
    assert (status, numpy) == (200, False)
    with zipfile.ZipFile(app_folder / "pickomino.zip") as archive:
        assert not [name for name in archive.namelist() if name.startswith("pickomino/web/")]
    state = ScoreSheet(["Ann", "Bob"])
    state.enter("take 21")
    assert best == advise(state, "", "1135WW44", advice_report)["best"]


def test_the_build_refuses_a_folder_it_would_spoil_before_any_download(tmp_path: Path) -> None:
    kept = tmp_path / "photos"
    kept.mkdir()
    (kept / "holiday.jpg").write_bytes(b"\xff\xd8")
    a_file = tmp_path / "notes.txt"
    a_file.write_text("mine")
    runtime = tmp_path / "runtime"
    runtime.mkdir()
    (runtime / "pyodide.mjs").write_text("")
    for out, more, words in [
        (kept, (), "holds other files"),
        (a_file, (), "is a file, not a folder"),
        (a_file / "app", (), "cannot write the app"),
        (tmp_path / "new", ("--runtime", str(runtime)), "lacks Pyodide's files: pyodide.asm.mjs"),
        (tmp_path / "new" / "sub" / "app", ("--runtime", str(runtime)), "lacks Pyodide's files"),
    ]:
        code, said = build(out, *more)
        assert code == 1 and words in said and "Traceback" not in said, said
    assert [p.name for p in kept.iterdir()] == ["holiday.jpg"] and a_file.read_text() == "mine"
    assert not (tmp_path / "new").exists()
    code, said = build(tmp_path / "new", "--runtime", str(tmp_path / "nowhere"))
    assert code == 2 and "does not exist" in said


def test_building_again_replaces_the_app_built_before_and_keeps_files_put_there(
    tmp_path: Path,
) -> None:
    """The app's files are replaced; a file put there since (an audit: a CNAME for the
    static host was deleted) is kept; nothing else is left behind."""
    out = tmp_path / "app"
    runtime = str(pyodide_runtime())  # from the cache: no second download
    assert build(out, "--runtime", runtime)[0] == 0
    (out / "index.html").write_text("stale")
    (out / "CNAME").write_text("pickomino.example.org")
    (out / "static" / "mine.css").write_text("body {}")
    assert build(out, "--runtime", runtime)[0] == 0
    assert "static/app.js" in (out / "index.html").read_text()
    assert (out / "CNAME").read_text() == "pickomino.example.org"
    assert (out / "static" / "mine.css").read_text() == "body {}"
    assert [path.name for path in tmp_path.iterdir()] == ["app"]


def test_a_build_that_cannot_be_written_whole_leaves_the_app_before_as_it_was(
    tmp_path: Path,
) -> None:
    """An audit: a full disk ended the build in a traceback. It is a clear error, and the
    app built before stays whole (here a limit on the size of the files written, as a full
    disk: Pyodide's files are larger)."""
    out = tmp_path / "app"
    runtime = str(pyodide_runtime())
    assert build(out, "--runtime", runtime)[0] == 0
    before = sorted(path.relative_to(out) for path in out.rglob("*"))

    def limited() -> None:
        resource.setrlimit(resource.RLIMIT_FSIZE, (1_000_000, 1_000_000))

    done = subprocess.run(
        [sys.executable, "-m", "pickomino", "build-app", str(out), "--runtime", runtime],
        capture_output=True, text=True, timeout=300, preexec_fn=limited,
    )  # fmt: skip
    assert done.returncode == 1 and "Traceback" not in done.stderr, done.stderr
    assert f"cannot write the app to {out}: File too large" in done.stderr
    assert sorted(path.relative_to(out) for path in out.rglob("*")) == before
    assert [path.name for path in tmp_path.iterdir()] == ["app"]


def engine_ready(page: Page) -> None:
    """The set-up form works once the engine has answered the options it shows."""
    expect(page.get_by_test_id("create-sheet")).to_be_enabled(timeout=ENGINE_MS)


def opened_then_offline(pages: Pages, address: str) -> Page:
    """The app opened once on a phone, the network then cut off."""
    phone = pages.open(address, PHONE)
    engine_ready(phone)
    # the service worker has kept every file once it controls the page
    phone.wait_for_function("navigator.serviceWorker.controller !== null", timeout=ENGINE_MS)
    phone.context.set_offline(True)
    return phone


@pytest.mark.slow
def test_kept_offline_a_steal_a_bust_an_undo_and_advice_then_a_new_version(
    static_site: tuple[str, Path], pages: Pages, tmp_path: Path
) -> None:
    """Then a new build's service worker (the same files under a new cache name) installs,
    takes over and deletes the old cache, and the sheets stay; a stored sheet that no longer
    reads is said to be damaged, and stays stored."""
    address, folder = static_site
    with pages.checked():
        phone = opened_then_offline(pages, address)
        phone.reload()
        engine_ready(phone)

        names = phone.get_by_test_id("name-input")
        names.nth(0).fill("Ann")
        names.nth(1).fill("Bob")
        phone.get_by_test_id("add-name").click()
        names.nth(2).fill("Cy")
        phone.get_by_test_id("create-sheet").click()
        sheet = phone.get_by_test_id("sheet")
        expect(sheet).to_have_attribute("data-count", "0", timeout=ENGINE_MS)
        sheet_id = phone.evaluate("decodeURIComponent(location.hash.slice(1))")
        expect(phone.get_by_test_id("share")).to_be_hidden()  # a sheet of this browser only

        tap(phone, "take 27")
        top = player(phone, 0).get_by_test_id("stack-top")  # Bob steals it from Ann
        expect(top).to_have_attribute("data-entry", "steal 27")
        top.click()
        expect(sheet).to_have_attribute("data-count", "2")
        expect(player(phone, 1).get_by_test_id("player-worms")).to_have_text("2")
        tap(phone, "take 22")
        tap(phone, "bust")  # Ann has nothing to return
        tap(phone, "bust")  # Bob returns 27, and 36 is turned face down (R16)
        expect(grill_tile(phone, 36)).to_have_attribute("data-where", "down")
        expect(grill_tile(phone, 27)).to_have_attribute("data-where", "grill")
        phone.get_by_test_id("undo-button").click()
        expect(sheet).to_have_attribute("data-count", "4")
        expect(grill_tile(phone, 36)).to_have_attribute("data-where", "grill")
        expect(player(phone, 1).get_by_test_id("stack-top")).to_have_attribute("data-tile", "27")
        expect(phone.get_by_test_id("turn-who")).to_contain_text("Bob to play")

        phone.get_by_test_id("dice-helper-toggle").click()
        rolled = phone.get_by_test_id("rolled-add")
        for face in "1135WW44":
            rolled.locator(f'[data-face="{face}"]').click()
        phone.get_by_test_id("advise-button").click()
        best = phone.get_by_test_id("advice-best")
        expect(best).to_have_attribute("data-action", re.compile("^keep "), timeout=ENGINE_MS)
        expect(best).not_to_contain_text("chance to win")  # no network offline
        in_browser = phone.evaluate(ASK, ["/api/sheets/" + sheet_id + "/dice", ROLL])

        phone.reload()  # still offline: the sheet comes back from IndexedDB
        expect(sheet).to_have_attribute("data-count", "4", timeout=ENGINE_MS)
        stored = phone.evaluate(STORED, sheet_id)
        view = phone.evaluate(ASK, ["/api/sheets/" + sheet_id, None])

        # Saved as a file, and opened again as a new sheet of this browser, turns and all.
        with phone.expect_download() as saving:
            phone.get_by_test_id("export-button").click()
        saved = tmp_path / "sheet.json"
        saving.value.save_as(saved)
        phone.get_by_test_id("new-sheet-link").click()
        engine_ready(phone)  # the set-up screen's script listens to the file input by now
        phone.get_by_test_id("import-file").set_input_files(saved)
        expect(sheet).to_have_attribute("data-count", "4", timeout=ENGINE_MS)
        copy_id = phone.evaluate("decodeURIComponent(location.hash.slice(1))")
        assert copy_id != sheet_id
        expect(phone.get_by_test_id("redo-button")).to_be_enabled()

        # A new version, online again: it takes over, and the sheets are still there.
        phone.context.set_offline(False)
        old = phone.evaluate("caches.keys()")
        worker = folder / "sw.js"
        worker.write_text(worker.read_text().replace('"pickomino-app-', '"pickomino-app-new-', 1))
        phone.evaluate("navigator.serviceWorker.ready.then((ready) => ready.update())")
        wait_until(
            lambda: phone.evaluate("caches.keys()") == [old[0].replace("-app-", "-app-new-")],
            "the new version's cache replaces the old one",
        )
        phone.context.set_offline(True)
        phone.reload()
        expect(sheet).to_have_attribute("data-count", "4", timeout=ENGINE_MS)

        phone.evaluate(DAMAGE, sheet_id)
        phone.goto(f"{address}#{sheet_id}")
        expect(phone.get_by_test_id("missing-text")).to_contain_text(
            "the stored sheet is damaged", timeout=ENGINE_MS
        )
        assert phone.evaluate(STORED, sheet_id) == "{not a sheet"  # kept as it was

    # The same sheet and advice, natively: the browser ran the package itself.
    native = ScoreSheet.from_dict(json.loads(stored))
    assert native.entries == ["take 27", "steal 27", "take 22", "bust"]
    assert native.undone == ["bust"]
    assert view == sheet_view(sheet_id, native)
    assert ScoreSheet.from_dict(json.loads(saved.read_text())).to_dict() == native.to_dict()
    analysed = CliRunner().invoke(main, ["analyse", str(saved)])  # the command line reads it
    assert analysed.exit_code == 0 and "Ann" in analysed.output, analysed.output
    expected = advise(native, "", "1135WW44", advice_report)
    assert [c["action"] for c in in_browser["choices"]] == [
        c["action"] for c in expected["choices"]
    ]
    for ours, theirs in zip(in_browser["choices"], expected["choices"], strict=True):
        assert ours["tile"] == pytest.approx(theirs["tile"], abs=1e-12)
        assert ours["expected_worms"] == pytest.approx(theirs["expected_worms"], abs=1e-12)


ROLL = {"kept": "", "rolled": "1135WW44"}
#: A request through the page's own API module (answered by the engine in the worker).
ASK = """([path, body]) => import("./static/api.js").then((api) =>
    body === null ? api.getJSON(path) : api.postJSON(path, body))"""
#: The stored sheet, read from IndexedDB as the engine's worker keeps it.
STORED = """(id) => new Promise((resolve, reject) => {
    const opening = indexedDB.open("pickomino");
    opening.onsuccess = () => {
        const get = opening.result.transaction("sheets").objectStore("sheets").get(id);
        get.onsuccess = () => resolve(get.result.data);
        get.onerror = () => reject(get.error);
    };
})"""


@pytest.mark.slow
def test_pickomino_serve_serves_the_app_at_app(tmp_path: Path, pages: Pages) -> None:
    standard_library(pyodide_runtime())  # in the cache, compiled: the server starts at once
    server = ServerProcess(tmp_path / "games.sqlite3", options=("--offline-app",)).start()
    try:
        with pages.checked():
            page = pages.open(server.url + "/app")
            expect(page).to_have_url(server.url + "/app/")
            engine_ready(page)  # under the server's content policy
            page.get_by_test_id("name-input").nth(0).fill("Ann")
            page.get_by_test_id("name-input").nth(1).fill("Bob")
            page.get_by_test_id("create-sheet").click()
            expect(page.get_by_test_id("sheet")).to_have_attribute(
                "data-count", "0", timeout=ENGINE_MS
            )
            tap(page, "take 21")
            with page.expect_popup() as opened:
                page.get_by_test_id("rules-link").click()
            expect(opened.value.get_by_test_id("rules-text")).to_contain_text("R7")
    finally:
        server.stop()


BENCHMARK = Path(__file__).resolve().parents[2] / "benchmarks" / "offline_app.py"


@pytest.mark.slow
def test_the_budget_benchmark_runs(app_folder: Path) -> None:
    """``benchmarks/offline_app.py``, a tiny run on the folder built here (the solo game
    until its bot made three steps)."""
    command = [
        sys.executable,
        str(BENCHMARK),
        "--rolls",
        "2",
        "--starts",
        "1",
        "--bots",
        "medium",
        "--bot-steps",
        "3",
        "--app",
        str(app_folder),
    ]
    done = subprocess.run(command, capture_output=True, text=True, timeout=600)
    assert done.returncode == 0, done.stderr
    assert "later start, offline from the cache" in done.stdout
    assert "browser/native" in done.stdout
    assert "medium bot, a step in the browser" in done.stdout


@pytest.mark.parametrize(
    ("arguments", "words"),
    [
        (["--rolls", "0"], "--rolls and --starts must be at least 1"),
        (["--starts", "0"], "--rolls and --starts must be at least 1"),
        (["--app", "/nowhere"], "not a folder built"),
        (["--bots", "expert"], "--bots: 1 to 6 of easy, medium, hard"),
        (["--bot-steps", "0"], "--bot-steps must be at least 1"),
    ],
)
def test_the_budget_benchmark_refuses_bad_arguments(arguments: list[str], words: str) -> None:
    done = subprocess.run(
        [sys.executable, str(BENCHMARK), *arguments], capture_output=True, text=True
    )
    assert done.returncode == 2 and words in done.stderr, done.stderr


#: The stored sheet overwritten with what no version can read (its stored view dropped too).
DAMAGE = """(id) => new Promise((resolve, reject) => {
    const opening = indexedDB.open("pickomino");
    opening.onsuccess = () => {
        const put = opening.result.transaction("sheets", "readwrite").objectStore("sheets")
            .put({ id, data: "{not a sheet", over: false });
        put.onsuccess = () => resolve(true);
        put.onerror = () => reject(put.error);
    };
})"""


#: The stored solo game's record, read from IndexedDB as the engine's worker keeps it.
STORED_GAME = STORED.replace('"sheets"', '"games"')
DAMAGE_GAME = DAMAGE.replace('"sheets"', '"games"')


@pytest.mark.slow
def test_a_solo_game_against_the_bots_offline_survives_a_reload_and_replays_natively(
    static_site: tuple[str, Path], pages: Pages, tmp_path: Path
) -> None:
    """Set up with a refusal first, a turn left half played by closing the page, then played to
    its end against a hard and an easy bot; the record the browser kept and the file it saves
    replay natively to the table the page shows. A stored game that no longer reads is said to
    be damaged, and stays stored."""
    address, _ = static_site
    found: dict[str, list[str]] = {}  # axe's WCAG violations in each state
    with pages.checked():
        phone = opened_then_offline(pages, address)
        found["first screen"] = axe_violations(phone)
        phone.get_by_test_id("solo-link").click()
        names, kinds = phone.get_by_test_id("seat-name"), phone.get_by_test_id("seat-kind")
        expect(names).to_have_count(2, timeout=ENGINE_MS)
        found["set-up"] = axe_violations(phone)
        names.nth(0).fill("Ann")
        phone.get_by_test_id("solo-add").click()
        kinds.nth(1).select_option("")  # two people: refused
        phone.get_by_test_id("solo-start").click()
        expect(phone.get_by_test_id("setup-error")).to_contain_text("exactly one player is you")
        kinds.nth(1).select_option("hard")
        kinds.nth(2).select_option("easy")
        phone.get_by_test_id("solo-start").click()

        game = phone.get_by_test_id("game")
        expect(game).to_have_attribute("data-your-turn", "true", timeout=ENGINE_MS)
        game_id = phone.evaluate("decodeURIComponent(location.hash.slice(1))")
        expect(phone.get_by_test_id("coach-setup")).to_be_hidden()  # no win values offline
        play_one_action(phone)  # roll
        expect(game).to_have_attribute("data-phase", "keep")
        phone.get_by_test_id("hint-button").click()
        expect(phone.get_by_test_id("hint-row").first).to_be_visible(timeout=ENGINE_MS)
        expect(phone.get_by_test_id("hint-table")).not_to_contain_text("Win chance")
        found["a turn, with the hint"] = axe_violations(phone)
        # Ann keeps a face in a second tab; this tab, still showing the roll, is refused and
        # then shows the game as it is.
        other = phone.context.new_page()
        other.goto(f"{address}play.html#{game_id}")
        expect(other.get_by_test_id("game")).to_have_attribute("data-seq", "1", timeout=ENGINE_MS)
        play_one_action(other)
        expect(other.get_by_test_id("game")).to_have_attribute("data-seq", "2")
        play_one_action(phone, "1")
        expect(phone.get_by_test_id("notice-text")).to_contain_text("the game moved on")
        expect(game).to_have_attribute("data-seq", "2")  # the turn is half played
        other.close()
        kept = phone.get_by_test_id("kept").inner_text()

        # Closed in the middle of the turn and opened again (at the bots' quickest pace).
        phone.goto(f"{address}play.html?pace=0#{game_id}")
        expect(game).to_have_attribute("data-seq", "2", timeout=ENGINE_MS)
        assert phone.get_by_test_id("kept").inner_text() == kept
        play_until_over(phone, {0: phone})
        expect(phone.get_by_test_id("verdict")).to_be_visible()
        expect(phone.get_by_test_id("chart-line").first).to_be_attached()
        found["game over"] = axe_violations(phone)
        shown_worms = [
            int(player(phone, seat).get_by_test_id("player-worms").inner_text())
            for seat in range(3)
        ]
        with phone.expect_download() as saving:
            phone.get_by_test_id("download-record").click()
        saved = tmp_path / "game.json"
        saving.value.save_as(saved)
        stored = phone.evaluate(STORED_GAME, game_id)

        phone.get_by_test_id("mine-link").click()  # "My games": the games of this browser
        row = phone.locator(f'[data-testid=solo-game][data-game-id="{game_id}"]')
        expect(row).to_have_attribute("data-status", "over", timeout=ENGINE_MS)
        found["my games"] = axe_violations(phone)
        with phone.expect_download() as saving:
            row.get_by_test_id("save-game").click()
        assert json.loads(Path(saving.value.path()).read_text()) == json.loads(saved.read_text())
        row.get_by_test_id("open-game").click()  # opened in the page, Python up already
        expect(phone.get_by_test_id("verdict")).to_be_visible()
        expect(phone).to_have_url(f"{address}play.html#{game_id}")

        phone.evaluate(DAMAGE_GAME, game_id)  # a stored game that no longer reads
        phone.reload()
        expect(phone.get_by_test_id("fatal-text")).to_contain_text(
            "this game's record is damaged", timeout=ENGINE_MS
        )
        assert phone.evaluate(STORED_GAME, game_id) == "{not a sheet"  # kept as it was
        phone.get_by_test_id("mine-link").click()  # kept until deleted, as asked
        phone.once("dialog", lambda dialog: dialog.accept())
        row.get_by_test_id("delete-game").click()
        expect(phone.get_by_test_id("solo-games")).to_contain_text("No games yet")
        assert phone.evaluate(STORED_GAME.replace("get.result.data", "get.result"), game_id) is None

    assert {name: lines for name, lines in found.items() if lines} == {}
    native = Game.from_json(stored)  # every move checked again by the engine
    assert native.state.is_over and native.record.meta["bots"] == [None, "hard", "easy"]
    assert native.state.scores() == shown_worms
    assert json.loads(saved.read_text()) == native.record.to_dict()
    analysed = CliRunner().invoke(main, ["analyse", str(saved)])  # the command line reads it
    assert analysed.exit_code == 0 and "Ann" in analysed.output, analysed.output
    # The game is its seed and Ann's choices: the same choices give the same game natively.
    record = native.record
    first = GameRecord(record.seats, record.rules, record.start_player, meta=record.meta)
    again = SoloTable(first.to_json())
    while not again.game.state.is_over:
        if again.session().is_bot_turn():
            again.answer({"type": "step", "seq": again.seq}, shown=0)
        else:
            move = native.record.moves[again.seq]  # Ann's, or the dice her roll gave
            action = "roll" if move.startswith("dice ") else move
            answered = again.answer({"type": "act", "action": action, "seq": again.seq}, 0)
            assert answered[0]["type"] == "state", answered
    assert again.game.record.moves == native.record.moves


#: A sheet stored as the app's first version stored it: database version 1, no games.
FIRST_VERSION = """([id, data]) => new Promise((resolve, reject) => {
    const opening = indexedDB.open("pickomino", 1);
    opening.onupgradeneeded = () => opening.result.createObjectStore("sheets", { keyPath: "id" });
    opening.onsuccess = () => {
        const put = opening.result.transaction("sheets", "readwrite").objectStore("sheets")
            .put({ id, data, over: false });
        put.onsuccess = () => { opening.result.close(); resolve(true); };
        put.onerror = () => reject(put.error);
    };
})"""


@pytest.mark.slow
def test_a_sheet_stored_by_the_first_version_opens_after_the_upgrade(
    static_site: tuple[str, Path], pages: Pages
) -> None:
    """The database gets the games' store (version 2) and keeps the sheets it had."""
    address, _ = static_site
    sheet = ScoreSheet(["Ann", "Bob"])
    sheet.enter("take 25")
    with pages.checked():
        phone = pages.open(address + "manifest.webmanifest", PHONE)  # the site, not the app yet
        phone.evaluate(FIRST_VERSION, ["old", json.dumps(sheet.to_dict())])
        phone.goto(f"{address}#old")
        expect(phone.get_by_test_id("sheet")).to_have_attribute(
            "data-count", "1", timeout=ENGINE_MS
        )
        expect(grill_tile(phone, 25)).to_have_attribute("data-where", "taken")
        phone.goto(f"{address}play.html")  # the list comes from the engine's worker, starting
        expect(phone.get_by_test_id("solo-games")).to_contain_text(
            "No games yet", timeout=ENGINE_MS
        )
