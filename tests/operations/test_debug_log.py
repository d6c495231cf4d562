"""LOG_LEVEL=DEBUG shows the SQL statements, never the values users wrote (issue 13, item 7).

peewee logs every statement with its parameters at DEBUG level: before, the log of a
signup held the argon2 hash of the password and the e-mail address, and the log of a
message its text.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest

from corridorquest.security.tokens import hash_token
from corridorquest.store import Store
from corridorquest.store.models import User
from tests.support.games import started_game
from tests.support.server import RunningServer, running_server
from tests.support.users import auth, insert_user, make_user

ADDRESS = "quiet.wren.7731@example.test"
TEXT = "meet me behind the ninth wall at dawn"


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[RunningServer]:
    with running_server(tmp_path_factory.mktemp("debug"), LOG_LEVEL="DEBUG") as running:
        yield running


def password_hash(database_url: str, username: str) -> str:
    store = Store.open(database_url, pool_size=1, migrate=False)
    try:
        return str(store.run(lambda: User.get(User.username == username).password_hash))
    finally:
        store.close()


def test_the_debug_log_holds_no_password_hash_address_or_message_text(
    server: RunningServer, tmp_path: Path
) -> None:
    token = make_user(server.base_url, server.mail_dir, "quietwren", email=ADDRESS)
    other = insert_user(server.database_url, "loudcrow")
    with httpx.Client(base_url=server.api, timeout=10.0) as client:
        game = started_game(client, {"quietwren": token, "loudcrow": other}, size=5)
        sent = client.post(
            f"/games/{game['id']}/messages", json={"text": TEXT}, headers=auth(token)
        )
        assert sent.status_code == 201, sent.text
        assert client.get("/users/me", headers=auth(token)).status_code == 200
    hashed = password_hash(server.database_url, "quietwren")
    assert hashed.startswith("$argon2")

    log = server.log_text()
    assert "SELECT" in log and "INSERT" in log  # the statements are there,
    assert hashed not in log and hashed.rsplit("$", 1)[-1] not in log  # not the values
    assert ADDRESS not in log and "quiet.wren" not in log
    assert TEXT not in log and "ninth wall" not in log
    assert token not in log and other not in log
    assert hash_token(token) not in log  # the session's key in the database
    assert "<text: " in log  # (replaced)
