"""The offline app's budgets (issue 28), in headless Chromium on this machine: the folder's
size, the first visit, a later start from the service worker's cache with the network cut
off (to a usable set-up form, and to an open sheet), a turn's odds from the dice helper, and
each bot's moves in a solo game (a step asked of the engine's worker until the stored game has
it), in the browser (Pyodide, the pure-Python solver) against the same computed natively
(CPython, NumPy) in this process, as ratios. The solo game is the same game in both: its seed,
and a person who follows the Hint.

Run: ``.venv/bin/python benchmarks/offline_app.py [--rolls 20] [--starts 3] [--bots
easy,medium,hard] [--bot-steps N] [--app DIR]`` (without ``--app`` it builds the app into a
temporary folder first; ``--bot-steps`` ends the solo game once each bot has made N steps,
instead of at its end).
"""

from __future__ import annotations

import argparse
import functools
import http.server
import json
import random
import statistics
import tempfile
import threading
import time
from pathlib import Path

from playwright.sync_api import Page, sync_playwright

from pickomino.core import format_dice, sample_roll
from pickomino.offline.answers import answer, play
from pickomino.offline.solo import LEVELS
from pickomino.solver.advice import advice_report
from pickomino.table.sheet import ScoreSheet
from pickomino.table.sheet_requests import advise

CHROMIUM_ARGS = [
    "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
    "--disable-background-networking", "--disable-component-update", "--disable-sync",
]  # fmt: skip
SOLO_SEED = 2026
BUDGETS = {"size": 20.0, "cached start": 2.0, "odds": 0.2, "bot move": 0.5}
#: A request through the page's own API module, timed in the page.
TIMED_ADVICE = """async ([path, body]) => {
    const api = await import("./static/api.js");
    const start = performance.now();
    await api.postJSON(path, body).catch(() => null);  // a refusal is an answer too
    return (performance.now() - start) / 1000;
}"""


#: A solo game played through a second engine of the page's own (local.js): each bot step
#: timed from the request to the stored answer, by the seat's level; the person follows the
#: Hint (its best choice).
TIMED_SOLO = """async ([seats, seed, most]) => {
    const person = async (id) => (await engine.play(id, { type: "hint" }, 0))[0].rows[0].action;
    const { startEngine } = await import("./static/local.js");
    const engine = startEngine();
    const body = JSON.stringify({ seats, seed });
    const made = await (await engine.answer("/api/games", { method: "POST", body })).json();
    let [, state] = await engine.play(made.id, { type: "join" }, 0);
    const times = {};
    const levels = new Set(seats.map((seat) => seat.bot).filter(Boolean));
    const enough = () => [...levels].every((level) => times[level]?.length >= most);
    while (!state.table.over && !enough()) {
        const level = state.seats[state.table.current].bot;
        const message = state.bot_turn
            ? { type: "step", seq: state.seq }
            : { type: "act", action: await person(made.id), seq: state.seq };
        const start = performance.now();
        [state] = await engine.play(made.id, message, 0);
        if (level) (times[level] ??= []).push((performance.now() - start) / 1000);
    }
    return times;
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
    parser.add_argument(
        "--bots", default=",".join(LEVELS), help="the solo game's bots (default easy,medium,hard)"
    )
    parser.add_argument(
        "--bot-steps", type=int, default=None, help="end the solo game once each bot made N steps"
    )
    args = parser.parse_args()
    if args.rolls < 1 or args.starts < 1:
        parser.error("--rolls and --starts must be at least 1")
    if args.bot_steps is not None and args.bot_steps < 1:
        parser.error("--bot-steps must be at least 1")
    bots = args.bots.split(",")
    if not 1 <= len(bots) <= 6 or not set(bots) <= set(LEVELS):
        parser.error(f"--bots: 1 to 6 of {', '.join(LEVELS)}, separated by commas")
    if args.app is not None and not (args.app / "sw.js").is_file():
        parser.error(f"--app {args.app}: not a folder built by pickomino build-app")
    with tempfile.TemporaryDirectory() as work:
        folder = args.app or build_app(Path(work) / "app")
        measure(folder, args.rolls, args.starts, bots, args.bot_steps or 1_000_000)


def build_app(out: Path) -> Path:
    """The app built into ``out``; the build imports the web's pages (1.5 s), so only a run
    that builds imports it."""
    from pickomino.web.offline_app import build

    return build(out)


def measure(folder: Path, rolls: int, later_starts: int, bots: list[str], steps: int) -> None:
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
        seats = [{"name": "Ann"}, *({"name": f"Bot {n}", "bot": b} for n, b in enumerate(bots, 2))]
        bot_s = page.evaluate(TIMED_SOLO, [seats, SOLO_SEED, steps])
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
    native_bots = solo_natively(seats, steps)
    for level in dict.fromkeys(bots):
        here, there = bot_s[level], native_bots[level]
        print(
            f"{level} bot, a step in the browser: {statistics.median(here) * 1e3:.0f} ms median,"
            f" {max(here) * 1e3:.0f} ms the slowest of {len(here)}"
            f" (budget {BUDGETS['bot move'] * 1e3:.0f} ms); natively"
            f" {statistics.median(there) * 1e3:.1f} ms median, browser/native"
            f" {statistics.median(here) / statistics.median(there):.1f}x"
        )


def hint(stored: str) -> dict:
    return json.loads(play(stored, '{"type": "hint"}'))["messages"][0]


def solo_natively(seats: list[dict[str, str]], most: int) -> dict[str, list[float]]:
    """The benchmark's solo game (the same seed, the person following the Hint, until each
    bot made ``most`` steps), each bot step timed as the worker asks it: the game opened, the
    step played, the record written."""
    reply = json.loads(
        answer("POST", "/api/games", json.dumps({"seats": seats, "seed": SOLO_SEED}))
    )
    stored = reply["keep"]["data"]
    times: dict[str, list[float]] = {}
    state = json.loads(play(stored, '{"type": "join"}'))["messages"][1]
    levels = {seat["bot"] for seat in seats if seat.get("bot")}
    while not state["table"]["over"] and any(len(times.get(b, [])) < most for b in levels):
        level = state["seats"][state["table"]["current"]]["bot"]
        message = (
            {"type": "step", "seq": state["seq"]}
            if state["bot_turn"]
            else {"type": "act", "action": hint(stored)["rows"][0]["action"], "seq": state["seq"]}
        )
        start = time.perf_counter()
        answered = json.loads(play(stored, json.dumps(message)))
        if level:
            times.setdefault(level, []).append(time.perf_counter() - start)
        stored, state = answered["keep"]["data"], answered["messages"][0]
    return times


if __name__ == "__main__":
    main()
