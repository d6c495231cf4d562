"""Signups per client address (each one e-mails a code to an address of the caller's
choosing): SIGNUP_LIMIT_ADDRESS within SIGNUP_WINDOW, then 429 with Retry-After, having
created nothing and sent nothing. Other addresses sign up meanwhile. End to end: the real
server behind one trusted proxy (X-Forwarded-For names the client)."""

from __future__ import annotations

import itertools
from collections.abc import Iterator

import httpx
import pytest

from corridorquest.store import Store
from corridorquest.store.models import SignupRequest, User
from tests.support.server import RunningServer, running_server
from tests.support.users import DEFAULT_PASSWORD, latest_code, mails_to

_addresses = (f"10.2.{n // 250}.{n % 250 + 1}" for n in itertools.count())


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[RunningServer]:
    with running_server(
        tmp_path_factory.mktemp("signups"), PROXIES_COUNT=1, SIGNUP_LIMIT_ADDRESS=2,
        SIGNUP_WINDOW="1h", GUESTS="on",  # guests count with the signups
    ) as running:
        yield running


def sign_up(client: httpx.Client, name: str, address: str) -> httpx.Response:
    body = {"username": name, "email": f"{name}@example.test", "password": DEFAULT_PASSWORD}
    return client.post("/users", json=body, headers={"X-Forwarded-For": address})


def stored_users(server: RunningServer) -> set[str]:
    store = Store.open(server.database_url, pool_size=1, migrate=False)
    try:
        return set(store.run(lambda: [user.username for user in User.select(User.username)]))
    finally:
        store.close()


def test_the_third_signup_from_one_address_within_the_window_is_refused(
    server: RunningServer, client: httpx.Client
) -> None:
    mine, other = next(_addresses), next(_addresses)
    for name in ("sig1", "sig2"):
        assert sign_up(client, name, mine).status_code == 201
    refused = sign_up(client, "sig3", mine)
    assert refused.status_code == 429, refused.text
    body = refused.json()
    assert body["reason"] == "rate_limited"
    assert body["message"].startswith("too many signups from your address; ask again in ")
    assert 3500 <= body["retry_after"] <= 3600
    assert refused.headers["Retry-After"] == str(body["retry_after"])
    assert "sig3" not in stored_users(server)  # nothing created...
    assert mails_to(server.mail_dir, "sig3@example.test") == []  # ...and nothing sent
    # another address signs up as before, and the refused name is still free for it
    taken = sign_up(client, "sig3", other)
    assert taken.status_code == 201, taken.text
    assert latest_code(server.mail_dir, "sig3@example.test")
    assert {"sig1", "sig2", "sig3"} <= stored_users(server)


def test_refused_and_taken_signups_do_not_count_towards_the_limit(
    server: RunningServer, client: httpx.Client
) -> None:
    address = next(_addresses)
    assert sign_up(client, "cnt1", address).status_code == 201
    bad = client.post("/users", json={"username": "cnt2", "email": "not-an-address",
                                      "password": DEFAULT_PASSWORD},
                      headers={"X-Forwarded-For": address})
    assert bad.status_code == 422
    taken = client.post("/users", json={"username": "cnt1", "email": "cnt9@example.test",
                                        "password": DEFAULT_PASSWORD},
                        headers={"X-Forwarded-For": address})
    assert taken.status_code == 409 and taken.json()["reason"] == "username_taken"
    assert sign_up(client, "cnt3", address).status_code == 201  # the second code sent
    assert sign_up(client, "cnt4", address).status_code == 429


def test_signup_requests_past_the_window_are_purged(server: RunningServer) -> None:
    from datetime import timedelta

    from corridorquest.services.verification import purge_expired
    from corridorquest.store.models import utcnow

    store = Store.open(server.database_url, pool_size=1, migrate=False)
    try:

        def age() -> int:  # what the scheduler's purge does with an old request
            old = utcnow() - timedelta(hours=2)
            SignupRequest.create(address="10.9.9.9", at=old)
            purge_expired(86400, 3600, 3600)
            return SignupRequest.select().where(SignupRequest.address == "10.9.9.9").count()

        assert store.run(age) == 0
    finally:
        store.close()


def test_addresses_of_one_ipv6_64_share_the_limit_and_another_64_does_not(
    server: RunningServer, client: httpx.Client
) -> None:
    """One client is handed a whole /64: changing its address within it gains nothing
    (LIMIT_IPV6_PREFIX, default 64)."""
    assert sign_up(client, "six1", "2001:db8:64:1::1").status_code == 201
    assert sign_up(client, "six2", "2001:db8:64:1:aaaa:bbbb:cccc:dddd").status_code == 201
    refused = sign_up(client, "six3", "2001:db8:64:1::3")
    assert refused.status_code == 429, refused.text
    assert refused.json()["reason"] == "rate_limited"
    assert "six3" not in stored_users(server)
    assert sign_up(client, "six3", "2001:db8:64:2::1").status_code == 201  # another /64


def test_guests_from_one_ipv6_64_count_with_its_signups(
    server: RunningServer, client: httpx.Client
) -> None:
    def guest(name: str, address: str) -> httpx.Response:
        return client.post("/guests", json={"username": name},
                           headers={"X-Forwarded-For": address})

    assert sign_up(client, "gsix1", "2001:db8:66:1::1").status_code == 201
    assert guest("gsix2", "2001:db8:66:1::2").status_code == 201
    refused = guest("gsix3", "2001:db8:66:1:1:2:3:4")
    assert refused.status_code == 429 and refused.json()["reason"] == "rate_limited"
    assert "gsix3" not in stored_users(server)
    assert guest("gsix3", "2001:db8:66:2::1").status_code == 201  # another /64
