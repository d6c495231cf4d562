"""A SIGTERM that comes while the server starts stops it (it used to be swallowed).

Sanic turns SIGTERM into a stop just before its after-start listeners, while the server
already answers; a stop in that moment ran into the start-up and was lost, and the server
went on holding its port and database (1 kill in 10 sent right after the first answer).
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from tests.support.server import free_port, server_env

pytestmark = pytest.mark.backend_neutral  # SQLite whatever CQ_TEST_DATABASE_URL says (the start-up)

KILLED_WHILE_STARTING = """
import asyncio, os, signal
import corridorquest.composition as composition

create_app = composition.create_app

def create_killed_app(settings):
    app = create_app(settings)

    async def kill_while_starting(app):
        os.kill(os.getpid(), signal.SIGTERM)
        await asyncio.sleep(0.3)  # the signal is handled before the start-up ends
        print("start-up ended", flush=True)

    app.register_listener(kill_while_starting, "after_server_start")
    return app

composition.create_app = create_killed_app
from corridorquest.cli import main
main(["serve"])
"""


def test_a_sigterm_during_the_start_up_stops_the_server(tmp_path: Path) -> None:
    env = server_env(tmp_path, "", free_port())
    try:
        done = subprocess.run(
            [sys.executable, "-c", KILLED_WHILE_STARTING],
            env=env, cwd=tmp_path, capture_output=True, text=True, timeout=30,
        )
    except subprocess.TimeoutExpired as error:
        raise AssertionError(f"the server ran on after SIGTERM: {error.stdout!r}") from None
    assert "start-up ended" in done.stdout, done.stdout[-2000:] + done.stderr[-2000:]
    assert "Worker complete" in done.stdout + done.stderr
    assert done.returncode == 0
