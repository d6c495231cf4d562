"""The last-admin guard counts only administrators who can log in (issue 25, item 19).

An account that cannot log in (not verified yet, or locked) is no help as an
administrator: demoting, locking or deleting the only administrator who can log in is
refused (409 `last_admin`) even while such an account has the flag.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest

from tests.api.test_users_admin import admin_login, admin_password
from tests.support.server import RunningServer, running_server
from tests.support.users import DEFAULT_PASSWORD, auth, insert_user


@pytest.fixture
def server(tmp_path: Path) -> Iterator[RunningServer]:
    """A server of its own: its only administrator is the initial one, `root`."""
    admin = {"ADMIN_USERNAME": "root", "ADMIN_EMAIL": "root@example.test"}
    with running_server(tmp_path, **admin) as running:
        yield running


def _admins(client: httpx.Client, token: str) -> set[str]:
    listed = client.get("/admin/users", params={"admins": "true"}, headers=auth(token))
    assert listed.status_code == 200, listed.text
    rows = listed.json()
    rows = rows["users"] if isinstance(rows, dict) else rows
    return {row["username"] for row in rows}


def test_an_unverified_or_locked_admin_does_not_count(server: RunningServer) -> None:
    with httpx.Client(base_url=server.api, timeout=10.0) as client:
        login = admin_login(server, admin_password(server))
        assert login.status_code == 201, login.text
        root = login.json()["token"]
        signup = client.post(
            "/users",
            json={"username": "ghost", "email": "ghost@example.test", "password": DEFAULT_PASSWORD},
        )
        assert signup.status_code == 201, signup.text  # never verified: cannot log in
        assert client.post("/admin/users/ghost/promote", headers=auth(root)).status_code == 200
        assert _admins(client, root) == {"root", "ghost"}
        refused = client.post(
            "/sessions", json={"username": "ghost", "password": DEFAULT_PASSWORD}
        )
        assert refused.status_code == 403, refused.text

        demoted = client.post("/admin/users/root/demote", headers=auth(root))
        assert demoted.status_code == 409, demoted.text
        assert demoted.json()["reason"] == "last_admin"
        me = client.get("/users/me", headers=auth(root))
        assert me.json()["is_admin"] is True  # nothing changed

        # A locked administrator does not count either.
        insert_user(server.database_url, "sleepy", is_admin=True)
        assert client.post("/admin/users/sleepy/lock", headers=auth(root)).status_code == 200
        again = client.post("/admin/users/root/demote", headers=auth(root))
        assert again.status_code == 409 and again.json()["reason"] == "last_admin"

        # Once the second account is verified it can log in, and root may step down.
        assert client.post("/admin/users/ghost/verify", headers=auth(root)).status_code == 200
        stepped = client.post("/admin/users/root/demote", headers=auth(root))
        assert stepped.status_code == 200, stepped.text
        assert stepped.json()["is_admin"] is False
