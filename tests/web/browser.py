"""Debian's chromium, driven by playwright (which cannot download a browser here).

`browser_page()` lends the test process's one chromium: launching playwright's driver and
a browser costs seconds (far more on a loaded CI machine) and used to happen for every
test that opened a page. What a `with browser_page() as browser:` block gets is a fresh
view of it: `browser.new_page()` and `browser.new_context()` make browser contexts of
their own (isolated like separate profiles: no cookies, storage or cache shared), and
every context made through it is closed when the block ends, so no page outlives its
test. The browser is closed when the process exits.

Between blocks the playwright loop is put aside (asyncio's running loop is cleared), so
that tests run later in the same process can use asyncio.run(); it is restored when the
next block starts.
"""

from __future__ import annotations

import asyncio
import atexit
import os
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

CHROMIUM = "/usr/bin/chromium"
# Without the background-networking flags chromium keeps trying to reach Google's hosts
# (refused on a machine without internet); as root it needs --no-sandbox.
ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]

Browser = Any  # playwright.sync_api.Browser


def chromium_missing() -> bool:
    return not os.access(CHROMIUM, os.X_OK)


class _Shared:
    """The process's playwright and chromium, started on first use."""

    playwright: Any = None
    browser: Any = None
    loop: asyncio.AbstractEventLoop | None = None
    lent = 0  # how many browser_page blocks are open (they may nest)
    registered = False  # _close is registered to run at exit


def _driver_gone() -> bool:
    """Whether playwright's driver process went away (its dispatcher has ended)."""
    return _Shared.playwright is not None and _Shared.playwright._dispatcher_fiber.dead


def _launch() -> None:
    """Start chromium (and playwright's driver, the first time or after it went away)."""
    from playwright.sync_api import sync_playwright

    if _driver_gone():
        _close()
    if _Shared.playwright is None:
        _Shared.playwright = sync_playwright().start()
        # playwright's own loop, which its sync calls mark as running
        _Shared.loop = asyncio._get_running_loop()
        if not _Shared.registered:
            atexit.register(_close)
            _Shared.registered = True
    _Shared.browser = _Shared.playwright.chromium.launch(executable_path=CHROMIUM, args=ARGS)


def _close() -> None:
    from playwright.sync_api import Error

    if _Shared.playwright is None:
        return
    asyncio._set_running_loop(_Shared.loop)
    try:
        if _Shared.browser is not None and _Shared.browser.is_connected():
            _Shared.browser.close()
    except Error:
        pass  # the browser or the driver went away already
    finally:
        if _driver_gone():  # no loop runs any more
            asyncio._set_running_loop(None)
        try:
            _Shared.playwright.stop()
        finally:
            _Shared.playwright = _Shared.browser = _Shared.loop = None
            asyncio._set_running_loop(None)


class _Lent:
    """The shared browser as one `with browser_page()` block sees it."""

    def __init__(self, browser: Any) -> None:
        self._browser = browser
        self._contexts: list[Any] = []

    def new_context(self, **options: Any) -> Any:
        context = self._browser.new_context(**options)
        self._contexts.append(context)
        return context

    def new_page(self, **options: Any) -> Any:
        page = self._browser.new_page(**options)  # in a context of its own
        self._contexts.append(page.context)
        return page

    def __getattr__(self, name: str) -> Any:
        return getattr(self._browser, name)

    def close_contexts(self) -> None:
        from playwright.sync_api import Error

        for context in self._contexts:
            try:
                context.close()
            except Error:
                pass  # already closed by the test, or the browser went away


@contextmanager
def browser_page() -> Iterator[Browser]:
    running = asyncio._get_running_loop()
    if running is not None and running is not _Shared.loop:
        raise RuntimeError("browser_page() is the sync playwright API: not inside asyncio")
    if _Shared.loop is not None:
        asyncio._set_running_loop(_Shared.loop)
    if _Shared.browser is None or _driver_gone() or not _Shared.browser.is_connected():
        _launch()
    lent = _Lent(_Shared.browser)
    _Shared.lent += 1
    try:
        yield lent
    finally:
        try:
            lent.close_contexts()
        finally:
            _Shared.lent -= 1
            if _Shared.lent == 0:
                asyncio._set_running_loop(None)
