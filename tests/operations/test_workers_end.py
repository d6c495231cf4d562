"""A killed server leaves no process behind (issue 48 item 18).

The real server plays a game of bots only (its bot worker process) and analyses it (its
analysis worker process; multiprocessing's resource tracker comes with them). Killed with
SIGKILL, it cannot shut them down: they must notice on their own, and every process it
started is gone within a bounded wait (a worker left waiting for a dead parent keeps its
memory forever: 566 MB after 14 kills). Runs on SQLite, and on PostgreSQL when
CQ_TEST_DATABASE_URL is set.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from pathlib import Path

import httpx

from tests.support.games import get_game, new_game
from tests.support.processes import children, gone
from tests.support.server import running_server
from tests.support.users import auth, insert_user

WORKERS_END_WITHIN = 15.0  # seconds (the workers look at their parent twice a second)


def _command_line(pid: int) -> str:
    try:
        return Path(f"/proc/{pid}/cmdline").read_bytes().replace(b"\0", b" ").decode()
    except OSError:
        return ""


def _wait_for(what: str, found: Callable[[], bool], timeout: float = 60.0) -> None:
    deadline = time.monotonic() + timeout
    while not found():
        assert time.monotonic() < deadline, f"waited in vain for {what}"
        time.sleep(0.05)


def test_a_killed_server_takes_its_bot_and_analysis_workers_with_it(tmp_path: Path) -> None:
    with running_server(tmp_path, bot_workers=1, bots_only_pace=0) as server:
        token = insert_user(server.database_url, "killwatch")
        with httpx.Client(base_url=server.api, timeout=10.0) as client:
            game = new_game(client, token, players=2, size=5, bots=[1, 2], join=False)
            _wait_for("the game of bots to end",
                      lambda: get_game(client, token, game["id"])["status"] == "finished")
            asked = client.post(f"/games/{game['id']}/analysis", headers=auth(token))
            assert asked.status_code in (200, 202), asked.text

            def analysed() -> bool:
                response = client.get(f"/games/{game['id']}/analysis", headers=auth(token))
                return response.status_code == 200

            _wait_for("the analysis", analysed)

        pid = server.process.pid
        started = children(pid)
        lines = [_command_line(child) for child in started]
        spawned = [line for line in lines if "multiprocessing" in line]
        # the bot worker and the analysis worker (spawned), and the resource tracker
        assert len([line for line in spawned if "spawn_main" in line]) >= 2, lines
        assert any("resource_tracker" in line for line in spawned), lines

        server.process.kill()
        server.process.wait(10)
        left = [child for child in started if not gone(child, WORKERS_END_WITHIN)]
        assert not left, [_command_line(child) for child in left]
