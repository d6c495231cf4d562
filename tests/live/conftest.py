"""Fixtures for the live-stream tests: one real server per module, quick keepalives."""

from __future__ import annotations

from collections.abc import Iterator

import httpx
import pytest

from tests.support.server import RunningServer, running_server


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[RunningServer]:
    with running_server(
        tmp_path_factory.mktemp("server"), STREAM_KEEPALIVE="1", STREAMS_PER_USER="3",
        STREAMS_PER_ADDRESS="2",
    ) as running:
        yield running


@pytest.fixture(scope="module")
def client(server: RunningServer) -> Iterator[httpx.Client]:
    with httpx.Client(base_url=server.api, timeout=10.0) as http:
        yield http
