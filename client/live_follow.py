"""A game's live stream across connections: reconnect with Last-Event-ID, catch up.

:class:`GameStream` gives the events of ``GET /games/{id}/events`` as one iteration,
whatever happens to the connections under it: when one breaks, goes silent or is ended
by the server (it stops or restarts), ``on_lost`` is told once, the stream waits (the
server's ``retry:``, then a little longer at each failure, at most ``MAX_DELAY``) and
opens a new connection from the last event id, so the server sends what was missed
before the live events; ``on_back`` is told at the first event after it. ``cq game
watch`` iterates it in the foreground, ``cq-shell`` in a thread (:meth:`GameStream.close`
ends it from another thread).

What is raised: a refusal of the first connection (404, 401, 429) and, with
``retry_first=False``, a first connection that cannot be made, as every command raises
them; later only a refusal that waiting does not cure (the game is gone, the session
ended), and :class:`StreamUnavailable` when connections keep ending before their first
event (something between client and server that does not pass a stream on).
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Generator, Iterator

from client.api import ApiClient
from client.errors import ConnectionFailed, CqError, RefusedError
from client.sse import EventStream, ServerEvent, StreamPosition

LOST_NOTE = "connection lost, reconnecting"
DEFAULT_DELAY = 1.5  # seconds before reconnecting when the server did not say (retry:)
MAX_DELAY = 5.0
EMPTY_LIMIT = 3  # connections in a row that end without an event: the stream is unavailable
RETRIED_REFUSALS = ("too_many_streams",)  # the server may not have seen the old one go yet


class StreamUnavailable(ConnectionFailed):
    """Connections to the stream keep ending before their first event."""


class GameStream:
    def __init__(
        self,
        open_api: Callable[[], ApiClient],
        game_id: int,
        invitation_code: str | None = None,
        *,
        on_lost: Callable[[CqError], None] = lambda problem: None,
        on_back: Callable[[], None] = lambda: None,
        retry_first: bool = False,
    ) -> None:
        self.open_api = open_api
        self.game_id = game_id
        self.invitation_code = invitation_code
        self.on_lost = on_lost
        self.on_back = on_back
        self.retry_first = retry_first
        self.position = StreamPosition()
        self._stopped = threading.Event()
        self._connection: EventStream | None = None

    @property
    def stopped(self) -> bool:
        return self._stopped.is_set()

    def close(self) -> None:
        """Stop following (from any thread): a waiting read or reconnect returns."""
        self._stopped.set()
        connection = self._connection
        if connection is not None:
            connection.close()

    def delay(self, failures: int) -> float:
        base = self.position.retry if self.position.retry is not None else DEFAULT_DELAY
        return min(base * (1 + 0.5 * (failures - 1)), max(base, MAX_DELAY))

    def events(self) -> Iterator[ServerEvent]:
        connected = False  # an event came through at least once
        lost: CqError | None = None  # the problem told to on_lost, until an event comes
        failures = 0  # tries in a row that brought no event
        empty = 0  # connections in a row that the server ended before their first event

        def back() -> None:
            nonlocal lost, connected, failures
            if lost is not None:
                lost = None
                self.on_back()
            connected, failures = True, 0

        while not self.stopped:
            problem: CqError
            try:
                count = yield from self._connection_events(back)
                if self.stopped:
                    return
                problem = ConnectionFailed("the server ended the stream", "stream_ended")
                empty = 0 if count else empty + 1
                if empty >= EMPTY_LIMIT:
                    raise StreamUnavailable(
                        "the server ends the game's live stream before its first event",
                        "stream_unavailable",
                    )
            except ConnectionFailed as exc:
                if not (connected or self.retry_first) or isinstance(exc, StreamUnavailable):
                    raise
                problem = exc
            except RefusedError as exc:
                if not connected or exc.reason not in RETRIED_REFUSALS:
                    raise
                problem = exc
            if self.stopped:
                return
            failures += 1
            if lost is None:
                lost = problem
                self.on_lost(problem)
            self._stopped.wait(self.delay(failures))

    def _connection_events(
        self, on_event: Callable[[], None]
    ) -> Generator[ServerEvent, None, int]:
        """The events of one connection (``on_event()`` before each); returns their count."""
        count = 0
        with self.open_api() as api, api.game_events(
            self.game_id, self.position, self.invitation_code
        ) as connection:
            self._connection = connection
            try:
                if self.stopped:
                    return count
                for event in connection:
                    on_event()
                    count += 1
                    yield event
                    if self.stopped:
                        break
            finally:
                self._connection = None
        return count
