"""Tell "the server does not speak HTTPS" from a TLS handshake that fails or stalls.

A plain-HTTP server that receives a TLS ClientHello usually waits for the rest of an HTTP
request that never comes, so an ``https://`` URL for such a server would hang until the
timeout and end in "did not answer in time". The client's connections therefore go
through :class:`TlsCheckingBackend`: when a handshake has not finished after
:data:`PROBE_AFTER` seconds, or fails with a TLS protocol error, a second connection to
the same address sends a plain ``GET /`` (no credentials). When that gets an HTTP answer
the server speaks plain HTTP: the stalled handshake is cut short and the request fails
at once with :class:`NotHttps`. A TLS server answers the probe with an
alert or by closing, and the handshake goes on untouched.
"""

from __future__ import annotations

import socket
import ssl
import threading
from collections.abc import Iterable
from typing import Any

import httpcore

PROBE_AFTER = 1.0  # seconds a handshake may take before the plain-HTTP probe runs
PROBE_TIMEOUT = 5.0


class NotHttps(httpcore.ConnectError):
    """The server answered plain HTTP where a TLS handshake was expected.

    A ``ConnectError`` so that httpx raises its own ``ConnectError`` with this as the
    ``__cause__`` (httpcore drops causes of its own exceptions: the type must say it)."""


def answers_plain_http(address: tuple[Any, ...], host: str, timeout: float) -> bool:
    """True when ``address`` answers a plain-HTTP request with an HTTP response.

    A 400 does not count: it is what some HTTPS servers (nginx) answer to plain HTTP.
    """
    request = f"GET / HTTP/1.1\r\nHost: {host}\r\nConnection: close\r\n\r\n".encode("ascii")
    try:
        with socket.create_connection((address[0], address[1]), timeout=timeout) as probe:
            probe.sendall(request)
            head = probe.recv(32)
    except (OSError, UnicodeError):
        return False
    status = head.split(b" ", 2)[1:2]
    return head.startswith(b"HTTP/") and status != [b"400"]


class _Watchdog:
    """After PROBE_AFTER seconds of handshake, probe; on plain HTTP cut the handshake."""

    def __init__(self, sock: socket.socket, host: str) -> None:
        self.address = sock.getpeername()
        self.host = host
        self.plain_http = False
        self._sock = sock.dup()  # stays usable after the TLS wrapper takes over the socket
        self._done = threading.Event()
        self._lock = threading.Lock()
        threading.Thread(target=self._run, name="cq-tls-check", daemon=True).start()

    def _run(self) -> None:
        if self._done.wait(PROBE_AFTER):
            return
        plain = answers_plain_http(self.address, self.host, PROBE_TIMEOUT)
        with self._lock:
            if plain and not self._done.is_set():
                self.plain_http = True
                try:
                    self._sock.shutdown(socket.SHUT_RDWR)  # the handshake fails at once
                except OSError:
                    pass

    def stop(self) -> None:
        with self._lock:
            self._done.set()
            self._sock.close()


def _tls_protocol_error(exc: BaseException) -> bool:
    """A handshake that failed on what the peer sent (not on its certificate)."""
    cause = exc.__cause__ or exc.__context__
    return isinstance(cause, ssl.SSLError) and not isinstance(
        cause, ssl.SSLCertVerificationError
    )


class _CheckingStream(httpcore.NetworkStream):
    def __init__(self, inner: httpcore.NetworkStream, host: str) -> None:
        self._inner = inner
        self._host = host

    def read(self, max_bytes: int, timeout: float | None = None) -> bytes:
        return self._inner.read(max_bytes, timeout)

    def write(self, buffer: bytes, timeout: float | None = None) -> None:
        self._inner.write(buffer, timeout)

    def close(self) -> None:
        self._inner.close()

    def get_extra_info(self, info: str) -> Any:
        return self._inner.get_extra_info(info)

    def start_tls(
        self,
        ssl_context: ssl.SSLContext,
        server_hostname: str | None = None,
        timeout: float | None = None,
    ) -> httpcore.NetworkStream:
        sock = self._inner.get_extra_info("socket")
        if not isinstance(sock, socket.socket) or isinstance(sock, ssl.SSLSocket):
            return self._inner.start_tls(ssl_context, server_hostname, timeout)
        try:
            watchdog = _Watchdog(sock, server_hostname or self._host)
        except (OSError, RuntimeError):  # no peer address, no file descriptor, no thread
            return self._inner.start_tls(ssl_context, server_hostname, timeout)
        try:
            return self._inner.start_tls(ssl_context, server_hostname, timeout)
        except (httpcore.ConnectError, httpcore.ConnectTimeout) as exc:
            watchdog.stop()
            if watchdog.plain_http or (
                _tls_protocol_error(exc)
                and answers_plain_http(watchdog.address, watchdog.host, PROBE_TIMEOUT)
            ):
                raise NotHttps("the server does not speak HTTPS") from exc
            raise
        finally:
            watchdog.stop()


class TlsCheckingBackend(httpcore.NetworkBackend):
    """httpcore's network backend, with the plain-HTTP check on every TLS handshake."""

    def __init__(self, inner: httpcore.NetworkBackend | None = None) -> None:
        self._inner = inner or httpcore.SyncBackend()

    def connect_tcp(
        self,
        host: str,
        port: int,
        timeout: float | None = None,
        local_address: str | None = None,
        socket_options: Iterable[Any] | None = None,
    ) -> httpcore.NetworkStream:
        stream = self._inner.connect_tcp(host, port, timeout, local_address, socket_options)
        return _CheckingStream(stream, host)

    def connect_unix_socket(
        self, path: str, timeout: float | None = None,
        socket_options: Iterable[Any] | None = None,
    ) -> httpcore.NetworkStream:
        return self._inner.connect_unix_socket(path, timeout, socket_options)

    def sleep(self, seconds: float) -> None:
        self._inner.sleep(seconds)


def install(transport: object) -> bool:
    """Put the check into an ``httpx.HTTPTransport``'s connection pool; False if it cannot.

    httpx has no public way to choose the pool's network backend, so this sets the pool's
    attribute when it is there (tests/client/test_cli_connection.py fails when it is not).
    """
    pool = getattr(transport, "_pool", None)
    if isinstance(pool, httpcore.ConnectionPool) and hasattr(pool, "_network_backend"):
        pool._network_backend = TlsCheckingBackend(pool._network_backend)
        return True
    return False
