"""cq and a busy server: a 503 with `retry_after` (nothing was changed) is sent again.

Another program (here: a second SQLite connection, as an administrator's `sqlite3` shell)
holds the database's write lock for longer than the server waits, so the server answers
a move with 503 `database_busy` and Retry-After. cq says so on stderr, waits, and sends
the same request again; the move is played once. A lock that outlasts cq's attempts ends
in the server's message and a failure exit, with the game unchanged.
"""

from __future__ import annotations

import os
import sqlite3
import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any

import pytest
from click.testing import Result

from corridorquest.store.connection import sqlite_path
from tests.client.play_helpers import best_step, created_id, game_json
from tests.support.server import RunningServer

Cq = Callable[..., Result]
PLAYERS = ["ann", "ben"]
INSERT_PLAYERS = True
SERVER_SETTINGS = {"DATABASE_BUSY_TIMEOUT": "0.5"}
BUSY_NOTE = "the server is busy (database_busy): trying again in 1 s"

pytestmark = [
    pytest.mark.slow,  # it holds the database's lock for seconds
    pytest.mark.skipif(bool(os.environ.get("CQ_TEST_DATABASE_URL")), reason="SQLite's write lock"),
]


@pytest.fixture
def cq(players_cq: Cq) -> Cq:
    return players_cq


@contextmanager
def locked(server: RunningServer, seconds: float) -> Iterator[None]:
    """Another program holds the write lock from now on, for `seconds` (in a thread)."""
    conn = sqlite3.connect(
        sqlite_path(server.database_url), isolation_level=None, check_same_thread=False
    )
    conn.execute("BEGIN IMMEDIATE")
    released = threading.Timer(seconds, lambda: conn.execute("ROLLBACK"))
    released.start()
    try:
        yield
    finally:
        released.cancel()
        if conn.in_transaction:
            conn.execute("ROLLBACK")
        conn.close()


def move_while_locked(
    cq: Cq, server: RunningServer, seconds: float
) -> tuple[Result, dict[str, Any], dict[str, Any]]:
    """In a new started game of ann and ben, the player to move takes a step with cq while
    another program holds the lock for `seconds`: (cq's result, the game before, after)."""
    game_id = created_id(cq("game", "new", "--number-of-players", "2", profile="ann"))
    assert cq("game", "join", "-g", str(game_id), profile="ben").exit_code == 0
    before = game_json(cq, game_id, "ann")
    mover = before["turn_username"]
    kind, to = best_step(before)
    with locked(server, seconds):
        result = cq("game", kind, "-g", str(game_id), to, profile=mover)
    return result, before, game_json(cq, game_id, mover)


def test_a_move_refused_while_the_database_is_locked_goes_again_and_is_played_once(
    cq: Cq, server: RunningServer
) -> None:
    # two refusals (0.5 s waited, 1 s pause each), then free
    result, before, after = move_while_locked(cq, server, 1.8)
    assert result.exit_code == 0, result.output
    assert BUSY_NOTE in result.stderr
    assert after["revision"] == before["revision"] + 1  # played once, though sent again
    assert len(after["last_actions"]) == 1
    assert after["turn_username"] != before["turn_username"]


def test_a_lock_that_outlasts_the_attempts_fails_with_the_servers_message(
    cq: Cq, server: RunningServer
) -> None:
    result, before, after = move_while_locked(cq, server, 30)
    assert result.exit_code == 1, result.output
    assert result.stderr.count(BUSY_NOTE) == 3  # three more attempts, then it gives up
    assert "the database is locked by another program; nothing was changed" in result.stderr
    assert after["revision"] == before["revision"]
    assert after["last_actions"] == [] and after["turn_username"] == before["turn_username"]
