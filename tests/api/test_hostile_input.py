"""Malformed requests get a 4xx with a reason, never a 500, and leave nothing in the log
at ERROR level: raw bytes in headers, absurd nesting, directory and NUL paths under the
API documentation's assets, a wrong method, a body shorter than its Content-Length.

Requests are written byte by byte on a socket: httpx refuses to send most of them.
"""

from __future__ import annotations

import json
import re
import socket
from collections.abc import Iterator
from typing import Any

import pytest

from corridorquest.api.validation import MAX_DEPTH
from tests.support.server import RunningServer, running_server
from tests.support.users import make_user

pytestmark = pytest.mark.backend_neutral  # HTTP parsing of malformed requests


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[RunningServer]:
    # A trusted proxy, so X-Forwarded-For is read; a short response timeout, so a body
    # that never arrives is answered within the test.
    with running_server(
        tmp_path_factory.mktemp("hostile"), PROXIES_COUNT=1, SANIC_RESPONSE_TIMEOUT=2
    ) as running:
        yield running


@pytest.fixture(scope="module")
def token(server: RunningServer) -> str:
    return make_user(server.base_url, server.mail_dir, "alice")


def exchange(server: RunningServer, request: bytes) -> bytes:
    """Send one raw HTTP/1.1 request (the connection closes after it); the raw answer."""
    host, port = server.base_url.removeprefix("http://").split(":")
    with socket.create_connection((host, int(port)), timeout=10) as sock:
        sock.sendall(request)
        data = b""
        while chunk := sock.recv(65536):
            data += chunk
            head, separator, body = data.partition(b"\r\n\r\n")
            length = re.search(rb"(?im)^content-length:\s*(\d+)", head)
            if separator and length and len(body) >= int(length.group(1)):
                break  # the whole answer (a server may keep the socket open after it)
    return data


Answer = tuple[int, dict[str, str], dict[str, Any]]


def send(server: RunningServer, head: bytes, body: bytes | None = None) -> Answer:
    """`head` (request line and headers, each ending in CRLF) and `body` (with its
    Content-Length); the status, headers (lower-case names) and JSON body of the answer."""
    if body is not None:
        head += b"Content-Length: %d\r\n" % len(body)
    data = exchange(server, head + b"Connection: close\r\n\r\n" + (body or b""))
    header_block, _, payload = data.partition(b"\r\n\r\n")
    lines = header_block.decode("latin-1").split("\r\n")
    headers = {k.strip().lower(): v.strip() for k, v in (line.split(":", 1) for line in lines[1:])}
    return int(lines[0].split()[1]), headers, json.loads(payload) if payload else {}


def assert_refused(answer: Answer, status: int, reason: str) -> None:
    code, _, body = answer
    assert (code, body.get("reason")) == (status, reason), answer


def test_json_nested_a_thousand_deep_is_a_400(server: RunningServer) -> None:
    body = ('{"username":' + "[" * 1000 + "]" * 1000 + "}").encode()
    answer = send(server, b"POST /api/v1/sessions HTTP/1.1\r\nHost: x\r\n", body)
    assert_refused(answer, 400, "bad_request")
    assert "nested" in answer[2]["message"]


def test_the_nesting_limit_is_exact_and_a_nul_is_refused_wherever_it_hides(
    server: RunningServer,
) -> None:
    head = b"POST /api/v1/sessions HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"

    def nested(levels: int) -> bytes:  # the object itself is the first level
        inner = "[" * (levels - 1) + "]" * (levels - 1)
        return ('{"username": "alice", "x":' + inner + "}").encode()

    too_deep = send(server, head, nested(MAX_DEPTH + 1))
    assert_refused(too_deep, 400, "bad_request")
    assert "nested" in too_deep[2]["message"]
    at_limit = send(server, head, nested(MAX_DEPTH))  # refused, but not for its depth
    assert at_limit[0] in (400, 401, 422) and "nested" not in at_limit[2]["message"]
    for body in (
        b'{"username": "ali\\u0000ce", "password": "x"}',  # the escape in a value
        b'{"username": "alice", "password": "x", "\\u0000": 1}',  # in a key
        b'{"username": "alice", "password": ["x", {"y": "\\u0000"}]}',  # deep down
    ):
        answer = send(server, head, body)
        assert_refused(answer, 400, "bad_request")
        assert "NUL" in answer[2]["message"], body


def test_a_bearer_token_of_raw_bytes_is_a_401(server: RunningServer) -> None:
    answer = send(
        server, b"GET /api/v1/users/me HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer \xff\xfe\r\n"
    )
    assert_refused(answer, 401, "unauthenticated")


def test_an_idempotency_key_of_raw_bytes_is_refused(server: RunningServer, token: str) -> None:
    head = (
        b"POST /api/v1/games HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
        b"Authorization: Bearer " + token.encode() + b"\r\nIdempotency-Key: \xff\r\n"
    )
    assert_refused(send(server, head, b"{}"), 422, "invalid_idempotency_key")


def test_a_forwarded_address_of_raw_bytes_is_ignored(server: RunningServer) -> None:
    body = b'{"username": "alice", "password": "not her password"}'
    head = b"POST /api/v1/sessions HTTP/1.1\r\nHost: x\r\nX-Forwarded-For: \xff\xfe\r\n"
    assert_refused(send(server, head, body), 401, "invalid_credentials")


@pytest.mark.parametrize(
    "path", [b"/api-docs/static/", b"/api-docs/static/%00", b"/api-docs/static/../app.py"]
)
def test_odd_paths_under_the_documentation_assets_are_404(
    server: RunningServer, path: bytes
) -> None:
    assert_refused(send(server, b"GET " + path + b" HTTP/1.1\r\nHost: x\r\n"), 404, "not_found")


def test_the_documentation_assets_are_still_served(server: RunningServer) -> None:
    data = exchange(
        server,
        b"GET /api-docs/static/swagger-ui.css HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n",
    )
    assert data.startswith(b"HTTP/1.1 200"), data[:200]
    assert b"content-type: text/css" in data.lower()


def test_a_wrong_method_is_a_405_with_allow(server: RunningServer) -> None:
    status, headers, body = send(server, b"DELETE /api/v1/server/info HTTP/1.1\r\nHost: x\r\n")
    assert (status, body["reason"]) == (405, "method_not_allowed")
    assert "GET" in headers["allow"].split(", ")


def test_a_body_shorter_than_its_content_length_is_a_408(server: RunningServer) -> None:
    # 100 bytes announced, none sent: answered once the response timeout (2 s) passes.
    head = b"POST /api/v1/sessions HTTP/1.1\r\nHost: x\r\nContent-Length: 100\r\n"
    assert_refused(send(server, head), 408, "request_timeout")


def test_none_of_it_logged_an_error(server: RunningServer) -> None:
    status, _, _ = send(
        server, b"GET /api/v1/server/info HTTP/1.1\r\nHost: x\r\nContent-Length: 0\r\n"
    )
    assert status == 200
    errors = [line for line in server.log_text().splitlines() if " ERROR " in line]
    assert errors == []
