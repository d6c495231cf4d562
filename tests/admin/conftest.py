"""Fixtures for the cq-admin tests: one real server per module, an administrator and a
player logged in in admin profiles of their own, and a `cq-admin` runner."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest

from admin.profiles import AdminProfileStore
from client.profiles import Profile
from tests.admin.admin_support import ADMIN, PLAYER, Admin, make_runner
from tests.support.server import RunningServer, running_server
from tests.support.users import insert_user


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[RunningServer]:
    with running_server(tmp_path_factory.mktemp("server")) as running:
        yield running


@pytest.fixture(scope="module")
def client(server: RunningServer) -> Iterator[httpx.Client]:
    with httpx.Client(base_url=server.api, timeout=10.0) as http:
        yield http


@pytest.fixture(scope="module")
def tokens(server: RunningServer) -> dict[str, str]:
    """Session tokens of the administrator `root` and the player `pleb`."""
    return {
        ADMIN: insert_user(server.database_url, ADMIN, is_admin=True),
        PLAYER: insert_user(server.database_url, PLAYER),
    }


@pytest.fixture(scope="module")
def config_dir(
    tmp_path_factory: pytest.TempPathFactory, server: RunningServer, tokens: dict[str, str]
) -> Path:
    """Admin profiles `root` and `pleb`, each logged in as that user."""
    directory = tmp_path_factory.mktemp("config")
    store = AdminProfileStore(directory)
    for name, token in tokens.items():
        store.save(Profile(name=name, server_url=server.base_url, username=name, token=token))
    return directory


@pytest.fixture
def cq_admin(config_dir: Path, monkeypatch: pytest.MonkeyPatch) -> Admin:
    monkeypatch.setenv("CQ_CONFIG_DIR", str(config_dir))
    monkeypatch.delenv("CQ_ADMIN_PROFILE", raising=False)
    return make_runner(config_dir)
