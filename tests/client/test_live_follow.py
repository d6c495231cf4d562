"""GameStream's reconnection rules, with stand-in connections: what it raises, when it
tells of a lost connection and of its return, where it resumes, how long it waits."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

from client import live_follow
from client.errors import AuthError, ConnectionFailed, CqError, RefusedError
from client.live_follow import GameStream, StreamUnavailable
from client.sse import ServerEvent, StreamPosition

pytestmark = pytest.mark.backend_neutral  # no database: stand-in connections

LOST = ConnectionFailed("connection lost", "connection_lost")


def game(revision: int) -> ServerEvent:
    return ServerEvent("game", {"id": 3, "revision": revision}, f"{revision}.0")


class Connection:
    """A connection that gives `events` (keeping the position as the real one does), then
    raises `then` or ends."""

    def __init__(self, position: StreamPosition, events: list[ServerEvent],
                 then: CqError | None) -> None:
        self.position, self.events, self.then = position, events, then

    def __enter__(self) -> Connection:
        return self

    def __exit__(self, *exc: object) -> None:
        pass

    def __iter__(self) -> Iterator[ServerEvent]:
        for event in self.events:
            self.position.last_id = event.id
            yield event
        if self.then is not None:
            raise self.then

    def close(self) -> None:
        pass


class Server:
    """Answers each connection with the next of `script`: an error raised on opening, or
    `(events, then)`. Records the Last-Event-ID of each."""

    def __init__(self, *script: Any) -> None:
        self.script = list(script)
        self.resumed_from: list[str | None] = []
        self.server_url = "http://stand-in"

    def __call__(self) -> Server:  # the open_api of GameStream
        return self

    def __enter__(self) -> Server:
        return self

    def __exit__(self, *exc: object) -> None:
        pass

    def game_events(self, game_id: int, position: StreamPosition,
                    invitation_code: str | None = None) -> Connection:
        self.resumed_from.append(position.last_id)
        step = self.script.pop(0)
        if isinstance(step, CqError):
            raise step
        events, then = step
        return Connection(position, events, then)


@pytest.fixture(autouse=True)
def no_waiting(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(live_follow, "DEFAULT_DELAY", 0.001)


def follow(server: Server, count: int, **options: Any) -> tuple[list[Any], GameStream]:
    """The first `count` events and what was told, in order."""
    told: list[Any] = []
    stream = GameStream(server, 3, on_lost=lambda problem: told.append(("lost", problem.reason)),
                        on_back=lambda: told.append("back"), **options)
    for event in stream.events():
        told.append(event)
        if sum(isinstance(item, ServerEvent) for item in told) == count:
            break
    return told, stream


def test_a_lost_connection_is_told_once_and_resumed_from_the_last_event() -> None:
    server = Server(([game(4)], LOST), LOST, LOST, ([game(6)], None), ([game(7)], None))
    told, _ = follow(server, 3)
    assert told == [game(4), ("lost", "connection_lost"), "back", game(6),
                    ("lost", "stream_ended"), "back", game(7)]
    assert server.resumed_from == [None, "4.0", "4.0", "4.0", "6.0"]


def test_the_first_connection_fails_as_every_command_does() -> None:
    with pytest.raises(ConnectionFailed):
        follow(Server(LOST), 1)
    with pytest.raises(RefusedError):
        follow(Server(RefusedError("no game 3", reason="game_not_found")), 1)
    with pytest.raises(AuthError):
        follow(Server(AuthError("session expired", reason="session_expired")), 1)


def test_retry_first_waits_for_the_server_to_come() -> None:
    told, _ = follow(Server(LOST, LOST, ([game(4)], None)), 1, retry_first=True)
    assert told == [("lost", "connection_lost"), "back", game(4)]


def test_refusals_after_the_start_end_it_unless_waiting_cures_them() -> None:
    busy = RefusedError("you have 8 live streams open", reason="too_many_streams")
    told, _ = follow(Server(([game(4)], LOST), busy, ([game(5)], None)), 2)
    assert told == [game(4), ("lost", "connection_lost"), "back", game(5)]
    gone = RefusedError("no game 3", reason="game_not_found")
    with pytest.raises(RefusedError, match="no game 3"):
        follow(Server(([game(4)], LOST), gone), 2)


def test_connections_that_end_before_any_event_make_the_stream_unavailable() -> None:
    server = Server(([game(4)], None), ([], None), LOST, ([], None), ([], None), ([], None))
    with pytest.raises(StreamUnavailable):
        follow(server, 2, retry_first=True)
    assert server.script == [([], None)]  # three in a row: the fourth was never opened


def test_the_wait_follows_the_servers_retry_and_grows_a_little() -> None:
    stream = GameStream(Server(), 3)
    assert [stream.delay(n) for n in (1, 2, 3)] == [0.001, 0.0015, 0.002]
    stream.position.retry = 2.0
    assert [stream.delay(n) for n in (1, 2, 3, 4, 9)] == [2.0, 3.0, 4.0, 5.0, 5.0]
    stream.position.retry = 8.0
    assert stream.delay(3) == 8.0  # never less than the server asks


def test_close_ends_the_iteration() -> None:
    server = Server(([game(4), game(5)], None))
    stream = GameStream(server, 3)
    seen = []
    for event in stream.events():
        seen.append(event)
        stream.close()
    assert seen == [game(4)]
