"""The initial administrator: created on an empty database, re-created with INIT=true."""

from __future__ import annotations

import re
from pathlib import Path

import httpx

from tests.support.server import RunningServer, running_server, stop
from tests.support.users import auth

PASSWORD_LINE = re.compile(r"initial administrator '(\w+)' \(re\)created; .*: (\S+)")


def admin_password(server: RunningServer) -> str:
    found = PASSWORD_LINE.findall(server.log_text())
    assert len(found) == 1, server.log_text()[-2000:]
    return str(found[0][1])


def admin_login(server: RunningServer, password: str) -> httpx.Response:
    return httpx.post(
        f"{server.api}/sessions",
        json={"username": "root", "password": password, "replace": True},
        timeout=10,
    )


def test_initial_admin_is_created_once_and_reset_by_init(tmp_path: Path) -> None:
    settings = {"ADMIN_USERNAME": "root", "ADMIN_EMAIL": "root@example.test"}
    with running_server(tmp_path / "first", **settings) as first:
        password = admin_password(first)
        session = admin_login(first, password)
        assert session.status_code == 201, session.text
        me = httpx.get(f"{first.api}/users/me", headers=auth(session.json()["token"])).json()
        assert me["is_admin"] is True and me["email"] == "root@example.test"
        # Stop it, but keep its database (dropped when the outer block ends).
        stop(first.process)
        same = {"DATABASE_URL": first.database_url, **settings}
        # A restart on the same database leaves the admin alone and logs no password.
        with running_server(tmp_path / "second", **same) as second:
            assert PASSWORD_LINE.search(second.log_text()) is None
            assert admin_login(second, password).status_code == 201
        # INIT=true re-creates it with a new password; the old one stops working.
        with running_server(tmp_path / "third", INIT=True, **same) as third:
            new_password = admin_password(third)
            assert new_password != password
            assert admin_login(third, password).status_code == 401
            assert admin_login(third, new_password).status_code == 201
