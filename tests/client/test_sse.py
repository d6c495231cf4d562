"""The client's reading of server-sent events: the parser, and one connection that another
thread ends (a stand-in server on a local socket that sends one event and then nothing)."""

from __future__ import annotations

import socket
import threading
import time
from collections.abc import Iterator

import pytest

from client.api import ApiClient
from client.errors import CqError, RefusedError
from client.sse import ServerEvent, StreamPosition, parse_events

pytestmark = pytest.mark.backend_neutral  # no database: the SSE parser, a stand-in server


def parsed(text: str, position: StreamPosition | None = None) -> list[ServerEvent]:
    return list(parse_events(text.split("\n"), position or StreamPosition()))


def test_events_ids_and_retry_are_read_and_comments_skipped() -> None:
    position = StreamPosition()
    events = parsed(
        "retry: 2000\n\n"
        "event: game\nid: 4.0\ndata: {\"id\": 7, \"revision\": 4}\n\n"
        ": keepalive\n\n"
        "event: message\nid: 4.2\ndata: {\"text\": \"hi\"}\n\n",
        position,
    )
    assert events == [ServerEvent("game", {"id": 7, "revision": 4}, "4.0"),
                      ServerEvent("message", {"text": "hi"}, "4.2")]
    assert position == StreamPosition(last_id="4.2", retry=2.0)


def test_an_event_without_a_name_or_id_and_data_over_lines() -> None:
    position = StreamPosition(last_id="3.1")
    assert parsed('data: {"a":\ndata: 1}\n\n', position) == [ServerEvent("message", {"a": 1})]
    assert position.last_id == "3.1"  # kept: the event had no id
    assert parsed("event: game\n\n") == []  # no data: nothing to dispatch


def test_text_of_an_event_cannot_act_on_the_terminal() -> None:
    [event] = parsed('event: message\ndata: {"text": "\\u001b[2Jgone\\u202e"}\n\n')
    assert event.data == {"text": "\\x1b[2Jgone\\u202e"}


def test_an_unreadable_event_is_an_error() -> None:
    with pytest.raises(CqError, match="unreadable 'game' event"):
        parsed("event: game\ndata: {not json\n\n")


class StandInServer:
    """Answers every request on a local port with `answer`, then keeps the socket open
    until the test ends."""

    def __init__(self, answer: bytes) -> None:
        self.answer = answer
        self.listener = socket.create_server(("127.0.0.1", 0))
        self.url = f"http://127.0.0.1:{self.listener.getsockname()[1]}"
        self.requests: list[bytes] = []
        self.done = threading.Event()
        threading.Thread(target=self.serve, daemon=True).start()

    def serve(self) -> None:
        while not self.done.is_set():
            try:
                connection, _ = self.listener.accept()
            except OSError:
                return
            self.requests.append(connection.recv(65536))
            connection.sendall(self.answer)
            self.done.wait(30)
            connection.close()

    def close(self) -> None:
        self.done.set()
        self.listener.close()


@pytest.fixture
def streaming() -> Iterator[StandInServer]:
    body = b'retry: 2000\n\nevent: game\nid: 5.0\ndata: {"id": 3, "revision": 5}\n\n'
    server = StandInServer(b"HTTP/1.1 200 OK\r\nContent-Type: text/event-stream; charset=utf-8"
                           b"\r\nTransfer-Encoding: chunked\r\n\r\n"
                           + f"{len(body):x}\r\n".encode() + body + b"\r\n")
    yield server
    server.close()


def test_a_connection_sends_the_last_id_and_another_thread_can_end_it(
    streaming: StandInServer,
) -> None:
    position = StreamPosition(last_id="4.0")
    received: list[ServerEvent] = []
    ended = threading.Event()
    with ApiClient(streaming.url, "token") as api:
        connection = api.game_events(3, position)

        def read() -> None:
            try:
                for event in connection:
                    received.append(event)
            except CqError:
                pass
            finally:
                ended.set()

        threading.Thread(target=read, daemon=True).start()
        deadline = time.monotonic() + 5
        while not received:
            assert time.monotonic() < deadline, "no event"
            time.sleep(0.01)
        assert not ended.wait(0.3)  # the read waits for more
        connection.close()
        assert ended.wait(2), "close() did not end the waiting read"
        connection.response.close()
    request = streaming.requests[0].decode()
    assert request.startswith("GET /api/v1/games/3/events ")
    assert "last-event-id: 4.0" in request.lower() and "bearer token" in request.lower()
    assert received == [ServerEvent("game", {"id": 3, "revision": 5}, "5.0")]
    assert position == StreamPosition(last_id="5.0", retry=2.0)


def test_a_refusal_before_the_stream_is_raised_as_every_call_raises_it() -> None:
    body = b'{"reason": "too_many_streams", "message": "you have 8 live streams open"}'
    server = StandInServer(b"HTTP/1.1 429 Too Many Requests\r\nContent-Type: application/json"
                           + f"\r\nContent-Length: {len(body)}\r\n\r\n".encode() + body)
    try:
        with ApiClient(server.url, "token") as api, pytest.raises(RefusedError) as refused:
            api.game_events(3, StreamPosition())
        assert refused.value.reason == "too_many_streams"
        assert refused.value.message == "you have 8 live streams open"
    finally:
        server.close()


def test_an_answer_that_is_no_stream_is_an_error() -> None:
    body = b'{"id": 3}'
    server = StandInServer(b"HTTP/1.1 200 OK\r\nContent-Type: application/json"
                           + f"\r\nContent-Length: {len(body)}\r\n\r\n".encode() + body)
    try:
        with ApiClient(server.url, "token") as api, pytest.raises(CqError, match="no event"):
            api.game_events(3, StreamPosition())
    finally:
        server.close()
