"""Another program holding SQLite's write lock (issue 13, item 4).

The administration guide allows editing rows by hand while the server runs. While a
`sqlite3` shell (here: a second connection) holds `BEGIN IMMEDIATE`, writes wait for it
without stalling the server (reads go on), succeed once it lets go within
DATABASE_BUSY_TIMEOUT, and beyond it are refused with 503 `database_busy` and
Retry-After, having changed nothing. Before: every move failed at once with 500
("database is locked").
"""

from __future__ import annotations

import os
import sqlite3
import threading
import time
from collections.abc import Iterator
from typing import Any

import httpx
import pytest

from corridorquest.store.connection import sqlite_path
from tests.operations.wander_helpers import WanderingGame
from tests.support.server import RunningServer, running_server
from tests.support.users import auth, insert_user

pytestmark = [
    pytest.mark.slow,  # it holds locks for seconds
    pytest.mark.skipif(bool(os.environ.get("CQ_TEST_DATABASE_URL")), reason="SQLite's write lock"),
]

BUSY_TIMEOUT = 1.5


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[RunningServer]:
    with running_server(
        tmp_path_factory.mktemp("locked"),
        DATABASE_BUSY_TIMEOUT=str(BUSY_TIMEOUT),
        SESSION_IDLE_TIMEOUT="8s",  # a request touches its session after 2 s
    ) as running:
        yield running


@pytest.fixture(scope="module")
def client(server: RunningServer) -> Iterator[httpx.Client]:
    with httpx.Client(base_url=server.api, timeout=30.0) as http:
        yield http


def new_game(server: RunningServer, client: httpx.Client, name: str) -> WanderingGame:
    tokens = {f"{name}{i}": insert_user(server.database_url, f"{name}{i}") for i in (1, 2)}
    return WanderingGame(client, tokens)


class Lock:
    """BEGIN IMMEDIATE on a connection of another "program" (this test process)."""

    def __init__(self, server: RunningServer) -> None:
        self.conn = sqlite3.connect(
            sqlite_path(server.database_url), isolation_level=None, check_same_thread=False
        )

    def __enter__(self) -> sqlite3.Connection:
        self.conn.execute("BEGIN IMMEDIATE")
        return self.conn

    def __exit__(self, *exc: Any) -> None:
        if self.conn.in_transaction:
            self.conn.execute("ROLLBACK")
        self.conn.close()


def in_threads(calls: list[Any]) -> list[Any]:
    """Run each call on its own thread at once; their results in order."""
    results: list[Any] = [None] * len(calls)

    def run(i: int) -> None:
        results[i] = calls[i]()

    threads = [threading.Thread(target=run, args=(i,)) for i in range(len(calls))]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(60)
    return results


def test_a_lock_held_longer_than_the_busy_timeout_answers_503_and_reads_go_on(
    server: RunningServer, client: httpx.Client
) -> None:
    games = [new_game(server, client, f"long{i}x") for i in range(3)]
    for game in games:
        assert game.move(client).status_code == 201
    with Lock(server):
        refused = in_threads([lambda g=g: g.move(client) for g in games])
        for response in refused:
            assert response.status_code == 503, response.text
            assert response.json()["reason"] == "database_busy"
            assert response.json()["retry_after"] >= 1
            assert int(response.headers["Retry-After"]) >= 1
        time.sleep(2.2)  # pacing: past a quarter of the idle timeout: the next request touches
        for game in games:  # reads answer meanwhile (the touch of the session is skipped)
            seen = client.get(f"/games/{game.id}", headers=auth(game.any_token))
            assert seen.status_code == 200, seen.text
            assert seen.json()["revision"] >= 1
            assert game.stored_actions(client) == game.played  # the refused move is not there
    for game in games:  # the lock is gone: the same moves are accepted
        assert game.move(client).status_code == 201
        assert game.stored_actions(client) == game.played
    assert "Traceback" not in server.log_text()
    assert "503 database_busy" in server.log_text()


def test_writes_wait_out_a_lock_shorter_than_the_busy_timeout(
    server: RunningServer, client: httpx.Client
) -> None:
    games = [new_game(server, client, f"short{i}x") for i in range(4)]
    with Lock(server) as other:

        def release() -> None:
            # what an administrator's edit does (docs/administration.md): a write
            # committed while the server's writes wait, moving a game's revision on
            time.sleep(0.5)  # pacing: the other program holds the lock
            other.execute("UPDATE game SET revision = revision + 1 WHERE id = ?", (games[0].id,))
            other.execute("COMMIT")

        outcomes = in_threads([release, *[lambda g=g: g.move(client) for g in games]])
    for response in outcomes[1:]:
        assert response.status_code == 201, response.text
    for game in games:
        assert len(game.played) == 1 and game.stored_actions(client) == game.played
        assert game.move(client).status_code == 201
