"""What the browser tests share: the system Chromium driven by Playwright (the ``browser``
fixture, never a downloaded browser: Debian's ``chromium-headless-shell``, Chromium's own
engine built for headless use, which Playwright itself runs for headless tests; the same
tests took a quarter more CPU on the desktop ``chromium`` in its headless mode, and the suite
is bound by its CPU) and ``pages``, the pages one test opens, checked for
script errors and for anything the server's Content-Security-Policy blocked, and saved as
``test-artifacts/<test name>[-n].png`` when the test fails.

The fixtures are registered once, in ``tests/web/conftest.py``. The browser is one per test
process for the whole run (a launch costs about 1.8 s of CPU). While Playwright's sync API is
open its event loop is marked as running in the thread, between its calls too; so the tests
that do not use the browser run with that mark taken off (:func:`loop_unmarked`), or those
calling ``asyncio.run`` (the review queue, the idle watch, the Dask cluster) would fail.
"""

from __future__ import annotations

import asyncio
import contextlib
import re
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
from playwright.sync_api import (
    Browser,
    BrowserContext,
    Page,
    WebSocketRoute,
    expect,
    sync_playwright,
)

CHROMIUM = Path("/usr/bin/chromium-headless-shell")
CHROMIUM_ARGS = [
    "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
    "--disable-background-networking", "--disable-component-update", "--disable-sync",
]  # fmt: skip
ARTIFACTS = Path(__file__).resolve().parents[2] / "test-artifacts"
DESKTOP = {"width": 1280, "height": 800}
PHONE = {"width": 390, "height": 844}
# Dice that tumble in would only slow the clicks down. (A new tab's first document, the blank
# one before its address loads, has no storage to write to.)
NO_ANIMATION = "try { localStorage.setItem('pickomino.animate', 'false') } catch {}"
#: How long a page's action or an ``expect`` waits before it fails (Playwright's defaults:
#: 30 s and 5 s). A 2-core machine running the suite on both cores can take over 5 s to
#: show a hint's table or a vote's outcome; nothing here waits that long when it works.
WAIT_MS = 10_000
expect.set_options(timeout=WAIT_MS)


@pytest.fixture(scope="session")
def browser() -> Iterator[Browser]:
    if not CHROMIUM.exists():
        pytest.fail(
            f"{CHROMIUM} is missing: install Debian's chromium-headless-shell package"
            " (scripts/test.sh does);"
            " these tests never download a browser of their own"
        )
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=str(CHROMIUM), args=CHROMIUM_ARGS)
        loop = asyncio.get_running_loop()  # Playwright's, marked running between its calls
        yield browser
        asyncio._set_running_loop(loop)  # the last test may not have been a browser's
        browser.close()


@contextlib.contextmanager
def loop_unmarked(uses_the_browser: bool) -> Iterator[None]:
    """Around a test that does not use the browser: the thread's event loop mark taken off
    while it runs (Playwright's loop, left marked as running between the browser's calls)
    and put back after, so that the test may run loops of its own."""
    loop = asyncio._get_running_loop()
    if loop is None or uses_the_browser:
        yield
        return
    asyncio._set_running_loop(None)
    try:
        yield
    finally:
        if asyncio._get_running_loop() is None and not loop.is_closed():
            asyncio._set_running_loop(loop)


class Pages:
    """The pages one test opens, each in a browser context of its own (a separate person
    with their own localStorage)."""

    def __init__(self, browser: Browser, name: str) -> None:
        self.browser, self.name = browser, name
        self.contexts: list[BrowserContext] = []
        self.pages: list[Page] = []
        self.errors: list[str] = []  # uncaught exceptions, and what the CSP refused

    def new(self, viewport: dict[str, int] = DESKTOP, locale: str | None = None) -> Page:
        """A page in a browser context of its own; ``locale`` (e.g. ``"fi-FI"``) is the
        browser's language (``navigator.languages``), else Playwright's default, en-US."""
        context = self.browser.new_context(viewport=viewport, locale=locale)
        context.add_init_script(NO_ANIMATION)
        context.set_default_timeout(WAIT_MS)
        context.on("page", self._watch)  # this one, and any the page opens (a link's new tab)
        self.contexts.append(context)
        return context.new_page()

    def _watch(self, page: Page) -> None:
        page.on("pageerror", lambda error: self.errors.append(f"{page.url}: {error}"))
        page.on(
            "console",
            lambda message: (
                "Content Security Policy" in message.text
                and self.errors.append(f"{page.url}: {message.text}")
            ),
        )
        self.pages.append(page)

    def open(self, url: str, viewport: dict[str, int] = DESKTOP, locale: str | None = None) -> Page:
        page = self.new(viewport, locale)
        page.goto(url)
        return page

    @contextlib.contextmanager
    def checked(self) -> Iterator[None]:
        """Fails on any script error in the pages; on failure, screenshots every page."""
        try:
            yield
            assert not self.errors, "script errors in the pages:\n" + "\n".join(self.errors)
        except BaseException:
            ARTIFACTS.mkdir(exist_ok=True)
            for n, page in enumerate(self.pages):
                suffix = f"-{n}" if n else ""
                with contextlib.suppress(Exception):  # the page may be gone already
                    page.screenshot(path=ARTIFACTS / f"{self.name}{suffix}.png", full_page=True)
            raise

    def close(self) -> None:
        for context in self.contexts:
            context.close()


@pytest.fixture
def pages(browser: Browser, request: pytest.FixtureRequest) -> Iterator[Pages]:
    opened = Pages(browser, request.node.name)
    yield opened
    opened.close()


def no_horizontal_scroll(page: Page) -> bool:
    return page.evaluate("document.documentElement.scrollWidth <= window.innerWidth")


#: A game socket relayed through a test: its page's side (to send the page what a server
#: would, or close it as the server does) and its server's side (to send what a page would).
Relayed = tuple[WebSocketRoute, WebSocketRoute]


def relayed_page(
    pages: Pages, url: str, passes: Callable[[str | bytes], bool] = lambda message: True
) -> tuple[Page, list[Relayed]]:
    """A page opened at ``url`` whose game sockets pass through the test, each listed as it
    opens; of what the page sends, only the messages ``passes`` holds reach the server."""
    sockets: list[Relayed] = []

    def relay(page_side: WebSocketRoute) -> None:
        server_side = page_side.connect_to_server()
        page_side.on_message(lambda message: server_side.send(message) if passes(message) else None)
        sockets.append((page_side, server_side))

    page = pages.new()
    page.route_web_socket(re.compile(r"/ws/games/"), relay)
    page.goto(url)
    return page, sockets
