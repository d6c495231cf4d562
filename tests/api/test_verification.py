"""Signup and verification codes end to end: the real server, codes read from .eml files."""

from __future__ import annotations

import httpx
import pytest

from tests.support.server import RunningServer
from tests.support.users import DEFAULT_PASSWORD, latest_code, mails_to

Client = httpx.Client


def signup(client: Client, username: str, **extra: str) -> httpx.Response:
    body = {"username": username, "email": f"{username}@example.test", "password": DEFAULT_PASSWORD}
    body.update(extra)
    return client.post("/users", json=body)


def login(client: Client, username: str, password: str = DEFAULT_PASSWORD) -> httpx.Response:
    return client.post("/sessions", json={"username": username, "password": password})


def wrong(code: str) -> str:
    return f"{(int(code) + 1) % 1_000_000:06d}"


def test_signup_mails_a_code_that_verifies_the_account(
    server: RunningServer, client: Client
) -> None:
    answer = signup(client, "alice", description="from Wonderland", ntfy_dm_topic="alice-dm-x9")
    assert answer.status_code == 201, answer.text
    body = answer.json()
    assert body["username"] == "alice" and body["purpose"] == "signup"
    assert len(body["verification_token"]) >= 40
    refused = login(client, "alice")
    assert refused.status_code == 403 and refused.json()["reason"] == "account_unverified"
    code = latest_code(server.mail_dir, "alice@example.test")
    verified = client.post(
        "/verifications", json={"verification_token": body["verification_token"], "code": code}
    )
    assert verified.status_code == 200, verified.text
    assert verified.json() == {"purpose": "signup", "username": "alice"}
    session = login(client, "alice")
    assert session.status_code == 201, session.text
    me = client.get("/users/me", headers={"Authorization": f"Bearer {session.json()['token']}"})
    assert me.json()["description"] == "from Wonderland"
    assert me.json()["ntfy_dm_topic"] == "alice-dm-x9"
    # The token is used up: the same code again is unknown.
    again = client.post(
        "/verifications", json={"verification_token": body["verification_token"], "code": code}
    )
    assert again.status_code == 404 and again.json()["reason"] == "verification_not_found"


@pytest.mark.parametrize(
    ("body", "reason"),
    [
        ({"username": "toolongname1"}, "invalid_username"),
        ({"username": "1abc"}, "invalid_username"),
        ({"username": "a b"}, "invalid_username"),
        ({"username": "me"}, "invalid_username"),
        ({"username": ""}, "invalid_username"),
        ({"email": "not-an-address"}, "invalid_email"),
        ({"email": "a@b@c.test"}, "invalid_email"),
        ({"email": "a..b@c.test"}, "invalid_email"),
        ({"password": "short7!"}, "invalid_password"),
        ({"username": "passw0rd1", "password": "PASSW0RD1"}, "invalid_password"),
        ({"description": "x" * 51}, "invalid_description"),
        ({"ntfy_dm_topic": "has space"}, "invalid_ntfy_topic"),
    ],
)
def test_bad_signup_values_are_refused_and_create_nothing(
    server: RunningServer, client: Client, body: dict[str, str], reason: str
) -> None:
    full = {"username": "bob", "email": "bob@example.test", "password": DEFAULT_PASSWORD}
    full.update(body)
    answer = client.post("/users", json=full)
    assert answer.status_code == 422, answer.text
    assert answer.json()["reason"] == reason and answer.json()["message"]
    assert mails_to(server.mail_dir, full["email"]) == []
    assert client.get(f"/users/{full['username']}").status_code != 200


@pytest.mark.parametrize(
    "body",
    [
        {"username": "bob", "email": "bob@example.test"},
        {"username": 5, "email": "bob@example.test", "password": DEFAULT_PASSWORD},
        {"username": "bob", "email": "b@x.test", "password": DEFAULT_PASSWORD, "admin": True},
        ["not", "an", "object"],
    ],
)
def test_malformed_signup_bodies_are_bad_requests(client: Client, body: object) -> None:
    answer = client.post("/users", json=body)
    assert answer.status_code == 400 and answer.json()["reason"] == "bad_request"
    assert client.get("/users/bob").status_code == 404


def test_duplicate_username_or_email_is_a_conflict(server: RunningServer, client: Client) -> None:
    assert signup(client, "carol").status_code == 201
    same_name = client.post(
        "/users",
        json={"username": "CAROL", "email": "other@example.test", "password": DEFAULT_PASSWORD},
    )
    assert same_name.status_code == 409 and same_name.json()["reason"] == "username_taken"
    same_mail = client.post(
        "/users",
        json={"username": "carol2", "email": "Carol@Example.test", "password": DEFAULT_PASSWORD},
    )
    assert same_mail.status_code == 409 and same_mail.json()["reason"] == "email_taken"
    assert client.get("/users/carol2").status_code == 404
    assert mails_to(server.mail_dir, "other@example.test") == []


def test_a_right_code_with_a_wrong_token_changes_nothing(
    server: RunningServer, client: Client
) -> None:
    token = signup(client, "dave").json()["verification_token"]
    code = latest_code(server.mail_dir, "dave@example.test")
    for bad_token in ("x" * 43, token[:-1] + ("A" if token[-1] != "A" else "B")):
        answer = client.post("/verifications", json={"verification_token": bad_token, "code": code})
        assert answer.status_code == 404 and answer.json()["reason"] == "verification_not_found"
    assert login(client, "dave").json()["reason"] == "account_unverified"
    # The right token still works, with all attempts left.
    ok = client.post("/verifications", json={"verification_token": token, "code": code})
    assert ok.status_code == 200 and login(client, "dave").status_code == 201


def test_two_wrong_codes_may_be_retried_and_the_third_locks_the_account(
    server: RunningServer, client: Client
) -> None:
    token = signup(client, "erin").json()["verification_token"]
    code = latest_code(server.mail_dir, "erin@example.test")
    first = client.post("/verifications", json={"verification_token": token, "code": wrong(code)})
    assert first.status_code == 422
    assert first.json()["reason"] == "wrong_code" and first.json()["attempts_left"] == 2
    second = client.post("/verifications", json={"verification_token": token, "code": "abc"})
    assert second.status_code == 422 and second.json()["attempts_left"] == 1
    third = client.post("/verifications", json={"verification_token": token, "code": wrong(code)})
    assert third.status_code == 403 and third.json()["reason"] == "account_locked"
    # Locked: the right code no longer helps, and login is refused with the reason.
    late = client.post("/verifications", json={"verification_token": token, "code": code})
    assert late.status_code in (403, 404)
    refused = login(client, "erin")
    assert refused.status_code == 403 and refused.json()["reason"] == "account_locked"


def test_a_right_code_after_one_wrong_code_verifies(server: RunningServer, client: Client) -> None:
    token = signup(client, "fay").json()["verification_token"]
    code = latest_code(server.mail_dir, "fay@example.test")
    assert (
        client.post(
            "/verifications", json={"verification_token": token, "code": wrong(code)}
        ).json()["attempts_left"]
        == 2
    )
    assert (
        client.post("/verifications", json={"verification_token": token, "code": code}).status_code
        == 200
    )
    assert login(client, "fay").status_code == 201


def test_malformed_verification_bodies_are_bad_requests(client: Client) -> None:
    for body in (
        {"code": "123456"},
        {"verification_token": "x"},
        {"verification_token": 1, "code": "1"},
    ):
        answer = client.post("/verifications", json=body)
        assert answer.status_code == 400 and answer.json()["reason"] == "bad_request"
