"""Under REQUIRE_HTTPS the web pages' session cookie is `Secure`, also behind a proxy
that PROXIES_COUNT does not count (issue 25, item 21).

The server accepts such a request (its proxy says `X-Forwarded-Proto: https`), but
Sanic's `request.scheme` trusts that header only from a counted proxy: the cookie went
out without `Secure`, and a browser would send it back over plain HTTP.
"""

from __future__ import annotations

from pathlib import Path

import httpx
import pytest

from tests.operations.test_https import serving
from tests.support.users import DEFAULT_PASSWORD, latest_code

pytestmark = pytest.mark.backend_neutral  # the cookie's Secure flag behind a proxy

PROXIED = {"X-Forwarded-Proto": "https"}


def test_the_session_cookie_is_secure_under_require_https(tmp_path: Path) -> None:
    with serving(tmp_path, "http") as api, httpx.Client(
        base_url=api, headers=PROXIED, timeout=10
    ) as client:
        email = "carla@example.test"
        signup = client.post(
            "/users", json={"username": "carla", "email": email, "password": DEFAULT_PASSWORD}
        )
        assert signup.status_code == 201, signup.text
        code = latest_code(tmp_path / "mail", email)
        token = signup.json()["verification_token"]
        verified = client.post("/verifications", json={"verification_token": token, "code": code})
        assert verified.status_code == 200, verified.text

        site = api.removesuffix("/api/v1")
        login = client.post(
            site + "/login",
            data={"username": "carla", "password": DEFAULT_PASSWORD, "next": "/"},
        )
        assert login.status_code == 303, login.text
        cookie = login.headers["set-cookie"]
        attributes = {part.strip().split("=")[0].lower() for part in cookie.split(";")}
        assert cookie.startswith("cq_session=")
        assert {"secure", "httponly", "samesite"} <= attributes, cookie
