"""A server-sent-events reader for tests: a real HTTP stream read in a thread.

    with EventReader(server.api + "/games/4/events", token) as events:
        first = events.next("game")
        ...

Every event is `{"event": name, "id": id or None, "data": parsed JSON}`; comment lines
(keepalives) are counted in `comments`. Closing the reader hangs up its connection (the
reading thread ends at once, and the server sees the client go), so a test does not wait
for the next keepalive.
"""

from __future__ import annotations

import contextlib
import json
import queue
import socket
import threading
import time
from typing import Any

import httpx

from tests.support.users import auth


class StreamEnded(AssertionError):
    pass


class EventReader:
    def __init__(
        self,
        url: str,
        token: str | None,
        headers: dict[str, str] | None = None,
        params: dict[str, Any] | None = None,
    ) -> None:
        self.url = url
        self.headers = {**(auth(token) if token else {}), **(headers or {})}
        self.params = params
        self.events: queue.Queue[dict[str, Any] | None] = queue.Queue()
        self.comments = 0
        self.lines: list[str] = []  # every line received, as received (leak checks)
        self.status: int | None = None
        self.error_body: Any = None
        self.content_type: str | None = None
        self._opened = threading.Event()
        self._stop = threading.Event()
        self.ended = threading.Event()
        self.ended_cleanly = False  # the server ended the response properly (its last chunk)
        self._socket: socket.socket | None = None  # the stream's connection, once open
        self._thread = threading.Thread(target=self._read, daemon=True)

    def __enter__(self) -> EventReader:
        self.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def start(self, timeout: float = 10.0) -> EventReader:
        self._thread.start()
        assert self._opened.wait(timeout), f"{self.url}: no answer"
        return self

    def _read(self) -> None:
        try:
            timeout = httpx.Timeout(10.0, read=30.0)
            with httpx.Client(timeout=timeout) as client:
                with client.stream(
                    "GET", self.url, headers=self.headers, params=self.params
                ) as response:
                    self.status = response.status_code
                    self.content_type = response.headers.get("content-type")
                    network = response.extensions.get("network_stream")
                    self._socket = network.get_extra_info("socket") if network else None
                    if response.status_code != 200:
                        self.error_body = json.loads(response.read() or b"null")
                        self._opened.set()
                        return
                    self._opened.set()
                    fields: dict[str, Any] = {}
                    for line in response.iter_lines():
                        if self._stop.is_set():
                            return
                        self.lines.append(line)
                        if line == "":
                            if fields:
                                self.events.put(fields)
                                fields = {}
                            continue
                        if line.startswith(":"):
                            self.comments += 1
                            continue
                        name, _, value = line.partition(": ")
                        if name == "event":
                            fields["event"] = value
                        elif name == "id":
                            fields["id"] = value
                        elif name == "data":
                            fields["data"] = json.loads(value)
                            fields["received"] = time.monotonic()
                    self.ended_cleanly = True
        except (httpx.HTTPError, OSError):
            pass
        finally:
            self._opened.set()
            self.ended.set()
            self.events.put(None)

    def next(self, name: str | None = None, timeout: float = 5.0) -> dict[str, Any]:
        """The next event (of that name: others before it are skipped)."""
        deadline = time.monotonic() + timeout
        while True:
            left = deadline - time.monotonic()
            if left <= 0:
                raise AssertionError(f"no {name or 'event'} within {timeout} s")
            try:
                found = self.events.get(timeout=left)
            except queue.Empty:
                continue
            if found is None:
                self.events.put(None)
                raise StreamEnded(f"the stream ended before a {name or 'event'}")
            if name is None or found.get("event") == name:
                return found

    def drain(self, quiet: float = 0.5) -> list[dict[str, Any]]:
        """Every event until none comes for `quiet` seconds."""
        found = []
        while True:
            try:
                item = self.events.get(timeout=quiet)
            except queue.Empty:
                return found
            if item is None:
                self.events.put(None)
                return found
            found.append(item)

    def close(self) -> None:
        """Stop reading: hang up the connection (a read waiting for the next line ends at
        once), and wait for the reading thread."""
        self._stop.set()
        if self._socket is not None and not self.ended.is_set():
            with contextlib.suppress(OSError):
                self._socket.shutdown(socket.SHUT_RDWR)
        self._thread.join(timeout=15)


def without_presence(view: dict[str, Any]) -> dict[str, Any]:
    """A game view without `online` (it changes as streams open and close, unlike the rest)
    and without `join_url`, which `GET /games/{id}` alone adds: the link at the address the
    asker reached the server at (for `cq game show --qr`), not part of the game's state."""
    return {k: v for k, v in view.items() if k not in ("online", "join_url")}


def game_at(reader: EventReader, revision: int) -> dict[str, Any]:
    """The reader's `game` event of `revision` (the events before it are skipped): each
    revision comes once and in order, or this fails."""
    while True:
        data: dict[str, Any] = reader.next("game")["data"]
        seen = data["revision"]
        assert seen <= revision, f"revision {seen} came before {revision}"
        if seen == revision:
            return data
