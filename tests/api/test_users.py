"""Profile end to end: show, change, password change (no login), e-mail change."""

from __future__ import annotations

import httpx
import pytest

from tests.support.server import RunningServer
from tests.support.users import (
    DEFAULT_PASSWORD,
    auth,
    latest_code,
    mail_text,
    mails_to,
    make_user,
    wait_for_mail,
)

Client = httpx.Client


def login(client: Client, username: str, password: str = DEFAULT_PASSWORD) -> httpx.Response:
    return client.post(
        "/sessions", json={"username": username, "password": password, "replace": True}
    )


def change_email(client: Client, token: str, email: str) -> httpx.Response:
    return client.post("/users/me/email", headers=auth(token), json={"email": email})


def test_show_self_has_every_field_and_others_only_public_ones(
    server: RunningServer, client: Client
) -> None:
    token = make_user(server.base_url, server.mail_dir, "alice")
    me = client.get("/users/me", headers=auth(token)).json()
    assert me["username"] == "alice" and me["email"] == "alice@example.test"
    assert me["notify"] == {"turn": True, "action": False, "game": True, "digest": False}
    assert me["theme"] == "dark" and me["is_admin"] is False and me["ntfy_dm_topic"] is None
    assert me["created_at"].endswith("Z") and me["password_changed_at"].endswith("Z")
    other = make_user(server.base_url, server.mail_dir, "bob")
    public = client.get("/users/alice", headers=auth(other)).json()
    assert public == {
        "username": "alice",
        "description": "",
        "is_admin": False,
        "bot": None,  # a person (a bot: {"level": N})
        "guest": False,  # a full account (a guest of GUESTS=on: true)
        "created_at": me["created_at"],
    }
    missing = client.get("/users/nobody")
    assert missing.status_code == 404 and missing.json()["reason"] == "user_not_found"
    assert client.get("/users/me").status_code == 401


def test_profile_changes_apply_together(server: RunningServer, client: Client) -> None:
    token = make_user(server.base_url, server.mail_dir, "carol")
    changed = client.patch(
        "/users/me",
        headers=auth(token),
        json={
            "description": "likes walls",
            "theme": "translucent",
            "ntfy_dm_topic": "carol-secret-77",
            "notify": {"action": True, "turn": False},
        },
    )
    assert changed.status_code == 200, changed.text
    body = changed.json()
    assert body["description"] == "likes walls" and body["theme"] == "translucent"
    assert body["ntfy_dm_topic"] == "carol-secret-77"
    assert body["notify"] == {"turn": False, "action": True, "game": True, "digest": False}
    assert client.get("/users/me", headers=auth(token)).json() == body
    cleared = client.patch("/users/me", headers=auth(token), json={"ntfy_dm_topic": None})
    assert cleared.json()["ntfy_dm_topic"] is None
    assert cleared.json()["description"] == "likes walls"


@pytest.mark.parametrize(
    ("body", "status", "reason"),
    [
        ({"description": "y" * 51}, 422, "invalid_description"),
        ({"description": "two\nlines"}, 422, "invalid_description"),
        ({"theme": "neon"}, 400, "bad_request"),
        ({"ntfy_dm_topic": "no/slashes"}, 422, "invalid_ntfy_topic"),
        ({"username": "9lives"}, 422, "invalid_username"),
        ({"notify": {"turn": "yes"}}, 400, "bad_request"),
        ({"notify": {"email": True}}, 400, "bad_request"),
        ({"is_admin": True}, 400, "bad_request"),
        # One bad field refuses the whole change.
        ({"description": "fine", "username": "x" * 11}, 422, "invalid_username"),
    ],
)
def test_bad_profile_changes_are_refused_and_change_nothing(
    server: RunningServer, client: Client, body: dict[str, object], status: int, reason: str
) -> None:
    token = login(client, "dan").json().get("token") or make_user(
        server.base_url, server.mail_dir, "dan"
    )
    before = client.get("/users/me", headers=auth(token)).json()
    answer = client.patch("/users/me", headers=auth(token), json=body)
    assert answer.status_code == status and answer.json()["reason"] == reason
    assert client.get("/users/me", headers=auth(token)).json() == before


def test_profile_changes_need_a_login(client: Client) -> None:
    answer = client.patch("/users/me", json={"description": "sneaky"})
    assert answer.status_code == 401
    assert client.patch("/users/me", headers=auth("forged"), json={}).status_code == 401


def test_username_change_keeps_the_account_and_frees_the_old_name(
    server: RunningServer, client: Client
) -> None:
    token = make_user(server.base_url, server.mail_dir, "erin")
    make_user(server.base_url, server.mail_dir, "fred")
    taken = client.patch("/users/me", headers=auth(token), json={"username": "FRED"})
    assert taken.status_code == 409 and taken.json()["reason"] == "username_taken"
    assert client.get("/users/me", headers=auth(token)).json()["username"] == "erin"
    renamed = client.patch("/users/me", headers=auth(token), json={"username": "erin_2"})
    assert renamed.status_code == 200 and renamed.json()["username"] == "erin_2"
    # The session stays; the old name is gone; the new name logs in.
    assert client.get("/users/me", headers=auth(token)).json()["email"] == "erin@example.test"
    assert client.get("/users/erin").status_code == 404
    assert login(client, "erin").status_code == 401
    assert login(client, "erin_2").status_code == 201


def test_password_change_without_login_applies_on_verify(
    server: RunningServer, client: Client
) -> None:
    token = make_user(server.base_url, server.mail_dir, "gail")
    started = client.post("/users/gail/password", json={"new_password": "brand new pass"})
    assert started.status_code == 202, started.text
    assert started.json()["purpose"] == "password"
    # A second request right away is refused and mails nothing (no mail bombing).
    again = client.post("/users/gail/password", json={"new_password": "other new pass"})
    assert again.status_code == 429 and again.json()["reason"] == "rate_limited"
    assert 1 <= again.json()["retry_after"] <= 60
    # Not applied yet: the old password still works, the session too.
    assert client.get("/users/me", headers=auth(token)).status_code == 200
    assert login(client, "gail", "brand new pass").status_code == 401
    code = latest_code(server.mail_dir, "gail@example.test", count=2)
    done = client.post(
        "/verifications",
        json={"verification_token": started.json()["verification_token"], "code": code},
    )
    assert done.json() == {"purpose": "password", "username": "gail"}
    assert len(mails_to(server.mail_dir, "gail@example.test")) == 2
    # Applied: sessions ended, old password refused, new one accepted.
    assert client.get("/users/me", headers=auth(token)).status_code == 401
    assert login(client, "gail").status_code == 401
    assert login(client, "gail", "brand new pass").status_code == 201


@pytest.mark.parametrize(
    ("username", "new_password", "status", "reason"),
    [
        ("nobody", "long enough 1", 404, "user_not_found"),
        ("hank", "short", 422, "invalid_password"),
        ("hank", "HANK", 422, "invalid_password"),
    ],
)
def test_bad_password_change_requests_send_nothing(
    server: RunningServer,
    client: Client,
    username: str,
    new_password: str,
    status: int,
    reason: str,
) -> None:
    if login(client, "hank").status_code != 201:
        make_user(server.base_url, server.mail_dir, "hank")
    mails_before = len(mails_to(server.mail_dir, "hank@example.test"))
    answer = client.post(f"/users/{username}/password", json={"new_password": new_password})
    assert answer.status_code == status and answer.json()["reason"] == reason
    assert len(mails_to(server.mail_dir, "hank@example.test")) == mails_before
    assert login(client, "hank").status_code == 201


def test_email_change_sends_a_code_to_the_new_address_and_a_notice_to_the_old(
    server: RunningServer, client: Client
) -> None:
    token = make_user(server.base_url, server.mail_dir, "iris")
    started = change_email(client, token, "iris@new.example.test")
    assert started.status_code == 202 and started.json()["purpose"] == "email"
    notice = mail_text(wait_for_mail(server.mail_dir, "iris@example.test", count=2))
    assert "iris@new.example.test" in notice
    code = latest_code(server.mail_dir, "iris@new.example.test")
    assert code not in notice
    assert client.get("/users/me", headers=auth(token)).json()["email"] == "iris@example.test"
    done = client.post(
        "/verifications",
        json={"verification_token": started.json()["verification_token"], "code": code},
    )
    assert done.json() == {"purpose": "email", "username": "iris"}
    me = client.get("/users/me", headers=auth(token)).json()
    assert me["email"] == "iris@new.example.test"


def test_email_change_refuses_taken_bad_and_unchanged_addresses(
    server: RunningServer, client: Client
) -> None:
    token = make_user(server.base_url, server.mail_dir, "jack")
    make_user(server.base_url, server.mail_dir, "kate")
    for email, status, reason in [
        ("Kate@Example.test", 409, "email_taken"),
        ("jack-at-nowhere", 422, "invalid_email"),
        ("jack@example.test", 422, "invalid_email"),
    ]:
        answer = change_email(client, token, email)
        assert (answer.status_code, answer.json()["reason"]) == (status, reason)
    assert len(mails_to(server.mail_dir, "jack@example.test")) == 1  # the signup code only
    assert client.post("/users/me/email", json={"email": "j@x.test"}).status_code == 401


def test_an_address_taken_meanwhile_is_refused_at_verify(
    server: RunningServer, client: Client
) -> None:
    token = make_user(server.base_url, server.mail_dir, "lena")
    started = change_email(client, token, "shared@example.test").json()
    code = latest_code(server.mail_dir, "shared@example.test")
    make_user(server.base_url, server.mail_dir, "mike", email="shared@example.test")
    late = client.post(
        "/verifications", json={"verification_token": started["verification_token"], "code": code}
    )
    assert late.status_code == 409 and late.json()["reason"] == "email_taken"
    assert client.get("/users/me", headers=auth(token)).json()["email"] == "lena@example.test"
