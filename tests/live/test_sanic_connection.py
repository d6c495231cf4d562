"""The one place that reaches into Sanic's private connection state
(corridorquest/api/sanic_connection.py) still finds what it relies on, and a stream lives
past Sanic's response timeout because of it.

Once a stream's response has started, the hub writes its updates to the transport
itself, past Sanic's response object; Sanic would end the response RESPONSE_TIMEOUT
after its own last write, and would not know the framing. A Sanic upgrade that renames
`HttpProtocol._time`, `Http.http1_response_chunked` or `Http.keep_alive` (which closes a
refused stream's connection) fails here, not in production.
"""

from __future__ import annotations

import inspect
import time
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import httpx
import pytest
from sanic.http import Http
from sanic.server.protocols.http_protocol import HttpProtocol

from corridorquest.api.sanic_connection import close_after_response, is_chunked, mark_written
from tests.support.games import play, started_game
from tests.support.server import running_server
from tests.support.sse import EventReader
from tests.support.users import insert_user

pytestmark = pytest.mark.backend_neutral  # stream transport: Sanic's connection state


def test_sanic_times_a_response_out_from_the_protocol_attribute_we_move() -> None:
    timeouts = inspect.getsource(HttpProtocol.check_timeouts)
    assert "self._time" in timeouts, "Sanic no longer measures its timeouts from _time"
    assert "self._time = " in inspect.getsource(HttpProtocol), "Sanic no longer sets _time"


def test_mark_written_moves_the_protocol_clock_on() -> None:
    protocol = SimpleNamespace(_time=0.0)
    request: Any = SimpleNamespace(stream=SimpleNamespace(protocol=protocol))
    before = time.monotonic()
    mark_written(request)
    assert protocol._time >= before


def test_sanic_still_names_its_chunked_response_writer() -> None:
    assert inspect.iscoroutinefunction(Http.http1_response_chunked)
    assert "response_func" in Http.__slots__
    http: Any = SimpleNamespace(response_func=None, http1_response_chunked=object())
    http.response_func = http.http1_response_chunked
    assert is_chunked(SimpleNamespace(stream=http))  # type: ignore[arg-type]
    http.response_func = object()
    assert not is_chunked(SimpleNamespace(stream=http))  # type: ignore[arg-type]


def test_sanic_still_closes_a_connection_by_its_keep_alive_flag() -> None:
    assert "keep_alive" in Http.__slots__
    assert '"keep-alive" if self.keep_alive else "close"' in inspect.getsource(
        Http.http1_response_header
    ), "Sanic no longer writes the Connection header from keep_alive"
    assert "while self.keep_alive" in inspect.getsource(Http.http1)
    http: Any = SimpleNamespace(keep_alive=True)
    close_after_response(SimpleNamespace(stream=http))  # type: ignore[arg-type]
    assert http.keep_alive is False


def test_a_stream_lives_past_sanics_response_timeout(tmp_path: Path) -> None:
    # Sanic ends a response it has not written to for RESPONSE_TIMEOUT; the hub writes
    # the stream's keepalives, and tells Sanic so (mark_written)
    with running_server(
        tmp_path, STREAM_KEEPALIVE="1", SANIC_RESPONSE_TIMEOUT="2"
    ) as server, httpx.Client(base_url=server.api, timeout=10) as client:
        tokens = {name: insert_user(server.database_url, name) for name in ("ari", "bo")}
        game = started_game(client, tokens)
        with EventReader(f"{server.api}/games/{game['id']}/events", tokens["ari"]) as events:
            events.next("game")
            time.sleep(4.5)  # pacing: the stream must outlive the response timeout
            assert not events.ended.is_set(), "the stream was cut at the response timeout"
            assert events.comments >= 2
            mover = tokens[game["turn_username"]]
            square = "e2" if game["turn"] == "south" else "e8"
            assert play(client, mover, game["id"], "move", square).status_code == 201
            assert events.next("action")["data"]["n"] == 1
