"""Who can do what with wrong codes (SPEC §7): a password change, which anyone may ask for,
never locks an account; an e-mail change, asked by the logged-in owner, still does.
Password-change requests are rate limited per account and per client address. End to
end: the real server, codes read from .eml files."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest

from tests.api.verification_helpers import enter, login, time_passes, wrong
from tests.support.server import RunningServer, running_server
from tests.support.users import (
    auth,
    insert_user,
    latest_code,
    mails_to,
    make_user,
    wait_for_mail,
)

Client = httpx.Client


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[RunningServer]:
    # A generous address limit: every request of this module comes from 127.0.0.1.
    with running_server(
        tmp_path_factory.mktemp("password-requests"),
        PASSWORD_REQUEST_LIMIT_USER=2,
        PASSWORD_REQUEST_LIMIT_ADDRESS=1000,
    ) as running:
        yield running


def ask(client: Client, username: str, new_password: str = "a stranger's pick") -> httpx.Response:
    return client.post(f"/users/{username}/password", json={"new_password": new_password})


def test_a_strangers_three_wrong_codes_leave_the_account_usable_and_its_session_alive(
    server: RunningServer, client: Client
) -> None:
    session = make_user(server.base_url, server.mail_dir, "fred")
    # A stranger, with an empty profile, asks for fred's password change and guesses.
    with httpx.Client(base_url=server.api, timeout=10.0) as stranger:
        for round_ in (1, 2):  # asking again later does not bring a lock any closer
            asked = ask(stranger, "fred")
            assert asked.status_code == 202, asked.text
            token = asked.json()["verification_token"]
            code = latest_code(server.mail_dir, "fred@example.test", count=1 + round_)
            first = enter(stranger, token, wrong(code))
            assert first.status_code == 422 and first.json()["reason"] == "wrong_code"
            assert first.json()["message"] == (
                "wrong verification code (2 attempts left; then this request is void)"
            )
            second = enter(stranger, token, wrong(code))
            assert second.json()["message"] == (
                "wrong verification code (1 attempt left; then this request is void)"
            )
            third = enter(stranger, token, wrong(code))
            assert third.status_code == 403 and third.json()["reason"] == "request_void"
            assert third.json()["purpose"] == "password"
            assert "locked" not in third.json()["message"]
            # The void request stays void, even with the right code.
            late = enter(stranger, token, code)
            assert late.status_code == 403 and late.json()["reason"] == "request_void"
            time_passes(server, 120, "fred")
    # fred noticed nothing: the session works, the password is unchanged, no lock.
    me = client.get("/users/me", headers=auth(session))
    assert me.status_code == 200 and me.json()["username"] == "fred"
    assert login(client, "fred", "a stranger's pick").status_code == 401
    assert login(client, "fred").status_code == 201


def test_wrong_password_codes_do_not_count_toward_the_email_change_lock(
    server: RunningServer, client: Client
) -> None:
    session = make_user(server.base_url, server.mail_dir, "gwen")
    asked = ask(client, "gwen")
    code = latest_code(server.mail_dir, "gwen@example.test", count=2)
    for _ in range(2):
        assert enter(client, asked.json()["verification_token"], wrong(code)).status_code == 422
    started = client.post(
        "/users/me/email", headers=auth(session), json={"email": "gwen@new.example.test"}
    )
    assert started.status_code == 202, started.text
    new_code = latest_code(server.mail_dir, "gwen@new.example.test")
    miss = enter(client, started.json()["verification_token"], wrong(new_code))
    assert miss.status_code == 422 and miss.json()["attempts_left"] == 2
    assert client.get("/users/me", headers=auth(session)).status_code == 200


def test_the_third_wrong_email_change_code_locks_the_account_and_ends_its_session(
    server: RunningServer, client: Client
) -> None:
    session = make_user(server.base_url, server.mail_dir, "hedy")
    started = client.post(
        "/users/me/email", headers=auth(session), json={"email": "hedy@new.example.test"}
    )
    token = started.json()["verification_token"]
    code = latest_code(server.mail_dir, "hedy@new.example.test")
    first = enter(client, token, wrong(code))
    assert first.json()["message"] == (
        "wrong verification code (2 attempts left before the account is locked)"
    )
    assert enter(client, token, wrong(code)).json()["attempts_left"] == 1
    third = enter(client, token, wrong(code))
    assert third.status_code == 403 and third.json()["reason"] == "account_locked"
    assert third.json()["purpose"] == "email"
    assert enter(client, token, code).json()["reason"] == "account_locked"
    assert client.get("/users/me", headers=auth(session)).status_code == 401
    assert login(client, "hedy").json()["reason"] == "account_locked"


def test_a_strangers_request_does_not_cancel_the_owners(
    server: RunningServer, client: Client
) -> None:
    make_user(server.base_url, server.mail_dir, "ines")
    mine = ask(client, "ines", "my own new pass")
    assert mine.status_code == 202
    my_code = latest_code(server.mail_dir, "ines@example.test", count=2)
    time_passes(server, 120, "ines")
    assert ask(client, "ines", "a stranger's pick").status_code == 202
    done = enter(client, mine.json()["verification_token"], my_code)
    assert done.status_code == 200, done.text
    assert login(client, "ines", "my own new pass").status_code == 201


def test_password_change_requests_are_limited_per_account(
    server: RunningServer, client: Client
) -> None:
    make_user(server.base_url, server.mail_dir, "jude")
    assert ask(client, "jude").status_code == 202
    # At most one code a minute...
    hasty = ask(client, "jude")
    assert hasty.status_code == 429 and hasty.json()["reason"] == "rate_limited"
    assert 1 <= hasty.json()["retry_after"] <= 60
    time_passes(server, 120, "jude")
    assert ask(client, "jude").status_code == 202
    time_passes(server, 120, "jude")
    # ...and PASSWORD_REQUEST_LIMIT_USER (2 here) within PASSWORD_REQUEST_WINDOW (1 h).
    over = ask(client, "jude")
    assert over.status_code == 429 and over.json()["reason"] == "rate_limited"
    assert over.json()["message"].startswith("too many password-change codes for this account")
    assert 3000 <= over.json()["retry_after"] <= 3600 - 240
    assert over.headers["Retry-After"] == str(over.json()["retry_after"])
    wait_for_mail(server.mail_dir, "jude@example.test", count=3)  # signup + 2 codes...
    assert len(mails_to(server.mail_dir, "jude@example.test")) == 3  # ...and no more
    # Refused requests do not count: once the window has passed, asking works again.
    time_passes(server, 3600, "jude")
    assert ask(client, "jude").status_code == 202


def test_password_change_requests_are_limited_per_address(tmp_path: Path) -> None:
    with (
        running_server(tmp_path, PROXIES_COUNT=1, PASSWORD_REQUEST_LIMIT_ADDRESS=2) as server,
        httpx.Client(base_url=server.api, timeout=10.0) as client,
    ):
        for name in ("ann", "ben", "cat"):
            insert_user(server.database_url, name)
        here = {"X-Forwarded-For": "203.0.113.7"}
        for name in ("ann", "ben"):
            answer = client.post(
                f"/users/{name}/password", json={"new_password": "new password"}, headers=here
            )
            assert answer.status_code == 202, answer.text
        refused = client.post(
            "/users/cat/password", json={"new_password": "new password"}, headers=here
        )
        assert refused.status_code == 429 and refused.json()["reason"] == "rate_limited"
        assert refused.json()["message"].startswith(
            "too many password-change requests from your address"
        )
        assert refused.headers["Retry-After"] == str(refused.json()["retry_after"])
        # The limit is the address's, not the account's: cat asking from elsewhere works.
        elsewhere = client.post(
            "/users/cat/password",
            json={"new_password": "new password"},
            headers={"X-Forwarded-For": "198.51.100.9"},
        )
        assert elsewhere.status_code == 202, elsewhere.text
        wait_for_mail(server.mail_dir, "cat@example.test")
        assert len(mails_to(server.mail_dir, "cat@example.test")) == 1  # none for the 429
