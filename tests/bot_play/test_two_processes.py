"""Two server processes on one PostgreSQL database both play bots (SPEC §13): each bot
move is played exactly once.

A first process (BOT_WORKERS=0) creates games of bots only; two more processes with a
bot worker each and a 1 s safety sweep find them at start and drive every one of them at
once, racing on every move: each move is played through `services.play.play` with the
revision it was computed from and a key per game and revision, so the loser of a race
finds the move played. Every game then has one action per revision, numbered without a
gap, that the engine replays, and ends finished. And each move is computed once (issue 48
item 14): a process claims a turn before computing it (a row with a lease), so neither
process logs a move it computed and found played by the other.

PostgreSQL only (CQ_TEST_DATABASE_URL, as tests/api/test_two_processes.py).
"""

from __future__ import annotations

import time
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest

from corridorquest.engine import GameState, Seat
from tests.support.games import get_game, history
from tests.support.scale_out import ON_POSTGRESQL, processes
from tests.support.server import (
    RunningServer,
    running_server,
)
from tests.support.users import auth, insert_user

pytestmark = [
    ON_POSTGRESQL,
    pytest.mark.slow,  # three server processes, about 15 s
]

GAMES = 3
SIZE = 7  # games long enough (a second or so) for both processes to play in them


@pytest.fixture
def server(tmp_path: Path) -> Iterator[RunningServer]:
    with running_server(tmp_path / "first", bot_workers=0) as running:
        yield running


def test_two_processes_play_each_bot_move_exactly_once(
    server: RunningServer, tmp_path: Path
) -> None:
    ann = insert_user(server.database_url, "ann")
    with httpx.Client(base_url=server.api, timeout=10.0) as http:
        ids = []
        started_at: dict[int, int] = {}  # game id -> its revision once started
        for _ in range(GAMES):
            made = http.post(
                "/games",
                json={"players": 4, "size": SIZE, "bots": [1, 2, 3, 4], "join": False},
                headers=auth(ann),
            )
            assert made.status_code == 201, made.text
            assert made.json()["status"] == "started"
            ids.append(made.json()["id"])
            started_at[made.json()["id"]] = made.json()["revision"]
        places = [tmp_path / "second", tmp_path / "third"]  # started together: they race
        with processes(server.database_url, places, bot_workers=1, bot_safety_interval=1,
                       bots_only_pace=0):
            deadline = time.monotonic() + 60
            for game_id in ids:
                while get_game(http, ann, game_id)["status"] == "started":
                    assert time.monotonic() < deadline, "the bots did not finish their games"
                    time.sleep(0.05)
        for place in places:  # no move computed twice: none found played by the other
            log = (place / "server.log").read_text(errors="replace")
            assert "already played by another process" not in log
            assert "not played here" not in log
        for game_id in ids:
            game = get_game(http, ann, game_id)
            assert game["status"] == "finished", game
            actions = history(http, ann, game_id)
            assert [a["n"] for a in actions] == list(range(1, len(actions) + 1))
            # one revision per action since the start: none played twice
            assert game["revision"] == started_at[game_id] + len(actions)
            first = Seat(actions[0]["seat"])
            state = GameState.new(size=SIZE, players=4, first=first)
            for action in actions:
                assert state.turn is not None and action["seat"] == state.turn.value
                state.play_notation(action["notation"], action["type"])
            assert state.winner is not None
            assert game["winner"] == next(
                s["username"] for s in game["seats"] if s["seat"] == state.winner.value
            )
