"""A server process holds a bounded number of live streams, and ordinary requests go on.

Beyond STREAMS_MAX stream connections one more is answered 503
`too_many_streams_on_server` with `retry_after` (and Retry-After); moves still work. A
refused stream's connection is closed at once (it holds no open file of the server for
the keep-alive time). At start the soft open-file limit goes up to the hard one, the
default bound is derived from it, and a STREAMS_MAX above it less a reserve is lowered.
"""

from __future__ import annotations

import json
import re
import resource
import socket
import time
from pathlib import Path
from urllib.parse import urlsplit

import httpx
import pytest

from tests.support.games import play, started_game
from tests.support.server import running_server
from tests.support.sse import EventReader
from tests.support.users import auth, insert_user

pytestmark = pytest.mark.backend_neutral  # stream transport: connection and open-file bounds

ROOT = Path(__file__).resolve().parents[2]


def test_streams_beyond_the_bound_get_503_and_a_move_still_works(tmp_path: Path) -> None:
    with running_server(
        tmp_path, STREAMS_MAX="3", STREAMS_PER_ADDRESS="50", STREAM_KEEPALIVE="1"
    ) as server, httpx.Client(base_url=server.api, timeout=10) as client:
        tokens = {name: insert_user(server.database_url, name) for name in ("cap1", "cap2")}
        game = started_game(client, tokens)
        url = f"{server.api}/games/{game['id']}/events"
        open_ = [EventReader(url, None).start() for _ in range(2)]
        open_.append(EventReader(f"{server.api}/users/me/events", tokens["cap1"]).start())
        try:
            for reader in open_:
                assert reader.status == 200
                reader.next()
            for token in (None, tokens["cap2"]):  # anybody: anonymous or logged in
                with httpx.stream("GET", url, headers=auth(token) if token else {}) as refused:
                    assert refused.status_code == 503
                    body = json.loads(refused.read())
                    assert body["reason"] == "too_many_streams_on_server"
                    assert body["retry_after"] >= 1
                    assert refused.headers["Retry-After"] == str(body["retry_after"])
            # ordinary requests are served: a move, a look at the game
            square = "e2" if game["turn"] == "south" else "e8"
            moved = play(client, tokens[game["turn_username"]], game["id"], "move", square)
            assert moved.status_code == 201, moved.text
            looked = client.get(f"/games/{game['id']}", headers=auth(tokens["cap2"]))
            assert looked.status_code == 200
            assert open_[0].next("action")["data"]["notation"] == square
            # a stream that ends frees its place
            open_.pop(0).close()
            deadline = time.monotonic() + 5
            while True:
                again = EventReader(url, None).start()
                if again.status == 200 or time.monotonic() > deadline:
                    break
                again.close()
                time.sleep(0.05)
            assert again.status == 200
            open_.append(again)
        finally:
            for reader in open_:
                reader.close()


def _until_closed(base_url: str, path: str, wait: float = 5.0) -> bytes:
    """GET `path` on a connection of its own, kept alive as a browser's is (HTTP/1.1, no
    `Connection: close`); what the server sends until it closes the connection, which
    must be within `wait` seconds (Sanic keeps an idle connection for 120 s)."""
    address = urlsplit(base_url)
    host, port = address.hostname or "127.0.0.1", address.port or 80
    request = (f"GET {path} HTTP/1.1\r\nHost: {host}:{port}\r\n"
               "Accept: text/event-stream\r\n\r\n")
    received = b""
    with socket.create_connection((host, port), timeout=wait) as connection:
        connection.sendall(request.encode())
        deadline = time.monotonic() + wait
        while True:
            connection.settimeout(max(0.01, deadline - time.monotonic()))
            try:
                chunk = connection.recv(65536)
            except TimeoutError:
                raise AssertionError(
                    f"the server kept the connection open for {wait} s: {received!r}"
                ) from None
            if not chunk:  # closed by the server
                return received
            received += chunk


def test_a_refused_streams_connection_is_closed_at_once(tmp_path: Path) -> None:
    with running_server(
        tmp_path, STREAMS_MAX="1", STREAMS_PER_ADDRESS="50", STREAM_KEEPALIVE="1"
    ) as server, httpx.Client(base_url=server.api, timeout=10) as client:
        tokens = {name: insert_user(server.database_url, name) for name in ("cls1", "cls2")}
        game = started_game(client, tokens)
        path = f"/api/v1/games/{game['id']}/events"
        holder = EventReader(f"{server.base_url}{path}", None).start()
        try:
            assert holder.status == 200  # the one slot is taken
            for _ in range(3):  # (a client that retries gets the same)
                answer = _until_closed(server.base_url, path)
                head, _, body = answer.partition(b"\r\n\r\n")
                assert head.startswith(b"HTTP/1.1 503 "), answer
                assert b"connection: close" in head.lower(), head
                assert json.loads(body)["reason"] == "too_many_streams_on_server"
            # ordinary requests are answered meanwhile
            looked = client.get(f"/games/{game['id']}", headers=auth(tokens["cls1"]))
            assert looked.status_code == 200
        finally:
            holder.close()
        # any refused stream: here a game that does not exist, once the slot is free
        deadline = time.monotonic() + 5
        while True:
            answer = _until_closed(server.base_url, "/api/v1/games/999999/events")
            if answer.startswith(b"HTTP/1.1 404 ") or time.monotonic() > deadline:
                break
            time.sleep(0.05)  # (until the server saw the holder go)
        assert answer.startswith(b"HTTP/1.1 404 "), answer
        assert b"connection: close" in answer.partition(b"\r\n\r\n")[0].lower()
        with EventReader(f"{server.base_url}{path}", None) as again:  # streams are served
            assert again.next("game")["data"]["id"] == game["id"]


def _limits(pid: int) -> tuple[int, int]:
    text = Path(f"/proc/{pid}/limits").read_text()
    found = re.search(r"Max open files\s+(\d+)\s+(\d+)", text)
    assert found, text
    return int(found.group(1)), int(found.group(2))


def test_the_soft_open_file_limit_is_raised_and_the_bound_derived_from_it(
    tmp_path: Path,
) -> None:
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    low = min(256, hard)
    resource.setrlimit(resource.RLIMIT_NOFILE, (low, hard))  # the server inherits it
    try:
        context = running_server(tmp_path)
        server = context.__enter__()
    finally:
        resource.setrlimit(resource.RLIMIT_NOFILE, (soft, hard))
    try:
        deadline = time.monotonic() + 5
        while True:  # (the log line may come a moment later)
            log = server.log_text()
            workers = re.findall(r"Worker ready \[(\d+)\]", log)
            if workers or time.monotonic() > deadline:
                break
            time.sleep(0.05)
        assert workers, "no server worker"
        assert _limits(int(workers[-1])) == (hard, hard)
        assert f"at most {max(16, hard // 2 - 100)} connections at once" in log
    finally:
        context.__exit__(None, None, None)


def test_the_systemd_unit_raises_the_open_file_limit() -> None:
    unit = (ROOT / "docs" / "deploy" / "corridorquest.service").read_text()
    assert re.search(r"^LimitNOFILE=65536$", unit, re.MULTILINE)


def test_a_streams_max_above_the_open_file_limit_is_lowered_at_start(tmp_path: Path) -> None:
    _, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if hard == resource.RLIM_INFINITY or hard > 90_000:
        pytest.skip("the hard open-file limit is above the STREAMS_MAX this test sets")
    with running_server(tmp_path, STREAMS_MAX="100000") as server:
        deadline = time.monotonic() + 5
        while "live streams: at most" not in server.log_text():
            assert time.monotonic() < deadline, server.log_text()
            time.sleep(0.05)
        log = server.log_text()
        assert f"STREAMS_MAX=100000 lowered to {hard - 100}: the open-file limit is {hard}" in log
        assert f"at most {hard - 100} connections at once" in log
