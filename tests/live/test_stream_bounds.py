"""Live streams within bounds: per-user limit, slow readers dropped, clean shutdown."""

from __future__ import annotations

import signal
import socket
import time
from pathlib import Path

import httpx
import pytest

from tests.support.games import get_game, started_game
from tests.support.server import RunningServer, running_server
from tests.support.sse import EventReader
from tests.support.users import auth, insert_user

pytestmark = pytest.mark.backend_neutral  # stream transport: bounds, slow readers, shutdown


def test_one_stream_more_than_the_limit_is_refused_with_a_reason(
    server: RunningServer, client: httpx.Client
) -> None:
    tokens = {name: insert_user(server.database_url, name) for name in ("pam", "quin")}
    game = started_game(client, tokens)
    url = f"{server.api}/games/{game['id']}/events"
    open_ = [EventReader(url, tokens["pam"]).start() for _ in range(3)]  # STREAMS_PER_USER=3
    try:
        for reader in open_:
            assert reader.status == 200
            reader.next("game")
        refused = EventReader(f"{server.api}/users/me/events", tokens["pam"]).start()
        refused.close()
        assert refused.status == 429
        assert refused.error_body["reason"] == "too_many_streams"
        # another user is not affected
        with EventReader(url, tokens["quin"]) as other:
            assert other.next("game")["data"]["id"] == game["id"]
        open_.pop().close()
        deadline = time.monotonic() + 5
        while True:  # the closed stream's slot is free once the server saw it go
            again = EventReader(url, tokens["pam"]).start()
            if again.status == 200 or time.monotonic() > deadline:
                break
            again.close()
            time.sleep(0.05)
        assert again.status == 200
        open_.append(again)
    finally:
        for reader in open_:
            reader.close()


def test_watchers_without_a_login_are_limited_per_address(
    server: RunningServer, client: httpx.Client
) -> None:
    tokens = {name: insert_user(server.database_url, name) for name in ("anya", "anyb")}
    game = started_game(client, tokens)
    url = f"{server.api}/games/{game['id']}/events"
    open_ = [EventReader(url, None).start() for _ in range(2)]  # STREAMS_PER_ADDRESS=2
    try:
        for reader in open_:
            assert reader.status == 200
            reader.next("game")
        refused = EventReader(url, None).start()
        refused.close()
        assert refused.status == 429
        assert refused.error_body["reason"] == "too_many_streams"
        # a logged-in user from the same address counts on its own
        with EventReader(url, tokens["anya"]) as mine:
            assert mine.status == 200
    finally:
        for reader in open_:
            reader.close()


def test_bad_positions_and_unknown_games_are_refused_before_the_stream_starts(
    server: RunningServer, client: httpx.Client
) -> None:
    token = insert_user(server.database_url, "rex")
    other = insert_user(server.database_url, "rex2")
    game = started_game(client, {"rex": token, "rex2": other})
    url = f"{server.api}/games/{game['id']}/events"
    for params in ({"since": "abc"}, {"since": "1.2.3"}, {"since": "-4"}):
        answer = httpx.get(url, params=params, headers=auth(token), timeout=5)
        assert answer.status_code == 422, (params, answer.text)
        assert answer.json()["reason"] == "invalid_cursor"
    answer = httpx.get(url, headers={**auth(token), "Last-Event-ID": "x"}, timeout=5)
    assert answer.status_code == 422
    assert httpx.get(f"{server.api}/games/999999/events", headers=auth(token)).status_code == 404
    assert httpx.get(url, headers=auth("not-a-token"), timeout=5).status_code == 401


def _raw_stream(base_url: str, path: str, token: str) -> socket.socket:
    """A stream request on a socket with a tiny receive buffer, never read from."""
    host, port = base_url.removeprefix("http://").split(":")
    sock = socket.socket()
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 2048)
    sock.connect((host, int(port)))
    request = (
        f"GET {path} HTTP/1.1\r\nHost: {host}\r\nAuthorization: Bearer {token}\r\n"
        "Accept: text/event-stream\r\n\r\n"
    )
    sock.sendall(request.encode())
    return sock


def test_a_reader_that_falls_behind_is_disconnected_and_the_server_carries_on(
    tmp_path: Path,
) -> None:
    with running_server(
        tmp_path, STREAM_BUFFER="16", STREAM_KEEPALIVE="1"
    ) as server, httpx.Client(
        base_url=server.api, timeout=10
    ) as client:
        tokens = {name: insert_user(server.database_url, name) for name in ("sal", "ted")}
        game = started_game(client, tokens, invisible=True)
        gid = game["id"]
        slow = _raw_stream(server.base_url, f"/api/v1/games/{gid}/events", tokens["sal"])
        try:
            slow.settimeout(10)
            head = b""
            while b"\r\n\r\n" not in head:  # the stream is open: its answer's head came
                head += slow.recv(1)
            assert head.startswith(b"HTTP/1.1 200 "), head
            # each marker change sends the owner's stream the whole game view again; the
            # kernel's buffers take a few MB before the server's buffer fills (changes
            # that come faster than the stream's updates share one: go on until it does)
            give_up = time.monotonic() + 90
            i = 0
            while time.monotonic() < give_up:
                i += 1
                marked = client.post(
                    f"/games/{gid}/markers", json={"marker": "d4h"}, headers=auth(tokens["sal"])
                )
                assert marked.status_code in (200, 201), marked.text
                client.delete(f"/games/{gid}/markers/d4h", headers=auth(tokens["sal"]))
                if i % 100 == 0 and "fell behind" in server.log_text():
                    break
            deadline = time.monotonic() + 5
            while "fell behind" not in server.log_text() and time.monotonic() < deadline:
                time.sleep(0.05)
            assert "fell behind" in server.log_text()
            # the connection is closed: reading what was buffered ends (EOF or reset)
            slow.settimeout(5)
            total = 0
            try:
                while chunk := slow.recv(65536):
                    total += len(chunk)
            except ConnectionResetError:
                pass
            assert total > 0
        finally:
            slow.close()
        # the server goes on serving, streams included
        assert get_game(client, tokens["ted"], gid)["id"] == gid
        with EventReader(f"{server.api}/games/{gid}/events", tokens["sal"]) as again:
            assert again.next("game")["data"]["id"] == gid


def test_streams_end_cleanly_when_the_server_stops(tmp_path: Path) -> None:
    with running_server(
        tmp_path, STREAM_KEEPALIVE="30"
    ) as server, httpx.Client(base_url=server.api, timeout=10) as client:
        tokens = {name: insert_user(server.database_url, name) for name in ("uma", "vic")}
        game = started_game(client, tokens)
        readers = [
            EventReader(f"{server.api}/games/{game['id']}/events", tokens["uma"]).start(),
            EventReader(f"{server.api}/users/me/events", tokens["vic"]).start(),
        ]
        for reader in readers:
            reader.next()
        stopped = time.monotonic()
        server.process.send_signal(signal.SIGTERM)
        for reader in readers:
            assert reader.ended.wait(8), "a stream stayed open after the server stopped"
            assert reader.ended_cleanly, "a stream was cut, not ended"
        assert server.process.wait(10) == 0
        assert time.monotonic() - stopped < 8
        assert "Traceback" not in server.log_text()
        for reader in readers:
            reader.close()
