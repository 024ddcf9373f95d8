"""The offline app's budgets (issue 28), in headless Chromium on this machine: the folder's
size, the first visit, a later start from the service worker's cache with the network cut
off (to a usable set-up form, and to an open sheet), and a turn's odds from the dice helper,
in the browser (Pyodide, the pure-Python solver) against the same advice computed natively
(CPython, NumPy) in this process, as a ratio.

Run: ``.venv/bin/python benchmarks/offline_app.py [--rolls 20] [--starts 3] [--app DIR]``
(without ``--app`` it builds the app into a temporary folder first).
"""

from __future__ import annotations

import argparse
import functools
import http.server
import random
import statistics
import tempfile
import threading
import time
from pathlib import Path

from playwright.sync_api import Page, sync_playwright

from pickomino.core import format_dice, sample_roll
from pickomino.solver.advice import advice_report
from pickomino.table.sheet import ScoreSheet
from pickomino.table.sheet_requests import advise
from pickomino.web.offline_app import build

CHROMIUM_ARGS = [
    "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
    "--disable-background-networking", "--disable-component-update", "--disable-sync",
]  # fmt: skip
BUDGETS = {"size": 20.0, "cached start": 2.0, "odds": 0.2}
#: A request through the page's own API module, timed in the page.
TIMED_ADVICE = """async ([path, body]) => {
    const api = await import("./static/api.js");
    const start = performance.now();
    await api.postJSON(path, body).catch(() => null);  // a refusal is an answer too
    return (performance.now() - start) / 1000;
}"""


class QuietFiles(http.server.SimpleHTTPRequestHandler):
    def log_message(self, *args: object) -> None:
        pass


def seconds_until_ready(page: Page, url: str | None) -> float:
    """From navigation (or reload) to a set-up form the engine has filled."""
    start = time.perf_counter()
    page.goto(url) if url else page.reload()
    page.wait_for_selector("[data-testid=create-sheet]:not([disabled])", timeout=120_000)
    return time.perf_counter() - start


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rolls", type=int, default=20, help="rolls advised on (default 20)")
    parser.add_argument("--app", type=Path, default=None, help="a folder built before")
    parser.add_argument("--starts", type=int, default=3, help="later starts timed (default 3)")
    args = parser.parse_args()
    if args.rolls < 1 or args.starts < 1:
        parser.error("--rolls and --starts must be at least 1")
    if args.app is not None and not (args.app / "sw.js").is_file():
        parser.error(f"--app {args.app}: not a folder built by pickomino build-app")
    with tempfile.TemporaryDirectory() as work:
        folder = args.app or build(Path(work) / "app")
        measure(folder, args.rolls, args.starts)


def measure(folder: Path, rolls: int, later_starts: int) -> None:
    size = sum(path.stat().st_size for path in folder.rglob("*") if path.is_file()) / 1e6
    print(f"folder: {size:.1f} MB (budget {BUDGETS['size']:.0f} MB)")
    handler = functools.partial(QuietFiles, directory=str(folder))
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    url = f"http://127.0.0.1:{server.server_port}/"
    rng = random.Random(1)
    dice = [format_dice(sample_roll(8, rng)) for _ in range(rolls)]
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(
            executable_path="/usr/bin/chromium", args=CHROMIUM_ARGS
        )
        page = browser.new_context().new_page()
        first = seconds_until_ready(page, url)
        page.wait_for_function("navigator.serviceWorker.controller !== null", timeout=120_000)
        page.context.set_offline(True)
        starts = [seconds_until_ready(page, None) for _ in range(later_starts)]
        print(f"first visit, to a usable page: {first:.2f} s")
        print(
            f"later start, offline from the cache: {statistics.median(starts):.2f} s median of"
            f" {len(starts)}"
            f" (budget {BUDGETS['cached start']:.0f} s)"
        )
        names = page.get_by_test_id("name-input")
        names.nth(0).fill("Ann")
        names.nth(1).fill("Bob")
        page.get_by_test_id("create-sheet").click()
        page.wait_for_selector("[data-testid=sheet][data-count='0']", timeout=120_000)
        sheet_id = page.evaluate("decodeURIComponent(location.hash.slice(1))")
        path = f"/api/sheets/{sheet_id}/dice"
        start = time.perf_counter()
        page.reload()
        page.wait_for_selector("[data-testid=sheet][data-count='0']", timeout=120_000)
        print(f"later start, offline, to the open sheet: {time.perf_counter() - start:.2f} s")
        # the sheet shows before Python is up; a request that needs it waits for it
        python_up = page.evaluate(TIMED_ADVICE, [path, {"rolled": ""}])
        print(f"Python up, after the open sheet showed: {python_up:.2f} s more")
        browser_s = [page.evaluate(TIMED_ADVICE, [path, {"rolled": roll}]) for roll in dice]
        browser.close()
    server.shutdown()
    sheet = ScoreSheet(["Ann", "Bob"])
    native_s = []
    for roll in dice:
        start = time.perf_counter()
        advise(sheet, "", roll, advice_report)
        native_s.append(time.perf_counter() - start)
    later = statistics.median(browser_s[1:] or browser_s)
    print(
        f"a turn's odds in the browser: first {browser_s[0] * 1e3:.0f} ms (its first solve),"
        f" then {later * 1e3:.0f} ms median of {len(browser_s) - 1}"
        f" (budget {BUDGETS['odds'] * 1e3:.0f} ms)"
    )
    native = statistics.median(native_s[1:] or native_s)
    print(
        f"the same natively (CPython, NumPy): {native * 1e3:.1f} ms median; browser/native"
        f" {later / native:.1f}x"
    )


if __name__ == "__main__":
    main()
