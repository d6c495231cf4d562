"""Server-sent events as the client reads them: the parser and one open connection.

The server's live streams (docs/api.md, Live streams) send ``event:``, ``id:`` and one
``data:`` line of JSON per event, a blank line after each, ``retry:`` (how long to wait
before reconnecting) and comment lines (``: keepalive``) that only keep the connection
open. :func:`parse_events` turns such lines into :class:`ServerEvent` items, their data
decoded and made safe for a terminal (:mod:`client.safe_text`), and keeps the reader's
:class:`StreamPosition` (the last event id, to resume from; the retry delay) up to date.

:class:`EventStream` is one connection (``ApiClient.game_events`` opens it): iterating
gives its events; a connection that breaks or stays silent longer than the read timeout
raises :class:`~client.errors.ConnectionFailed`; the server ending it is the end of the
iteration. :meth:`EventStream.close` may be called from another thread to end a read
that is waiting.
"""

from __future__ import annotations

import contextlib
import json
import socket
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from typing import Any

import httpx

from client.errors import ConnectionFailed, CqError
from client.safe_text import visible_json


@dataclass(frozen=True)
class ServerEvent:
    name: str  # "game", "action", "message", "presence", ...
    data: Any  # the decoded JSON, every string made visible
    id: str | None = None


@dataclass
class StreamPosition:
    """Where a reader stands in a stream, kept across its connections."""

    last_id: str | None = None  # sent back as Last-Event-ID to resume
    retry: float | None = None  # seconds, as the server's ``retry:`` asks


def _decode(name: str, data: str) -> Any:
    try:
        return visible_json(json.loads(data))
    except ValueError as exc:
        raise CqError(f"the server sent an unreadable {name!r} event", "bad_event") from exc


def parse_events(lines: Iterable[str], position: StreamPosition) -> Iterator[ServerEvent]:
    """The events of ``lines`` (without their line ends), as the SSE format reads them."""
    name, event_id = "", None
    data: list[str] = []
    for line in lines:
        if not line:
            if data:
                if event_id is not None:
                    position.last_id = event_id
                yield ServerEvent(name or "message", _decode(name, "\n".join(data)), event_id)
            name, data, event_id = "", [], None
            continue
        if line.startswith(":"):
            continue
        field, _, value = line.partition(":")
        value = value.removeprefix(" ")
        if field == "event":
            name = value
        elif field == "data":
            data.append(value)
        elif field == "id" and "\0" not in value:
            event_id = value
        elif field == "retry" and value.isascii() and value.isdigit():
            position.retry = int(value) / 1000


class EventStream:
    """One open connection of a live stream (its response is answering 200)."""

    def __init__(self, response: httpx.Response, position: StreamPosition, server: str) -> None:
        self.response = response
        self.position = position
        self.server = server

    def __enter__(self) -> EventStream:
        return self

    def __exit__(self, *exc: object) -> None:
        self.response.close()

    def __iter__(self) -> Iterator[ServerEvent]:
        try:
            yield from parse_events(self.response.iter_lines(), self.position)
        except httpx.TimeoutException as exc:
            raise ConnectionFailed(
                f"the server at {self.server} went silent: connection lost", "timeout"
            ) from exc
        except (httpx.HTTPError, OSError) as exc:
            raise ConnectionFailed(
                f"connection to the server at {self.server} lost: {exc}", "connection_lost"
            ) from exc

    def close(self) -> None:
        """End the connection, also from another thread: a read waiting on it returns."""
        network = self.response.extensions.get("network_stream")
        sock = network.get_extra_info("socket") if network is not None else None
        if isinstance(sock, socket.socket):
            with contextlib.suppress(OSError):
                sock.shutdown(socket.SHUT_RDWR)
