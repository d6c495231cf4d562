"""25 friends behind one address log in at the same moment, with the server's default
limits (issue 25, item 10): every login succeeds.

The server counts failed logins only (a correct one gives its slot back), and the client
sends a login that the busy password hashing refused (503 `password_hashing_busy`, the
default pool checks one password at a time with 4 waiting) again, up to
LOGIN_BUSY_RETRIES times, each wait spread by up to a second. Before, the logins beyond
LOGIN_RATE_LIMIT_ADDRESS were told "try again in 900 seconds", and of the rest those
refused as busy more than three times failed.

The players' client is cq's ApiClient, the code `cq login` sends its request with (25
threads of one process: click's test runner cannot run commands at once).
"""

from __future__ import annotations

import threading
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor

import pytest

from client.api import ApiClient
from client.errors import CqError
from tests.support.server import REAL_PASSWORD_HASHING, RunningServer, running_server
from tests.support.users import DEFAULT_PASSWORD, insert_users, real_password_hash

FRIENDS = 25

pytestmark = [
    # cq's retries; the server's side on both backends: tests/api/test_login_parallel.py
    # (25 logins at once) and test_password_pool.py (busy refusals are not counted)
    pytest.mark.backend_neutral,
    pytest.mark.slow,  # 25 argon2 checks on one hashing thread, with retries
]


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[RunningServer]:
    # the defaults, argon2's real cost included: busy refusals are the subject
    with running_server(tmp_path_factory.mktemp("lan_party"), **REAL_PASSWORD_HASHING) as running:
        yield running


def test_a_room_of_friends_behind_one_address_all_log_in_at_once(
    server: RunningServer,
) -> None:
    names = [f"friend{n}" for n in range(FRIENDS)]
    insert_users(server.database_url, names, real_password_hash())
    barrier = threading.Barrier(FRIENDS)

    def log_in(name: str) -> str:
        with ApiClient(server.base_url, timeout=60.0) as api:
            api.server_info()  # connected: the logins leave together
            barrier.wait(60)
            try:
                return str(api.login(name, DEFAULT_PASSWORD)["username"])
            except CqError as exc:
                return f"{name}: {exc.message}"

    with ThreadPoolExecutor(FRIENDS) as pool:
        answers = list(pool.map(log_in, names))
    assert answers == names
