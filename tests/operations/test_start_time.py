"""What `corridorquest serve` does before it answers: the start-up a user waits for.

sanic-ext adds the HEAD and OPTIONS routes (about a hundred) as the server starts, one at
a time, and Sanic rebuilt (compiled) its signal router after each: about a third of the
start's CPU time (benchmarks/README.md). The real server, on 127.0.0.1, counts the
rebuilds it does until it answers its first request.
"""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import pytest

from tests.support.server import free_port, server_env

pytestmark = pytest.mark.backend_neutral  # SQLite whatever CQ_TEST_DATABASE_URL says (the start-up)

COUNTING_SERVER = """
import os, signal, socket, sys, threading, time
from sanic.signals import SignalRouter

rebuilds = 0
finalize = SignalRouter.finalize

def counted(self, *args, **kwargs):
    global rebuilds
    rebuilds += 1
    return finalize(self, *args, **kwargs)

SignalRouter.finalize = counted
port = int(os.environ["PORT"])

def first_answer():
    while True:
        try:
            with socket.create_connection(("127.0.0.1", port), timeout=2) as sock:
                sock.sendall(b"GET /api/v1/server/info HTTP/1.1\\r\\nHost: x\\r\\n\\r\\n")
                if sock.recv(12).startswith(b"HTTP/1.1 200"):
                    # one write (print writes its parts one by one)
                    sys.stdout.write(f"rebuilds before the first answer: {rebuilds}\\n")
                    sys.stdout.flush()
                    os.kill(os.getpid(), signal.SIGTERM)
                    return
        except OSError:
            pass
        time.sleep(0.05)

threading.Thread(target=first_answer, daemon=True).start()
from corridorquest.cli import main
main(["serve"])
"""


def test_the_start_rebuilds_the_signal_router_a_few_times_not_once_per_route(
    tmp_path: Path,
) -> None:
    env = server_env(tmp_path, "", free_port())
    done = subprocess.run(
        [sys.executable, "-c", COUNTING_SERVER],
        env=env, cwd=tmp_path, capture_output=True, text=True, timeout=60,
    )
    # (the server's log lines go to the same stdout from other threads: a line of theirs
    # may run into ours, so the count is found, not split off the line's end)
    said = re.search(r"rebuilds before the first answer: (\d+)", done.stdout)
    assert said, done.stdout[-2000:] + done.stderr[-2000:]
    rebuilds = int(said[1])
    assert rebuilds <= 5, said[0]
