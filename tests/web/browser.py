"""Debian's chromium, driven by playwright (which cannot download a browser here)."""

from __future__ import annotations

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


@contextmanager
def browser_page() -> Iterator[Browser]:
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        try:
            yield browser
        finally:
            browser.close()
