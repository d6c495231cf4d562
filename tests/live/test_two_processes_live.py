"""Live streams across two server processes on one PostgreSQL database (SPEC §11).

A change made through one process reaches a stream held on the other within a second
(LISTEN/NOTIFY carries the game id and revision; each process reads and filters for its
own streams), presence crosses too, and a stream resumed after a restart of the process
it was on loses nothing. PostgreSQL only (CQ_TEST_DATABASE_URL, as in CI).
"""

from __future__ import annotations

import time
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest

from tests.api.mode_helpers import Match, act, best_step, start
from tests.support.games import get_game
from tests.support.scale_out import ON_POSTGRESQL
from tests.support.server import (
    RunningServer,
    free_port,
    server_env,
    start_process,
    stop,
    wait_until_up,
)
from tests.support.sse import EventReader
from tests.support.users import auth, insert_user

pytestmark = ON_POSTGRESQL


class Second:
    """A second server process on the first one's database, restartable on its port."""

    def __init__(self, server: RunningServer, tmp_path: Path) -> None:
        self.tmp_path = tmp_path
        self.port = free_port()
        self.env = server_env(tmp_path, server.database_url, self.port, STREAM_KEEPALIVE="1")
        self.base_url = f"http://127.0.0.1:{self.port}"
        self.api = self.base_url + "/api/v1"
        self.process = None
        self.start()

    def start(self) -> None:
        self.process, log_path = start_process(self.tmp_path, self.env)
        wait_until_up(self.base_url, self.process, log_path)

    def stop(self) -> None:
        if self.process is not None:
            stop(self.process)
            self.process = None


@pytest.fixture(scope="module")
def second(server: RunningServer, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Second]:
    process = Second(server, tmp_path_factory.mktemp("second"))
    try:
        yield process
    finally:
        process.stop()


def _step(client: httpx.Client, match: Match) -> str:
    step = best_step(match.mirror)
    act(client, match, "jump" if step.jump else "move", str(step.to))
    return str(step.to)


def test_a_move_made_through_one_process_reaches_a_stream_on_the_other(
    server: RunningServer, client: httpx.Client, second: Second
) -> None:
    tokens = {name: insert_user(server.database_url, name) for name in ("ana", "bo")}
    watcher = insert_user(server.database_url, "remote_watcher")
    match = start(client, tokens)
    with EventReader(f"{second.api}/games/{match.id}/events", watcher) as remote:
        remote.next("game")
        for _ in range(3):
            made = time.monotonic()
            square = _step(client, match)  # through the first process
            action = remote.next("action", timeout=3)
            assert action["data"]["notation"] == square
            assert action["received"] - made < 1.0
            view = remote.next("game")
            assert view["data"]["revision"] == match.game["revision"]
        # a message through the first process too
        sent = client.post(
            f"/games/{match.id}/messages", json={"text": "over here"},
            headers=auth(match.by_seat["north"]),
        )
        assert sent.status_code == 201, sent.text
        deadline = time.monotonic() + 3
        while True:
            message = remote.next("message", timeout=max(0.1, deadline - time.monotonic()))
            if message["data"]["text"] == "over here":
                break


def test_presence_crosses_processes(
    server: RunningServer, client: httpx.Client, second: Second
) -> None:
    tokens = {name: insert_user(server.database_url, name) for name in ("cy", "di")}
    match = start(client, tokens)
    with EventReader(f"{second.api}/games/{match.id}/events", tokens["cy"]) as cy:
        cy.next("game")
        deadline = time.monotonic() + 3
        while get_game(client, tokens["di"], match.id)["online"] != ["cy"]:
            assert time.monotonic() < deadline, "the first process never saw cy online"
            time.sleep(0.05)


def test_a_stream_resumed_after_a_restart_of_its_process_loses_nothing(
    server: RunningServer, client: httpx.Client, second: Second
) -> None:
    tokens = {name: insert_user(server.database_url, name) for name in ("ed", "flo")}
    watcher = insert_user(server.database_url, "resumer")
    match = start(client, tokens)
    url = f"{second.api}/games/{match.id}/events"
    seen: list[str] = []
    with EventReader(url, watcher) as events:
        last = events.next("game")["id"]
        seen.append(_step(client, match))
        events.next("action")
        last = events.next("game")["id"]
        second.stop()  # the stream ends with its process
        assert events.ended.wait(10)
    missed = [_step(client, match) for _ in range(3)]  # while the process is away
    second.start()
    with EventReader(url, watcher, headers={"Last-Event-ID": last}) as events:
        got = [events.next("action")["data"]["notation"] for _ in missed]
        assert got == missed
        assert events.next("game")["data"]["revision"] == match.game["revision"]
        live = _step(client, match)
        assert events.next("action", timeout=3)["data"]["notation"] == live


def test_a_logout_through_one_process_ends_the_streams_held_by_the_other(
    server: RunningServer, client: httpx.Client, second: Second
) -> None:
    tokens = {name: insert_user(server.database_url, name) for name in ("gus", "hal")}
    match = start(client, tokens)
    with EventReader(f"{second.api}/users/me/events", tokens["gus"]) as mine, EventReader(
        f"{second.api}/games/{match.id}/events", tokens["gus"]
    ) as watching:
        mine.next("games")
        watching.next("game")
        logout = client.delete("/sessions/current", headers=auth(tokens["gus"]))  # the first
        assert logout.status_code == 204, logout.text
        ended_at = time.monotonic()
        dm = client.post(
            f"/games/{match.id}/messages", json={"text": "after the end", "to": "gus"},
            headers=auth(tokens["hal"]),
        )
        assert dm.status_code == 201, dm.text
        for reader in (mine, watching):
            assert reader.ended.wait(1.5), "the other process's stream goes on"
        assert time.monotonic() - ended_at < 1.5
        for reader in (mine, watching):
            assert not any("after the end" in line for line in reader.lines)


def test_a_demotion_through_one_process_reaches_the_streams_of_the_other(
    server: RunningServer, client: httpx.Client, second: Second
) -> None:
    boss = insert_user(server.database_url, "boss2", is_admin=True)
    demoted = insert_user(server.database_url, "demoted2", is_admin=True)
    tokens = {name: insert_user(server.database_url, name) for name in ("ivy", "jon")}
    match = start(client, tokens, private=True)
    with EventReader(f"{second.api}/games/{match.id}/events", demoted) as secret:
        secret.next("game")
        answer = client.post("/admin/users/demoted2/demote", headers=auth(boss))
        assert answer.status_code == 200, answer.text
        assert secret.ended.wait(1.5), "the private game's stream goes on"
