"""What one user may import, and how long any game may be (issue 48 item 13), against a
server with small bounds: MAX_GAME_ACTIONS=100, IMPORTS_PER_DAY=3,
IMPORTED_ACTIONS_QUOTA=150. A game in play that reaches the limit without a winner is
cancelled, saying why; a user's imports beyond the day's count or the quota of actions
kept are refused with a reason, and nothing is stored."""

from __future__ import annotations

import signal
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest

from tests.support.games import play, started_game
from tests.support.long_records import long_record
from tests.support.processes import children, gone
from tests.support.server import RunningServer, running_server
from tests.support.users import auth, insert_user

MAX_GAME_ACTIONS = 100


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[RunningServer]:
    with running_server(
        tmp_path_factory.mktemp("import-limits"),
        MAX_GAME_ACTIONS=MAX_GAME_ACTIONS,
        IMPORTS_PER_DAY=3,
        IMPORTED_ACTIONS_QUOTA=150,
    ) as running:
        yield running


def import_text(client: httpx.Client, token: str, text: str) -> httpx.Response:
    return client.post("/games/imported", json={"record": text}, headers=auth(token))


def imported_games(client: httpx.Client, token: str) -> int:
    answer = client.get(
        "/games", params={"status": "finished", "user": "me", "relation": "admin"},
        headers=auth(token),
    )
    return len(answer.json()["games"])


def test_a_game_in_play_that_reaches_the_limit_is_cancelled(
    client: httpx.Client, server: RunningServer
) -> None:
    tokens = {name: insert_user(server.database_url, name) for name in ("lim1", "lim2")}
    game = started_game(client, tokens, size=5)
    token_of = {seat["seat"]: tokens[seat["username"]] for seat in game["seats"]}
    home = {seat: game["pawns"][seat] for seat in token_of}
    ahead = {"north": "c4", "south": "c2"}
    for n in range(1, MAX_GAME_ACTIONS + 1):
        seat = game["turn"]
        to = ahead[seat] if game["pawns"][seat] == home[seat] else home[seat]
        answer = play(client, token_of[seat], game["id"], "move", to)
        assert answer.status_code == 201, (n, answer.text)
        game = answer.json()
        if n < MAX_GAME_ACTIONS:
            assert game["status"] == "started"
    assert game["status"] == "cancelled"
    assert f"no winner after {MAX_GAME_ACTIONS} actions" in game["cancel_reason"]
    seat = next(iter(token_of))
    late = play(client, token_of[seat], game["id"], "move", ahead[seat])
    assert late.status_code == 409, late.text


def test_imports_per_day(client: httpx.Client, server: RunningServer) -> None:
    token = insert_user(server.database_url, "daily")
    short, _ = long_record(5, 10)
    assert import_text(client, token, short + "\n" + short).status_code == 201
    answer = import_text(client, token, short + "\n" + short)  # 4 > IMPORTS_PER_DAY
    assert answer.status_code == 429, answer.text
    body = answer.json()
    assert body["reason"] == "import_limit" and 0 < body["retry_after"] <= 86400
    assert imported_games(client, token) == 2
    assert import_text(client, token, short).status_code == 201
    answer = import_text(client, token, short)
    assert (answer.status_code, answer.json()["reason"]) == (429, "import_limit")
    assert imported_games(client, token) == 3


def test_the_quota_of_actions_kept(client: httpx.Client, server: RunningServer) -> None:
    token = insert_user(server.database_url, "quota")
    text, end = long_record(5, 90)
    assert 80 <= end.ply <= 90
    assert import_text(client, token, text).status_code == 201
    answer = import_text(client, token, text)  # twice is more than 150 actions
    assert answer.status_code == 409, answer.text
    body = answer.json()
    assert (body["reason"], body["quota"], body["used"]) == (
        "import_quota_exceeded", 150, end.ply
    )
    assert imported_games(client, token) == 1
    short, _ = long_record(5, 10)
    assert import_text(client, token, short).status_code == 201  # what fits still does


def test_the_replay_worker_ends_with_a_killed_server(tmp_path: Path) -> None:
    """Imports and replays run in a worker process of the server (services/replay_runs.py);
    after a kill -9 of the server it ends by itself within seconds."""
    with running_server(tmp_path) as running:
        pid = running.process.pid
        before = set(children(pid))
        token = insert_user(running.database_url, "killer")
        with httpx.Client(base_url=running.api, timeout=10.0) as http:
            assert import_text(http, token, long_record(5, 10)[0]).status_code == 201
        workers = [child for child in children(pid) if child not in before]
        assert workers, "no worker process was started"
        running.process.send_signal(signal.SIGKILL)
        running.process.wait(10)
        assert all(gone(worker, within=10.0) for worker in workers)
