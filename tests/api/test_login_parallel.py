"""The login rate limits hold for attempts made at the same moment (issue 13, item 1),
and count failures only (issue 25, item 10).

An attempt is counted before its password is checked, in the same transaction as the
check of the limits: of 40 simultaneous wrong logins only the limit's worth are checked
(401), the others are refused (429 with Retry-After). Before, all 40 passed the
check while the first ones were still being verified, and all 40 got 401.

A correct login gives its slot back, and an attempt that finds the limit full of checks
still under way waits for them: 25 friends behind one NAT all log in at once. Before,
every attempt beyond the limit was refused "try again in 900 s" although none failed.
"""

from __future__ import annotations

import itertools
import time
from collections.abc import Iterator

import httpx
import pytest

from tests.support.parallel import post_at_once, statuses
from tests.support.server import RunningServer, running_server
from tests.support.users import DEFAULT_PASSWORD, insert_users, real_password_hash

USER_LIMIT = 5
ADDRESS_LIMIT = 8
WINDOW = 10  # seconds: much longer than the checks of a burst take (about 2 s here)
_addresses = (f"10.2.{n // 250}.{n % 250 + 1}" for n in itertools.count())


def new_address() -> dict[str, str]:
    """A client address of its own (the server trusts one proxy: PROXIES_COUNT=1)."""
    return {"X-Forwarded-For": next(_addresses)}


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[RunningServer]:
    with running_server(
        tmp_path_factory.mktemp("login_parallel"),
        PROXIES_COUNT=1,
        LOGIN_RATE_LIMIT_USER=USER_LIMIT,
        LOGIN_RATE_LIMIT_ADDRESS=ADDRESS_LIMIT,
        LOGIN_RATE_WINDOW=f"{WINDOW}s",
        PASSWORD_HASH_QUEUE=64,  # every admitted attempt is checked: no 503 here
        PASSWORD_HASH_NICE=0,  # the checks of a burst end well inside the window
    ) as running:
        yield running


def user(server: RunningServer, client: httpx.Client, name: str) -> str:
    """A verified user with DEFAULT_PASSWORD and no session; returns its username
    (written into the database with the tests' shared argon2id hash: signing up is not
    what these tests are about)."""
    insert_users(server.database_url, [name])
    return name


def login(
    client: httpx.Client, username: str, password: str, headers: dict[str, str] | None = None
) -> httpx.Response:
    body = {"username": username, "password": password}
    return client.post("/sessions", json=body, headers=headers or new_address())


def assert_refusals_say_when(answers: list[httpx.Response]) -> int:
    """Every 429 says how long to wait, in its JSON and its Retry-After; the longest wait."""
    waits = []
    for answer in answers:
        if answer.status_code == 429:
            assert answer.json()["reason"] == "rate_limited"
            wait = answer.json()["retry_after"]
            assert 1 <= wait <= WINDOW and answer.headers["Retry-After"] == str(wait)
            waits.append(wait)
    return max(waits)


def test_simultaneous_wrong_logins_for_one_user_stop_at_the_limit(
    server: RunningServer, client: httpx.Client
) -> None:
    name = user(server, client, "racer")
    attempts = [({"username": name, "password": f"guess {n}"}, new_address()) for n in range(40)]
    answers = post_at_once(server.api + "/sessions", attempts)
    assert statuses(answers) == {401: USER_LIMIT, 429: 40 - USER_LIMIT}
    wait = assert_refusals_say_when(answers)
    # Still limited, even for the right password; after the window it works again.
    assert login(client, name, DEFAULT_PASSWORD).status_code == 429
    time.sleep(wait + 0.2)
    assert login(client, name, DEFAULT_PASSWORD).status_code == 201


def test_simultaneous_wrong_logins_from_one_address_stop_at_the_limit(
    server: RunningServer, client: httpx.Client
) -> None:
    name = user(server, client, "racer2")
    address = new_address()
    attempts = [({"username": f"ghost{n}", "password": "guess"}, address) for n in range(40)]
    answers = post_at_once(server.api + "/sessions", attempts)
    assert statuses(answers) == {401: ADDRESS_LIMIT, 429: 40 - ADDRESS_LIMIT}
    wait = assert_refusals_say_when(answers)
    # The address is limited, not the user; after the window the address may try again.
    assert login(client, name, DEFAULT_PASSWORD, headers=address).status_code == 429
    time.sleep(wait + 0.2)
    answer = login(client, name, DEFAULT_PASSWORD, headers=address)
    assert answer.status_code == 201, answer.text


def test_successful_logins_are_not_counted_against_the_user(
    server: RunningServer, client: httpx.Client
) -> None:
    name = user(server, client, "winner")
    correct = {"username": name, "password": DEFAULT_PASSWORD, "replace": True}
    answers = post_at_once(
        server.api + "/sessions", [(correct, new_address()) for _ in range(USER_LIMIT)]
    )
    assert statuses(answers) == {201: USER_LIMIT}
    # All the failures the limit allows are still there, then the limit holds.
    wrong = [login(client, name, "wrong password").status_code for _ in range(USER_LIMIT + 1)]
    assert wrong == [401] * USER_LIMIT + [429]


def test_friends_behind_one_address_all_log_in_at_once(
    server: RunningServer, client: httpx.Client
) -> None:
    """25 correct logins from 127.0.0.1 at the same moment, against an address limit of
    8: all succeed (before: 17 were refused 'try again in 5 seconds', 900 by default)."""
    names = [f"friend{n}" for n in range(25)]
    insert_users(server.database_url, names)
    attempts = [({"username": name, "password": DEFAULT_PASSWORD}, {}) for name in names]
    answers = post_at_once(server.api + "/sessions", attempts)
    assert statuses(answers) == {201: 25}, [a.text for a in answers if a.status_code != 201]
    assert sorted(a.json()["username"] for a in answers) == sorted(names)
    # Their successes took nothing from the address: all its failures are still there.
    guesses = [({"username": f"nobody{n}", "password": "guess"}, {})
               for n in range(ADDRESS_LIMIT)]
    assert statuses(post_at_once(server.api + "/sessions", guesses)) == {401: ADDRESS_LIMIT}


def test_simultaneous_correct_logins_beyond_the_user_limit_all_succeed(
    server: RunningServer, client: httpx.Client
) -> None:
    """Twice the user limit of correct logins for one user at once (each replacing the
    one before): all are let in, none is refused."""
    name = "crowd"
    insert_users(server.database_url, [name])  # (127.0.0.1 may be at its limit: no login)
    correct = {"username": name, "password": DEFAULT_PASSWORD, "replace": True}
    answers = post_at_once(
        server.api + "/sessions", [(correct, new_address()) for _ in range(2 * USER_LIMIT)]
    )
    assert statuses(answers) == {201: 2 * USER_LIMIT}


def test_guesses_whose_client_went_away_count_as_failures_at_once(
    server: RunningServer, client: httpx.Client
) -> None:
    """A client that hangs up while its password is checked does not leave its slot
    "being checked" (for which the next attempts would wait): it is a failure, and the
    next attempt over the limit is refused at once."""
    name = "quitter"
    # a real hash: each check takes argon2's real time (the server checks a stored hash
    # with its own parameters), long enough for the client to hang up during it
    insert_users(server.database_url, [name], real_password_hash())
    for n in range(USER_LIMIT):
        with pytest.raises(httpx.TimeoutException):
            httpx.post(server.api + "/sessions", json={"username": name, "password": f"g{n}"},
                       headers=new_address(), timeout=0.05)
    answers = []
    for _ in range(USER_LIMIT + 1):  # whatever the hung-up ones left, no wait for them
        started = time.monotonic()
        answer = login(client, name, "one more guess")
        answers.append((answer.status_code, round(time.monotonic() - started, 1)))
        if answer.status_code == 429:
            break
    assert answers[-1][0] == 429, answers
    assert all(status in (401, 429) and took < 8 for status, took in answers), answers
