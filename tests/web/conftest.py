"""Fixtures for the web tests: one real server per module, and Debian's chromium (a module
may define its own `browser`)."""

from __future__ import annotations

from collections.abc import Callable, Iterator

import httpx
import pytest
from playwright.sync_api import Browser

from tests.support.server import RunningServer, running_server
from tests.support.users import insert_user
from tests.web.browser import browser_page, chromium_missing


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[RunningServer]:
    with running_server(tmp_path_factory.mktemp("server"), STREAM_KEEPALIVE="5") as running:
        yield running


@pytest.fixture(scope="module")
def client(server: RunningServer) -> Iterator[httpx.Client]:
    with httpx.Client(base_url=server.api, timeout=10.0) as http:
        yield http


@pytest.fixture(scope="module")
def tokens(server: RunningServer) -> Callable[[tuple[str, ...]], dict[str, str]]:
    """Users written into the database: names -> {name: token}."""

    def make(names: tuple[str, ...]) -> dict[str, str]:
        return {name: insert_user(server.database_url, name) for name in names}

    return make


@pytest.fixture(scope="module")
def browser() -> Iterator[Browser]:
    """The shared chromium (skipped where /usr/bin/chromium is missing)."""
    if chromium_missing():
        pytest.skip("needs /usr/bin/chromium")
    with browser_page() as found:
        yield found
