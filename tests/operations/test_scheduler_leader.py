"""Two server processes on one PostgreSQL database: exactly one runs the scheduler, and
when it is killed the other takes over (SPEC §10, corridorquest/scheduler/leader.py).

PostgreSQL only (CQ_TEST_DATABASE_URL, as in CI): on SQLite a second server process
refuses to start.
"""

from __future__ import annotations

import subprocess
from pathlib import Path

import httpx

from tests.api.test_scheduler import cancelled, message_texts, wait_for
from tests.support.games import started_game
from tests.support.scale_out import ON_POSTGRESQL
from tests.support.server import (
    free_port,
    fresh_database,
    server_env,
    start_process,
    stop,
    wait_until_up,
)
from tests.support.users import insert_user

pytestmark = ON_POSTGRESQL

LEADING = "scheduler: leading"


def _stall_is_cancelled_once(api: str, database_url: str, names: tuple[str, str]) -> None:
    tokens = {name: insert_user(database_url, name) for name in names}
    with httpx.Client(base_url=api, timeout=10.0) as client:
        game = started_game(client, tokens)
        over = wait_for(lambda: cancelled(client, tokens[names[0]], game["id"]))
        assert "did not move for 2 seconds" in over["cancel_reason"]
        texts = message_texts(client, tokens[names[0]], game["id"])
        assert sum(text.startswith("The game was cancelled") for text in texts) == 1


def test_one_process_runs_the_scheduler_and_another_takes_over_when_it_dies(
    tmp_path: Path,
) -> None:
    with fresh_database(tmp_path) as database_url:
        processes: dict[str, tuple[subprocess.Popen[bytes], Path, str]] = {}
        try:
            for name in ("one", "two"):
                where = tmp_path / name
                where.mkdir()
                port = free_port()
                env = server_env(where, database_url, port, STALL_TIMEOUT="2s")
                process, log_path = start_process(where, env)
                base_url = f"http://127.0.0.1:{port}"
                wait_until_up(base_url, process, log_path)
                processes[name] = (process, log_path, base_url + "/api/v1")

            def leaders() -> list[str]:
                return [n for n, (_, log, _) in processes.items() if LEADING in log.read_text()]

            leader = wait_for(lambda: leaders() or None)
            assert len(leader) == 1, leader
            [follower] = [name for name in processes if name != leader[0]]
            _stall_is_cancelled_once(processes[follower][2], database_url, ("ivy", "jo"))
            assert leaders() == leader  # the other one never led

            processes[leader[0]][0].kill()  # kill -9: no goodbye, PostgreSQL frees the lock
            processes[leader[0]][0].wait()
            follower_log = processes[follower][1]
            wait_for(lambda: LEADING in follower_log.read_text(), bound=15)
            _stall_is_cancelled_once(processes[follower][2], database_url, ("kim", "lu"))
        finally:
            for process, _, _ in processes.values():
                stop(process)
