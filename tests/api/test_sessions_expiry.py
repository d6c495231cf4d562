"""Idle sessions and unused codes expire (a server with 2-second timeouts)."""

from __future__ import annotations

import time
from collections.abc import Iterator

import httpx
import pytest

from tests.support.server import RunningServer, running_server
from tests.support.users import DEFAULT_PASSWORD, auth, latest_code, make_user

Client = httpx.Client


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[RunningServer]:
    with running_server(
        tmp_path_factory.mktemp("expiry"), SESSION_IDLE_TIMEOUT="2s", VERIFICATION_CODE_TTL="2s"
    ) as running:
        yield running


def test_an_idle_session_expires_and_no_longer_blocks_a_new_login(
    server: RunningServer, client: Client
) -> None:
    token = make_user(server.base_url, server.mail_dir, "alice")
    assert client.get("/users/me", headers=auth(token)).status_code == 200
    time.sleep(3.1)  # pacing: past the idle timeout on the server's clock
    expired = client.get("/users/me", headers=auth(token))
    assert expired.status_code == 401 and expired.json()["reason"] == "session_expired"
    again = client.post("/sessions", json={"username": "alice", "password": DEFAULT_PASSWORD})
    assert again.status_code == 201, again.text


def test_an_expired_code_is_refused_and_the_account_stays_unverified(
    server: RunningServer, client: Client
) -> None:
    body = {"username": "bob", "email": "bob@example.test", "password": DEFAULT_PASSWORD}
    token = client.post("/users", json=body).json()["verification_token"]
    code = latest_code(server.mail_dir, "bob@example.test")
    time.sleep(3.1)  # pacing: past the idle timeout on the server's clock
    late = client.post("/verifications", json={"verification_token": token, "code": code})
    assert late.status_code == 422 and late.json()["reason"] == "code_expired"
    login = client.post("/sessions", json={"username": "bob", "password": DEFAULT_PASSWORD})
    assert login.status_code == 403 and login.json()["reason"] == "account_unverified"


def test_a_session_in_use_never_expires(server: RunningServer, client: Client) -> None:
    # The idle timeout is 2 s: a session used every 0.4 s for 3.2 s must stay valid, which
    # needs its expiry renewed more often than once a minute.
    token = make_user(server.base_url, server.mail_dir, "carol")
    for _ in range(8):
        answer = client.get("/users/me", headers=auth(token))
        assert answer.status_code == 200, answer.text
        time.sleep(0.4)  # pacing: the pace of use (the subject)
