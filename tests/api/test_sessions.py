"""Login, logout, one active session, rate limits per user and per address (end to end)."""

from __future__ import annotations

import itertools
from collections.abc import Iterator

import httpx
import pytest

from tests.support.server import RunningServer, running_server
from tests.support.users import (
    DEFAULT_PASSWORD,
    auth,
    insert_users,
    latest_code,
    make_user,
)

Client = httpx.Client
_addresses = (f"10.1.{n // 250}.{n % 250 + 1}" for n in itertools.count())


def new_address() -> dict[str, str]:
    """A client address of its own (the server trusts one proxy: PROXIES_COUNT=1)."""
    return {"X-Forwarded-For": next(_addresses)}


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[RunningServer]:
    with running_server(
        tmp_path_factory.mktemp("sessions"),
        PROXIES_COUNT=1,
        LOGIN_RATE_LIMIT_USER=3,
        LOGIN_RATE_LIMIT_ADDRESS=4,
        LOGIN_RATE_WINDOW="1h",
    ) as running:
        yield running


def user(server: RunningServer, client: Client, name: str) -> str:
    """A verified user with DEFAULT_PASSWORD and no session; returns its username.

    Written into the database with a shared, real argon2id hash (tests/support/users.py):
    signing up is tested in test_users.py, and hashing a password for each user here cost
    seconds per test on a loaded machine. Every login below still runs the server's real
    argon2 verification."""
    insert_users(server.database_url, [name])
    return name


def login(
    client: Client,
    username: str,
    password: str = DEFAULT_PASSWORD,
    replace: bool | None = None,
    headers: dict[str, str] | None = None,
) -> httpx.Response:
    body: dict[str, object] = {"username": username, "password": password}
    if replace is not None:
        body["replace"] = replace
    return client.post("/sessions", json=body, headers=headers or new_address())


def test_login_gives_a_token_that_works_until_logout(server: RunningServer, client: Client) -> None:
    name = user(server, client, "alice")
    answer = login(client, name)
    assert answer.status_code == 201, answer.text
    body = answer.json()
    assert body["username"] == "alice" and body["expires_at"].endswith("Z")
    me = client.get("/users/me", headers=auth(body["token"]))
    assert me.status_code == 200 and me.json()["session"]["expires_at"].endswith("Z")
    assert client.delete("/sessions/current", headers=auth(body["token"])).status_code == 204
    after = client.get("/users/me", headers=auth(body["token"]))
    assert after.status_code == 401 and after.json()["reason"] == "unauthenticated"
    # Logged out, so a new login needs no replace.
    assert login(client, name).status_code == 201


def test_usernames_are_matched_without_regard_to_case(
    server: RunningServer, client: Client
) -> None:
    user(server, client, "Bea")
    answer = login(client, "bEA")
    assert answer.status_code == 201 and answer.json()["username"] == "Bea"


def test_unknown_user_and_wrong_password_get_the_same_answer(
    server: RunningServer, client: Client
) -> None:
    name = user(server, client, "carl")
    unknown = login(client, "nobody")
    wrong = login(client, name, "not the password")
    for answer in (unknown, wrong):
        assert answer.status_code == 401 and answer.json()["reason"] == "invalid_credentials"
    assert unknown.json()["message"] == wrong.json()["message"]
    with_nul = login(client, name + "\x00")
    # A name with NUL never matches (refused as malformed or as unknown, never a 5xx).
    assert with_nul.json()["reason"] in ("bad_request", "invalid_credentials"), with_nul.text
    assert login(client, name).status_code == 201


def test_a_second_login_is_refused_unless_it_replaces_the_first(
    server: RunningServer, client: Client
) -> None:
    name = user(server, client, "dora")
    first = login(client, name).json()["token"]
    second = login(client, name)
    assert second.status_code == 409 and second.json()["reason"] == "session_active"
    assert client.get("/users/me", headers=auth(first)).status_code == 200
    explicit_no = login(client, name, replace=False)
    assert explicit_no.status_code == 409
    replaced = login(client, name, replace=True)
    assert replaced.status_code == 201
    assert client.get("/users/me", headers=auth(first)).status_code == 401
    assert client.get("/users/me", headers=auth(replaced.json()["token"])).status_code == 200


def test_a_login_that_holds_the_active_session_replaces_it_without_asking(
    server: RunningServer, client: Client
) -> None:
    """The client sends the token it holds (issue 25, item 9): its own session is not
    "elsewhere". Any other token (another user's, an ended one, garbage) changes nothing:
    the session held elsewhere still refuses the login, and still works."""
    name = user(server, client, "holly")
    other = user(server, client, "ivan")
    mine = login(client, name).json()["token"]
    again = login(client, name, headers={**new_address(), **auth(mine)})
    assert again.status_code == 201, again.text
    renewed = again.json()["token"]
    assert renewed != mine
    assert client.get("/users/me", headers=auth(mine)).status_code == 401
    assert client.get("/users/me", headers=auth(renewed)).json()["username"] == name
    ivans = login(client, other).json()["token"]
    for held in (mine, ivans, "not-a-token"):  # an ended session, another user's, garbage
        refused = login(client, name, headers={**new_address(), **auth(held)})
        assert refused.status_code == 409, refused.text
        assert refused.json()["reason"] == "session_active"
        assert "elsewhere" in refused.json()["message"]
    assert client.get("/users/me", headers=auth(renewed)).status_code == 200
    assert client.get("/users/me", headers=auth(ivans)).status_code == 200


def test_logout_without_a_valid_token_is_refused(client: Client) -> None:
    for headers in ({}, auth("not-a-token"), {"Authorization": "Basic abc"}):
        answer = client.delete("/sessions/current", headers=headers)
        assert answer.status_code == 401 and answer.json()["reason"] == "unauthenticated"


@pytest.mark.parametrize(
    "body",
    [
        {"username": "x"},
        {"username": "x", "password": 5},
        {"username": "x", "password": "y", "replace": "yes"},
    ],
)
def test_malformed_login_bodies_are_bad_requests(client: Client, body: dict[str, object]) -> None:
    answer = client.post("/sessions", json=body, headers=new_address())
    assert answer.status_code == 400 and answer.json()["reason"] == "bad_request"


def test_failed_logins_per_user_are_rate_limited(server: RunningServer, client: Client) -> None:
    name = user(server, client, "eve")
    for _ in range(3):
        assert login(client, name, "wrong password").status_code == 401
    limited = login(client, name)  # even the right password, from a fresh address
    assert limited.status_code == 429 and limited.json()["reason"] == "rate_limited"
    assert 3000 <= limited.json()["retry_after"] <= 3600
    # Other users are not affected, and the refused attempt opened no session.
    other = user(server, client, "eve2")
    assert login(client, other).status_code == 201
    assert login(client, name).status_code == 429


def test_failed_logins_per_address_are_rate_limited(server: RunningServer, client: Client) -> None:
    name = user(server, client, "finn")
    address = new_address()
    for n in range(4):
        assert login(client, f"ghost{n}", "whatever1", headers=address).status_code == 401
    limited = login(client, name, headers=address)
    assert limited.status_code == 429 and limited.json()["retry_after"] >= 1
    assert login(client, name, headers=new_address()).status_code == 201


def test_failed_logins_from_one_ipv6_64_count_together(
    server: RunningServer, client: Client
) -> None:
    name = user(server, client, "ivy6")
    for n in range(4):  # four addresses of one /64, each failing once
        failed = login(client, f"ghost{n}", "whatever1",
                       headers={"X-Forwarded-For": f"2001:db8:65:1::{n + 1}"})
        assert failed.status_code == 401
    limited = login(client, name, headers={"X-Forwarded-For": "2001:db8:65:1::99"})
    assert limited.status_code == 429 and limited.json()["reason"] == "rate_limited"
    other = login(client, name, headers={"X-Forwarded-For": "2001:db8:65:2::1"})
    assert other.status_code == 201  # another /64


def test_a_successful_login_clears_the_users_failures(
    server: RunningServer, client: Client
) -> None:
    name = user(server, client, "gus")
    for _ in range(2):
        assert login(client, name, "wrong password").status_code == 401
    token = login(client, name).json()["token"]
    client.delete("/sessions/current", headers=auth(token))
    for _ in range(2):
        assert login(client, name, "wrong password").status_code == 401
    assert login(client, name).status_code == 201


def test_a_locked_account_cannot_log_in_even_with_the_right_password(
    server: RunningServer, client: Client
) -> None:
    name = "hal"
    session = make_user(server.base_url, server.mail_dir, name)
    # Three wrong codes for an e-mail change lock the account (SPEC §7).
    started = client.post(
        "/users/me/email", headers=auth(session), json={"email": "hal@new.example.test"}
    )
    token = started.json()["verification_token"]
    code = latest_code(server.mail_dir, "hal@new.example.test")
    bad = f"{(int(code) + 1) % 1_000_000:06d}"
    for _ in range(3):
        client.post("/verifications", json={"verification_token": token, "code": bad})
    refused = login(client, name)
    assert refused.status_code == 403 and refused.json()["reason"] == "account_locked"
