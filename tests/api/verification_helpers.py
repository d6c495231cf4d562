"""Helpers for the verification-code tests: requests, wrong codes, and time passing.

`time_passes` moves a user's stored times (signup, codes, password-change requests) into
the past, in the server's real database: the server then sees exactly what it would see
that much later, without a test that sleeps.
"""

from __future__ import annotations

from datetime import timedelta

import httpx

from corridorquest.store import Store
from corridorquest.store.models import PasswordRequest, User, Verification
from tests.support.server import RunningServer
from tests.support.users import DEFAULT_PASSWORD


def wrong(code: str) -> str:
    """A code that is not `code`."""
    return f"{(int(code) + 1) % 1_000_000:06d}"


def enter(client: httpx.Client, token: str, code: str) -> httpx.Response:
    return client.post("/verifications", json={"verification_token": token, "code": code})


def signup(
    client: httpx.Client, username: str, email: str | None = None, password: str = DEFAULT_PASSWORD
) -> httpx.Response:
    body = {"username": username, "email": email or f"{username}@example.test"}
    return client.post("/users", json={**body, "password": password})


def login(client: httpx.Client, username: str, password: str = DEFAULT_PASSWORD) -> httpx.Response:
    body = {"username": username, "password": password, "replace": True}
    return client.post("/sessions", json=body)


def time_passes(server: RunningServer, seconds: float, *usernames: str) -> None:
    """As if `seconds` had passed for these users' signup, codes and password requests."""
    delta = timedelta(seconds=seconds)
    store = Store.open(server.database_url, pool_size=1, migrate=False)

    def shift() -> None:
        for name in usernames:
            user = User.find_by_name(name)
            assert user is not None, name
            user.created_at -= delta
            user.save(only=[User.created_at])
            for code in Verification.select().where(Verification.user == user):
                code.created_at -= delta
                code.expires_at -= delta
                code.save(only=[Verification.created_at, Verification.expires_at])
            for asked in PasswordRequest.select().where(PasswordRequest.user == user):
                asked.at -= delta
                asked.save(only=[PasswordRequest.at])

    try:
        store.run(shift)
    finally:
        store.close()
