"""System administrators unlock accounts locked by wrong verification codes (SPEC §7)."""

from __future__ import annotations

import httpx

from tests.support.server import RunningServer
from tests.support.users import DEFAULT_PASSWORD, auth, insert_user, latest_code, make_user


def _lock_by_wrong_codes(server: RunningServer, client: httpx.Client, session: str) -> None:
    """Three wrong codes for an e-mail change (only that case locks, SPEC §7)."""
    email = "locked.out@example.test"
    asked = client.post("/users/me/email", headers=auth(session), json={"email": email})
    assert asked.status_code == 202, asked.text
    code = latest_code(server.mail_dir, email)
    wrong = f"{(int(code) + 1) % 1_000_000:06d}"
    token = asked.json()["verification_token"]
    for _ in range(3):
        client.post("/verifications", json={"verification_token": token, "code": wrong})


def _login(client: httpx.Client, username: str) -> httpx.Response:
    body = {"username": username, "password": DEFAULT_PASSWORD, "replace": True}
    return client.post("/sessions", json=body)


def test_only_a_system_admin_unlocks_and_the_account_can_log_in_again(
    server: RunningServer, client: httpx.Client
) -> None:
    locky = make_user(server.base_url, server.mail_dir, "locky")
    player = make_user(server.base_url, server.mail_dir, "nosy")
    admin = insert_user(server.database_url, "root", is_admin=True)
    _lock_by_wrong_codes(server, client, locky)
    assert _login(client, "locky").json()["reason"] == "account_locked"

    refused = client.post("/admin/users/locky/unlock", headers=auth(player))
    assert refused.status_code == 403 and refused.json()["reason"] == "not_admin"
    assert _login(client, "locky").json()["reason"] == "account_locked"  # still locked

    unlocked = client.post("/admin/users/locky/unlock", headers=auth(admin))
    assert unlocked.status_code == 200, unlocked.text
    assert unlocked.json()["username"] == "locky" and unlocked.json()["locked"] is False
    assert _login(client, "locky").status_code == 201  # the old password still works


def test_unlocking_needs_a_login_and_an_existing_user(
    server: RunningServer, client: httpx.Client
) -> None:
    admin = insert_user(server.database_url, "root2", is_admin=True)
    anonymous = client.post("/admin/users/whoever/unlock")
    assert anonymous.status_code == 401
    missing = client.post("/admin/users/nobody/unlock", headers=auth(admin))
    assert missing.status_code == 404 and missing.json()["reason"] == "user_not_found"
