"""`python3 dev.py serve` is the server: stopping it (`kill PID`, Ctrl-C) stops the server.

It used to run the server as its child: a SIGTERM to dev.py ended dev.py alone and left
the server running on its own, holding the port and the database. Uses the checkout's
.venv (set up by `dev.py setup`), the real server on 127.0.0.1.
"""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path

import pytest

from tests.support.server import ROOT, free_port, server_env, stop, wait_until_up

STOPPED_WITHIN = 10.0


def descendants(pid: int) -> set[int]:
    """The processes below `pid` (from /proc)."""
    children: dict[int, list[int]] = {}
    for stat_file in Path("/proc").glob("[0-9]*/stat"):
        try:
            fields = stat_file.read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        children.setdefault(int(fields[1]), []).append(int(stat_file.parent.name))
    found: set[int] = set()
    todo = [pid]
    while todo:
        for child in children.get(todo.pop(), []):
            found.add(child)
            todo.append(child)
    return found


def alive(pid: int) -> bool:
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except OSError:
        return False
    return state != "Z"


def port_open(port: int) -> bool:
    with socket.socket() as sock:
        sock.settimeout(1.0)
        return sock.connect_ex(("127.0.0.1", port)) == 0


@pytest.mark.skipif(not Path("/proc/self/stat").exists(), reason="reads /proc")
@pytest.mark.skipif(not (ROOT / ".venv" / ".installed").exists(), reason="needs dev.py setup")
@pytest.mark.parametrize("sent", [signal.SIGTERM, signal.SIGINT])
def test_a_signal_to_dev_py_serve_stops_the_server(sent: signal.Signals, tmp_path: Path) -> None:
    port = free_port()
    env = server_env(tmp_path, "", port)
    log_path = tmp_path / "server.log"
    with log_path.open("wb") as log:
        process = subprocess.Popen(
            [sys.executable, str(ROOT / "dev.py"), "serve"],
            cwd=tmp_path,
            env=env,
            stdout=log,
            stderr=subprocess.STDOUT,
        )
    others = set()
    try:
        wait_until_up(f"http://127.0.0.1:{port}", process, log_path)
        others = descendants(process.pid)
        process.send_signal(sent)  # to dev.py's pid alone, as `kill PID` does
        process.wait(STOPPED_WITHIN)
        deadline = time.monotonic() + STOPPED_WITHIN
        while time.monotonic() < deadline and (port_open(port) or any(map(alive, others))):
            time.sleep(0.05)
        assert not port_open(port), "the server still answers on its port"
        assert not [pid for pid in others if alive(pid)], "a server process remains"
        assert "Traceback" not in log_path.read_text(errors="replace")
    finally:
        stop(process)
        for pid in others:
            if alive(pid):
                os.kill(pid, signal.SIGKILL)
