"""Readers that do not read pin little memory, and not for long.

A stream whose reader takes nothing is dropped STREAM_STALL_TIMEOUT seconds after its
connection stopped taking what waits for it; the operating system holds little for it
meanwhile (SO_SNDBUF); what all streams hold unsent stays under STREAM_BUFFER_TOTAL
(the streams that hold the most are dropped); a reader that reads goes on undisturbed.
"""

from __future__ import annotations

import re
import socket
import time
from pathlib import Path

import httpx
import pytest

from tests.support.games import play, started_game
from tests.support.server import RunningServer, running_server
from tests.support.sse import EventReader
from tests.support.users import auth, insert_user

pytestmark = pytest.mark.backend_neutral  # stream transport: socket buffers, memory bounds

KERNEL_BOUND = 160 * 1024  # a stream socket's send queue at most (SO_SNDBUF 32 KiB, doubled)


def _raw_stream(server: RunningServer, path: str, token: str) -> socket.socket:
    """A stream request on a socket with a tiny receive buffer, never read from."""
    sock = socket.socket()
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 2048)
    port = int(server.base_url.rsplit(":", 1)[1])
    sock.connect(("127.0.0.1", port))
    request = (
        f"GET {path} HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer {token}\r\n"
        "Accept: text/event-stream\r\n\r\n"
    )
    sock.sendall(request.encode())
    return sock


def _send_queues(server_port: int, client_ports: set[int]) -> dict[int, int]:
    """The kernel's send queue (bytes) of the server's end of each of those connections."""
    found: dict[int, int] = {}
    for line in Path("/proc/net/tcp").read_text().splitlines()[1:]:
        fields = line.split()
        local, remote, queues = fields[1], fields[2], fields[4]
        if int(local.split(":")[1], 16) != server_port:
            continue
        peer = int(remote.split(":")[1], 16)
        if peer in client_ports:
            found[peer] = int(queues.split(":")[0], 16)
    return found


def _busy(client: httpx.Client, token: str, game_id: int) -> None:
    """One marker change: its owner's streams are each sent the whole game view."""
    marked = client.post(f"/games/{game_id}/markers", json={"marker": "d4h"}, headers=auth(token))
    assert marked.status_code in (200, 201), marked.text
    client.delete(f"/games/{game_id}/markers/d4h", headers=auth(token))


def test_a_reader_that_reads_nothing_is_dropped_soon_and_a_reader_goes_on(tmp_path: Path) -> None:
    stall = 2
    with running_server(
        tmp_path, STREAM_STALL_TIMEOUT=str(stall), STREAM_BUFFER="1024",
        STREAM_KEEPALIVE="1",
    ) as server, httpx.Client(base_url=server.api, timeout=10) as client:
        tokens = {name: insert_user(server.database_url, name) for name in ("sal", "ted")}
        game = started_game(client, tokens, invisible=True)
        gid = game["id"]
        port = int(server.base_url.rsplit(":", 1)[1])
        with EventReader(f"{server.api}/games/{gid}/events", tokens["sal"]) as reader:
            reader.next("game")
            slow = _raw_stream(server, f"/api/v1/games/{gid}/events", tokens["sal"])
            mine = slow.getsockname()[1]
            try:
                opened = time.monotonic()
                most = 0
                while "took nothing" not in server.log_text():
                    assert time.monotonic() - opened < 4 * stall + 6, "never dropped"
                    _busy(client, tokens["sal"], gid)
                    most = max(most, *_send_queues(port, {mine}).values(), 0)
                    time.sleep(0.02)
                took = time.monotonic() - opened
                assert "fell behind" not in server.log_text()
                assert most <= KERNEL_BOUND, f"the kernel held {most} bytes for it"
                # its connection was closed by the server
                slow.settimeout(5)
                try:
                    while slow.recv(65536):
                        pass
                except ConnectionResetError:
                    pass
            finally:
                slow.close()
            assert took < 4 * stall + 6
            # the reader that reads had every change and goes on
            reader.drain(0.3)
            square = "e2" if game["turn"] == "south" else "e8"
            moved = play(client, tokens[game["turn_username"]], gid, "move", square)
            assert moved.status_code == 201, moved.text
            assert reader.next("action")["data"]["notation"] == square
            assert not reader.ended.is_set()
        line = next(x for x in server.log_text().splitlines() if "took nothing" in x)
        assert "live stream of sal dropped" in line


def _on_all(text: str) -> list[int]:
    return [int(k) for k in re.findall(r"(\d+) KiB on the \w+'s other streams", text)]


def test_what_all_streams_hold_unsent_stays_under_its_bound(tmp_path: Path) -> None:
    total_mib = 1
    with running_server(
        tmp_path, STREAM_BUFFER_TOTAL=str(total_mib),
        STREAM_BUFFER="512", STREAM_STALL_TIMEOUT="60", STREAMS_PER_USER="20",
        STREAM_KEEPALIVE="1",
    ) as server, httpx.Client(base_url=server.api, timeout=10) as client:
        tokens = {name: insert_user(server.database_url, name) for name in ("una", "vic")}
        game = started_game(client, tokens, invisible=True)
        gid = game["id"]
        port = int(server.base_url.rsplit(":", 1)[1])
        with EventReader(f"{server.api}/games/{gid}/events", tokens["una"]) as reader:
            reader.next("game")
            slow = [
                _raw_stream(server, f"/api/v1/games/{gid}/events", tokens["una"])
                for _ in range(6)
            ]
            ports = {sock.getsockname()[1] for sock in slow}
            try:
                started = time.monotonic()
                kernel = 0
                while "unsent total is at its bound" not in server.log_text():
                    assert time.monotonic() - started < 60, "the total bound never bit"
                    _busy(client, tokens["una"], gid)
                    kernel = max(kernel, sum(_send_queues(port, ports).values()))
            finally:
                for sock in slow:
                    sock.close()
            log = server.log_text()
            assert "fell behind" not in log and "took nothing" not in log
            assert max(_on_all(log)) <= total_mib * 1024
            assert kernel <= len(slow) * KERNEL_BOUND, f"the kernel held {kernel} bytes"
            # the reader that reads goes on
            reader.drain(0.3)
            square = "e2" if game["turn"] == "south" else "e8"
            moved = play(client, tokens[game["turn_username"]], gid, "move", square)
            assert moved.status_code == 201, moved.text
            assert reader.next("action")["data"]["notation"] == square
            assert not reader.ended.is_set()
