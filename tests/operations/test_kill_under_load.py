"""Nothing acknowledged is lost when the server is killed (-9) under load (issue 13).

Several clients play their own games back to back against the real server; the server
is killed with SIGKILL in the middle of it and started again on the same database. Every
move that was answered 201 is in the stored history, in order, followed by at most the
one move that was in flight; the database is sound (SQLite: `PRAGMA integrity_check`);
every stored game replays through the engine to its stored position; and play goes on.
Runs on SQLite, and on PostgreSQL when CQ_TEST_DATABASE_URL is set.
"""

from __future__ import annotations

import sqlite3
import threading
import time
from pathlib import Path

import httpx
import pytest

from corridorquest.store.connection import sqlite_path
from tests.operations.wander_helpers import WanderingGame, stored_games_replay
from tests.support.games import history, play
from tests.support.server import (
    free_port,
    fresh_database,
    server_env,
    start_process,
    stop,
    wait_until_up,
)
from tests.support.users import insert_user

CLIENTS = 6
LOAD_SECONDS = 2.5


class Player(threading.Thread):
    """Plays one game back to back until the server goes away."""

    def __init__(self, api: str, game: WanderingGame) -> None:
        super().__init__(daemon=True)
        self.api = api
        self.game = game
        self.in_flight: str | None = None  # sent, never answered
        self.refused: list[str] = []

    def run(self) -> None:
        with httpx.Client(base_url=self.api, timeout=10.0) as client:
            while True:
                token, kind, notation = self.game.next_action()
                self.in_flight = notation
                try:
                    response = play(client, token, self.game.id, kind, notation)
                except httpx.HTTPError:
                    return  # killed: this move may or may not have been stored
                self.in_flight = None
                if response.status_code != 201:
                    self.refused.append(f"{response.status_code} {response.text}")
                    return
                self.game.accepted(kind, notation)


@pytest.mark.slow
def test_a_server_killed_under_load_keeps_every_acknowledged_move(tmp_path: Path) -> None:
    with fresh_database(tmp_path) as database_url:
        port = free_port()
        # a WAL limit of 1 MB: the log starts over several times a second, so the kill may
        # well come in the middle of one of those
        env = server_env(tmp_path, database_url, port, SQLITE_WAL_LIMIT=1)
        process, log_path = start_process(tmp_path, env)
        base_url = f"http://127.0.0.1:{port}"
        try:
            wait_until_up(base_url, process, log_path)
            api = base_url + "/api/v1"
            with httpx.Client(base_url=api, timeout=10.0) as client:
                games = [
                    WanderingGame(
                        client,
                        {
                            f"k{i}a": insert_user(database_url, f"k{i}a"),
                            f"k{i}b": insert_user(database_url, f"k{i}b"),
                        },
                        seed=i,
                    )
                    for i in range(CLIENTS)
                ]
            players = [Player(api, game) for game in games]
            for player in players:
                player.start()
            time.sleep(LOAD_SECONDS)
            process.kill()  # SIGKILL, in the middle of the load
            process.wait(10)
            for player in players:
                player.join(30)
                assert not player.is_alive()
        finally:
            stop(process)
        assert all(not player.refused for player in players), [p.refused for p in players]
        assert sum(len(game.played) for game in games) >= 10 * CLIENTS  # there was a load

        again = tmp_path / "again"
        again.mkdir()
        port = free_port()
        env = server_env(tmp_path, database_url, port)
        process, log_path = start_process(again, env)
        base_url = f"http://127.0.0.1:{port}"
        try:
            wait_until_up(base_url, process, log_path)
            with httpx.Client(base_url=base_url + "/api/v1", timeout=10.0) as client:
                for player in players:
                    game = player.game
                    entries = history(client, game.any_token, game.id)
                    stored = [entry["notation"] for entry in entries]
                    acknowledged = game.played
                    assert stored[: len(acknowledged)] == acknowledged, f"game {game.id}"
                    extra = stored[len(acknowledged) :]
                    assert extra in ([], [player.in_flight]), (game.id, extra, player.in_flight)
                    if extra:  # the move in flight was stored: mirror it too
                        game.accepted(entries[-1]["type"], extra[0])
                    assert game.move(client).status_code == 201  # play goes on
            if database_url.startswith("sqlite:"):
                with sqlite3.connect(sqlite_path(database_url)) as db:
                    assert db.execute("PRAGMA integrity_check").fetchall() == [("ok",)]
                    assert db.execute("PRAGMA foreign_key_check").fetchall() == []
            assert stored_games_replay(database_url) == CLIENTS
        finally:
            stop(process)
