"""A session used a moment ago answers at once for what changed since (the real server).

On SQLite the server keeps the sessions it read lately (services/known_sessions.py), so
that a request does not read its session again: each test uses a session, changes what
it says (a logout, a lock, a promotion, a demotion, another program's write to the
database; a guest made a full account: tests/api/test_guests.py) and uses it again at
once, as a client would.
"""

from __future__ import annotations

import httpx

from corridorquest.security.tokens import hash_token
from corridorquest.store import Store
from corridorquest.store.models import Session
from tests.support.server import RunningServer
from tests.support.users import auth, insert_user


def me(client: httpx.Client, token: str) -> httpx.Response:
    return client.get("/users/me", headers=auth(token))


def test_a_logout_ends_a_session_used_a_moment_ago(
    server: RunningServer, client: httpx.Client
) -> None:
    token = insert_user(server.database_url, "ks_leaver")
    assert me(client, token).status_code == 200
    assert client.delete("/sessions/current", headers=auth(token)).status_code == 204
    gone = me(client, token)
    assert gone.status_code == 401 and gone.json()["reason"] == "unauthenticated"


def test_a_lock_ends_a_session_used_a_moment_ago(
    server: RunningServer, client: httpx.Client
) -> None:
    admin = insert_user(server.database_url, "ks_root", is_admin=True)
    token = insert_user(server.database_url, "ks_locked")
    assert me(client, token).status_code == 200
    locked = client.post("/admin/users/ks_locked/lock", headers=auth(admin))
    assert locked.status_code == 200, locked.text
    assert me(client, token).status_code == 401


def test_a_promotion_and_a_demotion_count_from_the_next_request(
    server: RunningServer, client: httpx.Client
) -> None:
    admin = insert_user(server.database_url, "ks_boss", is_admin=True)
    token = insert_user(server.database_url, "ks_deputy")
    assert client.get("/admin/audit", headers=auth(token)).status_code == 403
    promoted = client.post("/admin/users/ks_deputy/promote", headers=auth(admin))
    assert promoted.status_code == 200, promoted.text
    assert client.get("/admin/audit", headers=auth(token)).status_code == 200
    demoted = client.post("/admin/users/ks_deputy/demote", headers=auth(admin))
    assert demoted.status_code == 200, demoted.text
    assert client.get("/admin/audit", headers=auth(token)).status_code == 403


def test_another_programs_write_counts_from_the_next_request(
    server: RunningServer, client: httpx.Client
) -> None:
    # what `corridorquest init-admin` does beside a running server: end the sessions
    token = insert_user(server.database_url, "ks_other")
    assert me(client, token).status_code == 200
    store = Store.open(server.database_url, pool_size=1, migrate=False)
    try:
        store.run(lambda: Session.delete().where(Session.token_hash == hash_token(token)).execute())
    finally:
        store.close()
    assert me(client, token).status_code == 401
