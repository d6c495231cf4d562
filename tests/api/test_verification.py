"""Signup and verification codes end to end: the real server, codes read from .eml files."""

from __future__ import annotations

import httpx
import pytest

from tests.api.verification_helpers import time_passes
from tests.support.server import RunningServer
from tests.support.users import DEFAULT_PASSWORD, auth, latest_code, mails_to, make_user

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


def test_two_wrong_signup_codes_may_be_retried_and_the_third_voids_the_signup(
    server: RunningServer, client: Client
) -> None:
    token = signup(client, "erin").json()["verification_token"]
    code = latest_code(server.mail_dir, "erin@example.test")
    first = client.post("/verifications", json={"verification_token": token, "code": wrong(code)})
    assert first.status_code == 422 and first.json()["reason"] == "wrong_code"
    assert first.json()["attempts_left"] == 2 and first.json()["purpose"] == "signup"
    assert first.json()["message"] == (
        "wrong verification code (2 attempts left; then the signup is void)"
    )
    second = client.post("/verifications", json={"verification_token": token, "code": "abc"})
    assert second.status_code == 422 and second.json()["attempts_left"] == 1
    assert "(1 attempt left;" in second.json()["message"]
    third = client.post("/verifications", json={"verification_token": token, "code": wrong(code)})
    assert third.status_code == 403 and third.json()["reason"] == "signup_void"
    assert "sign up again with the same username and e-mail" in third.json()["message"]
    # Void: the right code no longer helps and says why; nothing is locked, the account
    # is still waiting for its verification and still holds its name.
    late = client.post("/verifications", json={"verification_token": token, "code": code})
    assert late.status_code == 403 and late.json()["reason"] == "signup_void"
    refused = login(client, "erin")
    assert refused.status_code == 403 and refused.json()["reason"] == "account_unverified"
    other = signup(client, "erin", email="someone.else@example.test")
    assert other.status_code == 409 and other.json()["reason"] == "username_taken"


def test_a_void_signup_signs_up_again_with_the_same_name_and_email_and_the_new_code_works(
    server: RunningServer, client: Client
) -> None:
    token = signup(client, "gus").json()["verification_token"]
    code = latest_code(server.mail_dir, "gus@example.test")
    for _ in range(3):
        client.post("/verifications", json={"verification_token": token, "code": wrong(code)})
    # At once: refused, no mail (signing up again is no way to flood a mailbox).
    hasty = signup(client, "gus")
    assert hasty.status_code == 429 and hasty.json()["reason"] == "rate_limited"
    assert 1 <= hasty.json()["retry_after"] <= 60
    assert hasty.headers["Retry-After"] == str(hasty.json()["retry_after"])
    time_passes(server, 120, "gus")
    again = client.post(
        "/users",
        json={"username": "Gus", "email": "GUS@example.test", "password": "a new password"},
    )
    assert again.status_code == 201, again.text
    assert again.json()["username"] == "Gus"
    new_code = latest_code(server.mail_dir, "gus@example.test", count=2)
    assert len(mails_to(server.mail_dir, "gus@example.test")) == 2  # none for the 429
    new_token = again.json()["verification_token"]
    assert new_token != token
    stale = client.post("/verifications", json={"verification_token": token, "code": new_code})
    assert stale.status_code == 404 and stale.json()["reason"] == "verification_not_found"
    done = client.post("/verifications", json={"verification_token": new_token, "code": new_code})
    assert done.status_code == 200, done.text
    assert done.json() == {"purpose": "signup", "username": "Gus"}
    assert login(client, "gus").status_code == 401  # the first signup's password is gone
    assert login(client, "gus", "a new password").status_code == 201


def test_signing_up_again_before_the_code_expired_sends_a_new_code(
    server: RunningServer, client: Client
) -> None:
    first = signup(client, "hugo").json()["verification_token"]
    time_passes(server, 120, "hugo")
    again = signup(client, "hugo", password="second password")
    assert again.status_code == 201, again.text
    code = latest_code(server.mail_dir, "hugo@example.test", count=2)
    assert len(mails_to(server.mail_dir, "hugo@example.test")) == 2
    # The new code replaces the old one: only the new token takes it.
    old = client.post("/verifications", json={"verification_token": first, "code": code})
    assert old.status_code == 404 and old.json()["reason"] == "verification_not_found"
    token = again.json()["verification_token"]
    assert (
        client.post("/verifications", json={"verification_token": token, "code": code}).status_code
        == 200
    )
    assert login(client, "hugo", "second password").status_code == 201
    # Verified: the same name and e-mail are now simply taken.
    taken = signup(client, "hugo")
    assert taken.status_code == 409 and taken.json()["reason"] == "username_taken"


def test_an_expired_code_says_so_and_how_to_get_a_new_one(
    server: RunningServer, client: Client
) -> None:
    token = signup(client, "ivy").json()["verification_token"]
    code = latest_code(server.mail_dir, "ivy@example.test")
    time_passes(server, 3601, "ivy")  # VERIFICATION_CODE_TTL is one hour
    for _ in range(2):  # the same answer each time, and the right code does not help
        late = client.post("/verifications", json={"verification_token": token, "code": code})
        assert late.status_code == 422 and late.json()["reason"] == "code_expired"
        assert "sign up again with the same username and e-mail" in late.json()["message"]
    assert login(client, "ivy").json()["reason"] == "account_unverified"
    assert signup(client, "ivy").status_code == 201  # within the retention: a new code


def test_an_expired_unverified_signup_frees_its_username_and_email(
    server: RunningServer, client: Client
) -> None:
    olga = signup(client, "olga").json()["verification_token"]
    olga_code = latest_code(server.mail_dir, "olga@example.test")
    for name in ("pia", "rex", "tess"):
        assert signup(client, name).status_code == 201
    # Within SIGNUP_RETENTION (a day) the name and the address are held...
    taken = signup(client, "olga", email="olga.two@example.test")
    assert taken.status_code == 409 and taken.json()["reason"] == "username_taken"
    assert "not verified yet" in taken.json()["message"]
    taken = signup(client, "olga2", email="olga@example.test")
    assert taken.status_code == 409 and taken.json()["reason"] == "email_taken"
    time_passes(server, 86400 + 60, "olga", "pia", "rex", "tess")
    # ...then whoever needs them takes them: a signup the username...
    fresh = signup(client, "olga", email="olga.two@example.test")
    assert fresh.status_code == 201, fresh.text
    gone = client.post("/verifications", json={"verification_token": olga, "code": olga_code})
    assert gone.status_code == 404 and gone.json()["reason"] == "verification_not_found"
    # ...a signup the address...
    assert client.get("/users/rex").status_code == 200
    assert signup(client, "sam", email="rex@example.test").status_code == 201
    assert client.get("/users/rex").status_code == 404
    # ...an e-mail change the address...
    quinn = make_user(server.base_url, server.mail_dir, "quinn")
    moved = client.post("/users/me/email", headers=auth(quinn), json={"email": "pia@example.test"})
    assert moved.status_code == 202, moved.text
    code = latest_code(server.mail_dir, "pia@example.test", count=2)
    done = client.post(
        "/verifications",
        json={"verification_token": moved.json()["verification_token"], "code": code},
    )
    assert done.status_code == 200, done.text
    assert client.get("/users/me", headers=auth(quinn)).json()["email"] == "pia@example.test"
    assert client.get("/users/pia").status_code == 404
    # ...and a rename the username.
    renamed = client.patch("/users/me", headers=auth(quinn), json={"username": "tess"})
    assert renamed.status_code == 200, renamed.text
    assert renamed.json()["username"] == "tess"


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
