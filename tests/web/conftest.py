"""Fixtures for the web tests: one real server per module."""

from __future__ import annotations

from collections.abc import Callable, Iterator

import httpx
import pytest

from tests.support.server import RunningServer, running_server
from tests.support.users import insert_user


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
