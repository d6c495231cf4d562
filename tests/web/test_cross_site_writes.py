"""A browser's session cookie makes writes only from this site's pages: with the write
token of `/web/csrf` and not from another site (callers.py). Anything else is 403
`cross_site_write` and changes nothing."""

from __future__ import annotations

from contextlib import closing

import httpx

from tests.support.server import RunningServer
from tests.support.users import DEFAULT_PASSWORD, auth, insert_user, insert_users


def _logged_in_browser(server: RunningServer, name: str) -> httpx.Client:
    insert_users(server.database_url, [name])
    browser = httpx.Client(base_url=server.base_url, timeout=10)
    answer = browser.post("/login", data={"username": name, "password": DEFAULT_PASSWORD})
    assert answer.status_code == 303, answer.text
    return browser


def _games_of(server: RunningServer, token: str) -> int:
    answer = httpx.get(server.api + "/games?user=me", headers=auth(token), timeout=10)
    assert answer.status_code == 200, answer.text
    return len(answer.json()["games"])


def test_a_cookie_alone_or_from_another_site_writes_nothing(server: RunningServer) -> None:
    browser = _logged_in_browser(server, "csrfa")
    with closing(browser):
        token = browser.cookies["cq_session"]
        write_token = browser.get("/web/csrf").json()["csrf_token"]
        assert write_token and write_token != token
        attempts = (
            {},  # what a form of another site would send: the cookie only
            {"X-CSRF-Token": "0" * 64},  # a guessed token
            {"X-CSRF-Token": write_token, "Sec-Fetch-Site": "cross-site"},
            {"X-CSRF-Token": write_token, "Sec-Fetch-Site": "same-site"},
        )
        for headers in attempts:
            answer = browser.post("/api/v1/games", json={"size": 5}, headers=headers)
            assert answer.status_code == 403, (headers, answer.text)
            assert answer.json()["reason"] == "cross_site_write"
        assert _games_of(server, token) == 0  # nothing was created
        made = browser.post(
            "/api/v1/games", json={"size": 5},
            headers={"X-CSRF-Token": write_token, "Sec-Fetch-Site": "same-origin"},
        )
        assert made.status_code == 201, made.text
        assert _games_of(server, token) == 1


def test_the_write_token_belongs_to_its_session(server: RunningServer) -> None:
    one, two = _logged_in_browser(server, "csrfb"), _logged_in_browser(server, "csrfc")
    with closing(one), closing(two):
        foreign = two.get("/web/csrf").json()["csrf_token"]
        answer = one.post("/api/v1/games", json={"size": 5}, headers={"X-CSRF-Token": foreign})
        assert answer.status_code == 403
        assert answer.json()["reason"] == "cross_site_write"


def test_no_write_token_without_a_login_and_the_header_token_needs_none(
    server: RunningServer,
) -> None:
    answer = httpx.get(server.base_url + "/web/csrf", timeout=10)
    assert answer.status_code == 401
    token = insert_user(server.database_url, "csrfd")  # a terminal client: no cookie
    made = httpx.post(server.api + "/games", json={"size": 5}, headers=auth(token), timeout=10)
    assert made.status_code == 201, made.text
