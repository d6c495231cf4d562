"""A request line (or header) with a control character is answered 400 and logs at most
one line (issue 25, item 20).

Before, a tab, NUL, DEL or another control character in the URL got no answer at all
and wrote four tracebacks (about 3 KB) to the server log per 60-byte request. Raw
sockets against the real server: each request below must get `HTTP/1.1 400` with the
JSON reason `bad_request`, and the log may grow by one line per request at most.
"""

from __future__ import annotations

import json
import socket
import time
from urllib.parse import urlsplit

import httpx
import pytest

from tests.support.server import RunningServer

pytestmark = pytest.mark.backend_neutral  # HTTP parsing of request lines

INFO = b"/api/v1/server/info"

BAD_REQUESTS = {
    "SOH in the path": b"GET " + INFO + b"\x01 HTTP/1.1\r\nHost: x\r\n\r\n",
    "tab in the path": b"GET /api/v1/ser\tver/info HTTP/1.1\r\nHost: x\r\n\r\n",
    "NUL in the path": b"GET /\x00 HTTP/1.1\r\nHost: x\r\n\r\n",
    "DEL in the path": b"GET /\x7f HTTP/1.1\r\nHost: x\r\n\r\n",
    "ESC in the query": b"GET " + INFO + b"?a=\x1b[31m HTTP/1.1\r\nHost: x\r\n\r\n",
    "CR in the path": b"GET /a\rb HTTP/1.1\r\nHost: x\r\n\r\n",
    "byte above 127": b"GET /\xff HTTP/1.1\r\nHost: x\r\n\r\n",
    "control in the method": b"G\x01T " + INFO + b" HTTP/1.1\r\nHost: x\r\n\r\n",
    "two spaces": b"GET  " + INFO + b" HTTP/1.1\r\nHost: x\r\n\r\n",
    "no version": b"GET " + INFO + b"\r\nHost: x\r\n\r\n",
    "bad version": b"GET " + INFO + b" HTTP/9\x01\r\nHost: x\r\n\r\n",
    "header without colon": b"GET " + INFO + b" HTTP/1.1\r\nHost x\r\n\r\n",
}


def _port(server: RunningServer) -> int:
    return int(urlsplit(server.base_url).port or 0)


def _send(port: int, raw: bytes) -> bytes:
    """The whole answer to `raw` (the server closes the connection after a 400)."""
    with socket.create_connection(("127.0.0.1", port), timeout=5) as sock:
        sock.sendall(raw)
        answer = b""
        try:
            while chunk := sock.recv(4096):
                answer += chunk
        except TimeoutError:
            pass
        return answer


def _log_lines(server: RunningServer) -> int:
    return len(server.log_text().splitlines())


@pytest.mark.parametrize("raw", list(BAD_REQUESTS.values()), ids=list(BAD_REQUESTS))
def test_a_bad_request_line_is_answered_400_and_logs_at_most_a_line(
    server: RunningServer, raw: bytes
) -> None:
    before = _log_lines(server)
    answer = _send(_port(server), raw)
    head, _, body = answer.partition(b"\r\n\r\n")
    assert head.startswith(b"HTTP/1.1 400 "), answer[:300]
    assert json.loads(body)["reason"] == "bad_request"
    time.sleep(0.2)  # pacing: anything the server would log about it is written by now
    assert _log_lines(server) - before <= 1, server.log_text()[-3000:]


def test_many_bad_requests_leave_the_log_small_and_the_server_answering(
    server: RunningServer,
) -> None:
    before = _log_lines(server)
    port = _port(server)
    for _ in range(20):
        for raw in BAD_REQUESTS.values():
            assert _send(port, raw).startswith(b"HTTP/1.1 400 ")
    time.sleep(0.2)  # pacing: no log lines must come
    assert _log_lines(server) - before <= 20 * len(BAD_REQUESTS)
    assert "Traceback" not in server.log_text()
    assert httpx.get(server.api + "/server/info", timeout=5).status_code == 200
