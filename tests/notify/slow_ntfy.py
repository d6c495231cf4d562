"""A stand-in ntfy server that is slow for some topics: real HTTP on 127.0.0.1.

    with SlowNtfy(trickle={"ria"}) as ntfy:      # NTFY_URL=ntfy.url
        ...
        ntfy.slow[0].ended - ntfy.slow[0].began  # how long the publisher held on

A POST to a topic in `trickle` is answered 200 with its headers at once, then one byte of
its body every `every` seconds (a server that never finishes but always sends something:
no read timeout fires); to a topic in `silent` nothing is ever answered. Either goes on
until the client closes the connection (noted in `slow`: when it began and ended) or
BOUND seconds have passed. Every other POST is answered 200 at once and recorded in
`published` (topic, title, headers). `heal()` answers every topic at once from then on.

Bounded: loopback only, at most MAX_BODY bytes read of a body, BOUND seconds per slow
request; `with` stops it (port closed, thread joined; slow requests end).
"""

from __future__ import annotations

import select
import socket
import threading
import time
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any
from urllib.parse import unquote, urlsplit

MAX_BODY = 64 * 1024
BOUND = 30.0  # seconds a slow request lasts at most
CHECK = 0.05  # seconds between looks at whether the client went away


@dataclass
class SlowRequest:
    topic: str
    began: float  # time.monotonic()
    ended: float | None = None  # when the client closed the connection (None: it did not)


@dataclass(frozen=True)
class Published:
    topic: str
    title: str
    body: str
    headers: dict[str, str] = field(repr=False, default_factory=dict)
    at: float = 0.0  # time.monotonic() when it arrived


class SlowNtfy:
    def __init__(
        self, trickle: Iterable[str] = (), silent: Iterable[str] = (), every: float = 1.0
    ) -> None:
        self.trickle = set(trickle)
        self.silent = set(silent)
        self.every = every
        self.slow: list[SlowRequest] = []
        self.published: list[Published] = []
        self._lock = threading.Condition()
        self._stopping = threading.Event()
        self._server = ThreadingHTTPServer(("127.0.0.1", 0), self._handler_class())
        self._server.daemon_threads = True
        self._thread: threading.Thread | None = None
        self.url = f"http://127.0.0.1:{self._server.server_address[1]}"

    def __enter__(self) -> SlowNtfy:
        self._thread = threading.Thread(
            target=self._server.serve_forever, kwargs={"poll_interval": 0.1}, daemon=True
        )
        self._thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self._stopping.set()
        self._server.shutdown()
        if self._thread is not None:
            self._thread.join(5)
        self._server.server_close()

    def heal(self) -> None:
        with self._lock:
            self.trickle.clear()
            self.silent.clear()

    def wait_for(self, predicate: Callable[[SlowNtfy], Any], timeout: float = 15.0) -> None:
        deadline = time.monotonic() + timeout
        with self._lock:
            while not predicate(self):
                left = deadline - time.monotonic()
                if left <= 0:
                    raise AssertionError(
                        f"ntfy: not seen within {timeout} s; slow {self.slow}, "
                        f"published {[p.topic for p in self.published]}"
                    )
                self._lock.wait(min(left, 0.1))

    def _note(self, change: Callable[[], None]) -> None:
        with self._lock:
            change()
            self._lock.notify_all()

    def _handler_class(self) -> type[BaseHTTPRequestHandler]:
        stub = self

        class Handler(BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"

            def do_POST(self) -> None:  # noqa: N802 (http.server's name)
                length = min(int(self.headers.get("Content-Length") or 0), MAX_BODY)
                body = self.rfile.read(length) if length else b""
                topic = unquote(urlsplit(self.path).path.lstrip("/"))
                with stub._lock:
                    trickle, silent = topic in stub.trickle, topic in stub.silent
                if trickle or silent:
                    self._slow(topic, trickle)
                    return
                stub._note(lambda: stub.published.append(Published(
                    topic, self.headers.get("Title") or "", body.decode(errors="replace"),
                    dict(self.headers.items()), time.monotonic(),
                )))
                data = b'{"id":"slow","event":"message"}'
                self.send_response(200)
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(len(data)))
                self.end_headers()
                self.wfile.write(data)

            def _slow(self, topic: str, trickle: bool) -> None:
                request = SlowRequest(topic, time.monotonic())
                stub._note(lambda: stub.slow.append(request))
                self.close_connection = True
                if trickle:
                    self.send_response(200)
                    self.send_header("Content-Type", "application/json")
                    self.send_header("Content-Length", "100000")
                    self.end_headers()
                    self.wfile.flush()
                sock: socket.socket = self.connection
                next_byte = time.monotonic() + stub.every
                while time.monotonic() - request.began < BOUND and not stub._stopping.is_set():
                    readable, _, _ = select.select([sock], [], [], CHECK)
                    try:
                        if readable and not sock.recv(1, socket.MSG_PEEK):
                            break  # the client closed the connection
                        if trickle and time.monotonic() >= next_byte:
                            self.wfile.write(b" ")
                            self.wfile.flush()
                            next_byte += stub.every
                    except OSError:
                        break
                else:
                    return  # bounded: the client held on
                stub._note(lambda: setattr(request, "ended", time.monotonic()))

            def log_message(self, format: str, *args: Any) -> None:  # quiet
                pass

        return Handler
