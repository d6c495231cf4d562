"""A stand-in ntfy server for end-to-end tests: real HTTP on 127.0.0.1, records every POST.

    with NtfyRecorder() as ntfy:            # NTFY_URL=ntfy.url
        ...
        ntfy.wait_for(lambda got: len(got) >= 3)
        [(p.topic, p.title, p.tags, p.priority) for p in ntfy.published]

Every request is kept in `requests` (what it answered too); the accepted ones (answered
200, as ntfy does) are `published`. A `Title` header sent RFC 2047-encoded (non-ASCII) is
decoded as ntfy does. `fail_next(n, status)` answers the next n requests with `status`
(500: the server should retry; 400: it should give up), `answer_always(status)` every
request until `answer_always(None)`. `pause()` holds every request unanswered until
`resume()` (at most PAUSE_BOUND seconds): the notify worker is held up meanwhile.

Bounded: it listens on the loopback interface only, reads at most MAX_BODY bytes of a
body, keeps at most MAX_REQUESTS requests, and stops (port closed, thread joined) when the
`with` block ends.
"""

from __future__ import annotations

import json
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from email.header import decode_header, make_header
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any
from urllib.parse import unquote, urlsplit

MAX_BODY = 64 * 1024
MAX_REQUESTS = 10_000
PAUSE_BOUND = 30.0  # seconds a paused request waits at most


@dataclass(frozen=True)
class Publish:
    """One POST the recorder received."""

    topic: str
    title: str
    tags: tuple[str, ...]
    priority: str
    authorization: str | None
    body: str
    content_type: str
    status: int  # what the recorder answered
    headers: dict[str, str] = field(repr=False, default_factory=dict)

    @property
    def key(self) -> tuple[str, tuple[str, ...], str]:
        """(topic, tags sorted, priority): what tells one publish from another in a list."""
        return self.topic, tuple(sorted(self.tags)), self.priority


def decode_title(value: str) -> str:
    """A header value as ntfy reads it (RFC 2047 encoded words decoded)."""
    if "=?" not in value:
        return value
    return str(make_header(decode_header(value)))


class NtfyRecorder:
    def __init__(self) -> None:
        self._lock = threading.Condition()
        self._requests: list[Publish] = []
        self._failures: list[int] = []  # statuses for the next requests
        self._always: int | None = None
        self._running = threading.Event()  # cleared: requests wait (`pause`)
        self._running.set()
        self._server = ThreadingHTTPServer(("127.0.0.1", 0), self._handler_class())
        self._server.daemon_threads = True
        self._thread: threading.Thread | None = None
        self.port = int(self._server.server_address[1])
        self.url = f"http://127.0.0.1:{self.port}"

    # -- lifecycle ------------------------------------------------------------------------

    def start(self) -> NtfyRecorder:
        self._thread = threading.Thread(
            target=self._server.serve_forever, kwargs={"poll_interval": 0.1}, daemon=True
        )
        self._thread.start()
        return self

    def stop(self) -> None:
        self._running.set()  # no request waits any more
        if self._thread is not None:
            self._server.shutdown()
            self._thread.join(5)
            self._thread = None
        self._server.server_close()

    def __enter__(self) -> NtfyRecorder:
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.stop()

    # -- what it answers ------------------------------------------------------------------

    def fail_next(self, count: int, status: int = 500) -> None:
        """Answer the next `count` requests with `status` (not recorded as published)."""
        with self._lock:
            self._failures.extend([status] * count)

    def answer_always(self, status: int | None) -> None:
        """Answer every request with `status` from now (None: accept them again)."""
        with self._lock:
            self._always = status

    def pause(self) -> None:
        """Hold every request unanswered (and unrecorded) until `resume()`."""
        self._running.clear()

    def resume(self) -> None:
        self._running.set()

    def _next_status(self) -> int:
        with self._lock:
            if self._failures:
                return self._failures.pop(0)
            return self._always or 200

    # -- what it received -----------------------------------------------------------------

    @property
    def requests(self) -> list[Publish]:
        """Every request received, oldest first (refused ones too)."""
        with self._lock:
            return list(self._requests)

    @property
    def published(self) -> list[Publish]:
        """The requests answered 200, oldest first."""
        with self._lock:
            return [p for p in self._requests if p.status == 200]

    def to(self, topic: str) -> list[Publish]:
        return [p for p in self.published if p.topic == topic]

    def wait_for(
        self, predicate: Callable[[list[Publish]], Any], timeout: float = 15.0
    ) -> list[Publish]:
        """Wait until `predicate(published)` is truthy; the published list then. Fails
        (AssertionError, with what was received) after `timeout` seconds."""
        deadline = time.monotonic() + timeout
        with self._lock:
            while True:
                published = [p for p in self._requests if p.status == 200]
                if predicate(published):
                    return published
                left = deadline - time.monotonic()
                if left <= 0:
                    got = "\n".join(f"  {p.key} {p.title!r}" for p in published)
                    raise AssertionError(f"ntfy: not received within {timeout} s; got:\n{got}")
                self._lock.wait(min(left, 0.2))

    def _record(self, publish: Publish) -> None:
        with self._lock:
            if len(self._requests) < MAX_REQUESTS:
                self._requests.append(publish)
            self._lock.notify_all()

    # -- HTTP -----------------------------------------------------------------------------

    def _handler_class(self) -> type[BaseHTTPRequestHandler]:
        recorder = self

        class Handler(BaseHTTPRequestHandler):
            def do_POST(self) -> None:  # noqa: N802 (http.server's name)
                length = min(int(self.headers.get("Content-Length") or 0), MAX_BODY)
                body = self.rfile.read(length) if length else b""
                recorder._running.wait(PAUSE_BOUND)
                status = recorder._next_status()
                topic = unquote(urlsplit(self.path).path.lstrip("/"))
                tags = self.headers.get("Tags") or ""
                recorder._record(
                    Publish(
                        topic=topic,
                        title=decode_title(self.headers.get("Title") or ""),
                        tags=tuple(t.strip() for t in tags.split(",") if t.strip()),
                        priority=self.headers.get("Priority") or "",
                        authorization=self.headers.get("Authorization"),
                        body=body.decode("utf-8", errors="replace"),
                        content_type=self.headers.get("Content-Type") or "",
                        status=status,
                        headers=dict(self.headers.items()),
                    )
                )
                if status == 200:
                    answer = {"id": "rec", "time": int(time.time()), "event": "message",
                              "topic": topic}
                else:
                    answer = {"code": status * 100 + 1, "http": status, "error": "recorder"}
                data = json.dumps(answer).encode()
                self.send_response(status)
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(len(data)))
                self.end_headers()
                self.wfile.write(data)

            def log_message(self, format: str, *args: Any) -> None:  # quiet
                pass

        return Handler
