"""REQUIRE_HTTPS end to end: plain HTTP is refused unless a proxy says https; TLS works."""

from __future__ import annotations

import ssl
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import httpx
import pytest

from tests.support.server import free_port, fresh_database, server_env, start_process, stop
from tests.support.tls import self_signed_certificate
from tests.support.users import DEFAULT_PASSWORD

pytestmark = pytest.mark.backend_neutral  # TLS and the HTTPS check


@contextmanager
def serving(tmp_path: Path, scheme: str, verify: Any = True, **settings: Any) -> Iterator[str]:
    """The real server with REQUIRE_HTTPS; yields its /api/v1 URL once it answers at all
    (tests/support's wait expects a 200 on plain HTTP, which this server refuses)."""
    with fresh_database(tmp_path) as database_url:
        port = free_port()
        env = server_env(tmp_path, database_url, port, REQUIRE_HTTPS=True, **settings)
        process, log_path = start_process(tmp_path, env)
        try:
            api = f"{scheme}://127.0.0.1:{port}/api/v1"
            deadline = time.monotonic() + 20
            while True:
                assert process.poll() is None, log_path.read_text()[-3000:]
                try:
                    httpx.get(api + "/server/info", verify=verify, timeout=1)
                    break
                except httpx.HTTPError:
                    assert time.monotonic() < deadline, log_path.read_text()[-3000:]
                    time.sleep(0.05)
            yield api
        finally:
            stop(process)


@pytest.fixture(scope="module")
def api(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    with serving(tmp_path_factory.mktemp("https"), "http") as url:
        yield url


def refused(answer: httpx.Response) -> bool:
    return answer.status_code == 403 and answer.json()["reason"] == "https_required"


def test_plain_http_is_refused_everywhere(api: str) -> None:
    assert refused(httpx.get(api + "/server/info"))
    assert refused(httpx.get(api + "/users/nobody"))
    assert refused(httpx.post(api + "/sessions", json={"username": "a", "password": "b"}))


@pytest.mark.parametrize(
    "headers",
    [
        {"X-Forwarded-Proto": "https"},
        {"Forwarded": "for=192.0.2.60;proto=https;by=203.0.113.43"},
        {"Forwarded": 'for="[2001:db8::17]:4711";PROTO="HTTPS", for=10.0.0.1;proto=http'},
    ],
)
def test_a_proxy_saying_https_is_accepted(api: str, headers: dict[str, str]) -> None:
    answer = httpx.get(api + "/server/info", headers=headers)
    assert answer.status_code == 200 and "version" in answer.json()


@pytest.mark.parametrize(
    "headers",
    [
        {"X-Forwarded-Proto": "http"},
        {"Forwarded": "for=192.0.2.60;proto=http"},
        {"Forwarded": "proto=http", "X-Forwarded-Proto": "https"},
        {"Forwarded": "proto"},
    ],
)
def test_a_proxy_saying_http_is_refused(api: str, headers: dict[str, str]) -> None:
    assert refused(httpx.get(api + "/server/info", headers=headers))


def test_a_refused_signup_creates_nothing(api: str) -> None:
    body = {"username": "alice", "email": "alice@example.test", "password": DEFAULT_PASSWORD}
    assert refused(httpx.post(api + "/users", json=body))
    via_proxy = {"X-Forwarded-Proto": "https"}
    assert httpx.post(api + "/users", json=body, headers=via_proxy).status_code == 201


def test_direct_tls_is_accepted(tmp_path: Path) -> None:
    cert, key = self_signed_certificate(tmp_path)
    trusted = ssl.create_default_context(cafile=str(cert))
    with serving(tmp_path, "https", verify=trusted, TLS_CERT=cert, TLS_KEY=key) as api:
        answer = httpx.get(api + "/server/info", verify=trusted)
        assert answer.status_code == 200 and "version" in answer.json()
