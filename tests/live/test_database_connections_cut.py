"""A server on PostgreSQL whose database connections are all cut at once (PostgreSQL
restarted, or an administrator's `pg_terminate_backend`): moves go on being accepted, a
spectator's stream held open across the cut gets every change (the live relay listens
again), and the scheduler leads again. PostgreSQL only (CQ_TEST_DATABASE_URL, as in CI).
"""

from __future__ import annotations

import os
import time
from collections.abc import Iterator

import httpx
import psycopg2
import pytest

from tests.client.play_helpers import best_step
from tests.support.games import play, started_game
from tests.support.server import RunningServer, running_server
from tests.support.sse import EventReader
from tests.support.users import insert_user

pytestmark = pytest.mark.skipif(
    not os.environ.get("CQ_TEST_DATABASE_URL"),
    reason="PostgreSQL's connections (set CQ_TEST_DATABASE_URL)",
)

SEEN = 10.0  # seconds within which the server must be back to normal


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[RunningServer]:
    with running_server(
        tmp_path_factory.mktemp("cut"), STREAM_KEEPALIVE="1", SCHEDULER_INTERVAL="1"
    ) as running:
        yield running


def cut_connections(database_url: str) -> int:
    """Terminate every other session on the server's database; how many there were."""
    conn = psycopg2.connect(database_url)
    try:
        conn.autocommit = True
        with conn.cursor() as cursor:
            cursor.execute(
                "SELECT pg_terminate_backend(pid) FROM pg_stat_activity "
                "WHERE datname = current_database() AND pid <> pg_backend_pid()"
            )
            return len(cursor.fetchall())
    finally:
        conn.close()


def wait_for_log(server: RunningServer, text: str, count: int) -> None:
    deadline = time.monotonic() + SEEN
    while server.log_text().count(text) < count:
        assert time.monotonic() < deadline, f"{text!r} not logged {count} times:\n" + (
            server.log_text()[-3000:]
        )
        time.sleep(0.05)


def test_moves_and_a_spectators_stream_go_on_after_the_connections_are_cut(
    server: RunningServer,
) -> None:
    tokens = {name: insert_user(server.database_url, name) for name in ("ann", "bob", "cy")}
    with httpx.Client(base_url=server.api, timeout=20) as client:
        game = started_game(client, {"ann": tokens["ann"], "bob": tokens["bob"]}, size=5)
        wait_for_log(server, "scheduler: leading", 1)
        with EventReader(f"{server.api}/games/{game['id']}/events", tokens["cy"]) as events:
            assert events.next("game")["data"]["revision"] == game["revision"]
            assert cut_connections(server.database_url) >= 2  # the pool's, the relay's...
            for _ in range(3):
                kind, to = best_step(game)
                moved = play(client, tokens[game["turn_username"]], game["id"], kind, to)
                assert moved.status_code == 201, moved.text
                game = moved.json()
                seen = events.next("game", timeout=SEEN)["data"]
                assert seen["revision"] == game["revision"]
                assert seen["pawns"] == game["pawns"]
    wait_for_log(server, "live relay: listening again", 1)
    wait_for_log(server, "scheduler: leading", 2)  # its lock was on a cut connection
    assert "Traceback" not in server.log_text()
