"""argon2's parameters come from the settings; tests use argon2's least, production never.

A production server (the defaults: RFC 9106's low-memory profile, 64 MiB, 3 passes, 4
lanes) hashes with real cost and refuses a stored hash made with the tests' parameters:
a test database, or a row written by anyone who could write a cheap hash, never opens
an account on it.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest
from argon2 import extract_parameters

from corridorquest.security import passwords
from corridorquest.settings import Settings, SettingsError
from tests.support.server import REAL_PASSWORD_HASHING, RunningServer, running_server
from tests.support.users import DEFAULT_PASSWORD, insert_users, real_password_hash


def test_the_production_defaults_are_rfc_9106_low_memory(tmp_path: Path) -> None:
    settings = Settings(data_dir=str(tmp_path))
    assert (
        settings.password_hash_time_cost,
        settings.password_hash_memory_kib,
        settings.password_hash_parallelism,
    ) == (3, 65536, 4)
    made = extract_parameters(real_password_hash())
    assert (made.time_cost, made.memory_cost, made.parallelism) == (3, 65536, 4)


def test_memory_below_argon2s_least_per_lane_is_refused(tmp_path: Path) -> None:
    environ = {
        "DATA_DIR": str(tmp_path),
        "PASSWORD_HASH_MEMORY_KIB": "16",
        "PASSWORD_HASH_PARALLELISM": "4",
    }
    with pytest.raises(SettingsError, match="PASSWORD_HASH_MEMORY_KIB"):
        Settings.from_env(environ=environ)


def test_a_test_hash_never_matches_under_production_parameters() -> None:
    test_hash = passwords.hash_password_with(passwords.TEST_PARAMETERS, DEFAULT_PASSWORD)
    before = passwords.current_parameters()
    try:
        passwords.configure(passwords.TEST_PARAMETERS)
        assert passwords.verify_password_sync(test_hash, DEFAULT_PASSWORD)
        passwords.configure(passwords.PRODUCTION_DEFAULTS)
        assert not passwords.verify_password_sync(test_hash, DEFAULT_PASSWORD)
        assert passwords.verify_password_sync(real_password_hash(), DEFAULT_PASSWORD)
    finally:
        passwords.configure(before)


@pytest.fixture(scope="module")
def production(tmp_path_factory: pytest.TempPathFactory) -> Iterator[RunningServer]:
    with running_server(tmp_path_factory.mktemp("real_hashing"), **REAL_PASSWORD_HASHING) as up:
        yield up


def login(server: RunningServer, name: str) -> httpx.Response:
    return httpx.post(
        f"{server.base_url}/api/v1/sessions",
        json={"username": name, "password": DEFAULT_PASSWORD},
        timeout=30,
    )


def test_a_production_server_refuses_a_login_whose_hash_has_test_parameters(
    production: RunningServer,
) -> None:
    insert_users(production.database_url, ["cheap"])  # the tests' hash
    insert_users(production.database_url, ["real"], real_password_hash())
    refused = login(production, "cheap")
    assert refused.status_code == 401, refused.text
    assert login(production, "real").status_code == 201
