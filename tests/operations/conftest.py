"""Fixtures for operations tests on one real server per test module (the same as
tests/api/conftest.py's): test_two_processes.py's first process and its client."""

from __future__ import annotations

from collections.abc import Iterator

import httpx
import pytest

from tests.support.server import RunningServer, running_server


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[RunningServer]:
    """The real server on 127.0.0.1 with a fresh database, shared by the module's tests."""
    with running_server(tmp_path_factory.mktemp("server")) as running:
        yield running


@pytest.fixture(scope="module")
def client(server: RunningServer) -> Iterator[httpx.Client]:
    """An httpx client whose base URL is the server's /api/v1 (paths like "/games")."""
    with httpx.Client(base_url=server.api, timeout=10.0) as http:
        yield http
