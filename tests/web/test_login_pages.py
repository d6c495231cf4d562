"""WEB_WATCH_WITHOUT_LOGIN=false: the pages ask for a login, then watch as that user."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest

from tests.support.games import play, started_game
from tests.support.server import RunningServer, running_server
from tests.support.users import DEFAULT_PASSWORD, insert_user, insert_users, make_user
from tests.web.browser import browser_page, chromium_missing


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[RunningServer]:
    tmp: Path = tmp_path_factory.mktemp("closed")
    with running_server(tmp, WEB_WATCH_WITHOUT_LOGIN="false", STREAM_KEEPALIVE="5") as running:
        yield running


def test_without_a_login_pages_send_to_the_login_and_streams_and_boards_refuse(
    server: RunningServer,
) -> None:
    tokens = {name: insert_user(server.database_url, name) for name in ("cla", "dan")}
    with httpx.Client(base_url=server.api, timeout=10) as client:
        game = started_game(client, tokens)
    for path in ("/", f"/games/{game['id']}", "/tv"):
        answer = httpx.get(server.base_url + path, timeout=10)
        assert answer.status_code == 302, path
        assert answer.headers["location"].startswith("/login?next=")
    for path in (  # the pages' fragments: nothing without a login either
        "/web/lobby", "/web/tv/list", "/web/tv/boards", f"/web/tv/games/{game['id']}",
        f"/web/games/{game['id']}/live", f"/web/games/{game['id']}/live?at=0",
    ):
        answer = httpx.get(server.base_url + path, timeout=10)
        assert answer.status_code == 401, path
        assert str(game["id"]) not in answer.text and "cla" not in answer.text, path
    for path in (f"/games/{game['id']}/events", f"/games/{game['id']}/board.svg"):
        answer = httpx.get(server.api + path, timeout=10)
        assert answer.status_code == 401, path
        assert answer.json()["reason"] == "unauthenticated"
    wrong = httpx.post(
        server.base_url + "/login",
        data={"username": "cla", "password": "not it", "next": "/"},
        timeout=10,
    )
    assert wrong.status_code == 401
    assert "unknown username or wrong password" in wrong.text
    assert "cq_session" not in wrong.headers.get("set-cookie", "")


def test_a_join_link_keeps_its_code_through_the_login(server: RunningServer) -> None:
    """A private game's join link opened without a login comes back with its code."""
    insert_users(server.database_url, ["ida"])
    link = "/games/7?code=k3J9&x=1"
    asked = httpx.get(server.base_url + link, timeout=10)
    assert asked.status_code == 302
    assert asked.headers["location"] == "/login?next=/games/7%3Fcode%3Dk3J9%26x%3D1"
    back = httpx.post(
        server.base_url + "/login",
        data={"username": "ida", "password": DEFAULT_PASSWORD, "next": link},
        timeout=10,
    )
    assert back.status_code == 303
    assert back.headers["location"] == link


@pytest.mark.skipif(chromium_missing(), reason="needs /usr/bin/chromium")
def test_a_login_in_the_browser_then_a_live_game(server: RunningServer) -> None:
    make_user(server.base_url, server.mail_dir, "eli")  # logged in (a terminal session)
    players = {name: insert_user(server.database_url, name) for name in ("fox", "gil")}
    with httpx.Client(base_url=server.api, timeout=10) as client:
        game = started_game(client, players)
        # eli's terminal session stays: the page's login ends it only when asked to
        with browser_page() as browser:
            page = browser.new_page()
            page.goto(f"{server.base_url}/games/{game['id']}")
            assert page.url.startswith(f"{server.base_url}/login")
            page.fill('input[name="username"]', "eli")
            page.fill('input[name="password"]', DEFAULT_PASSWORD)
            page.click('button[type="submit"]')
            page.wait_for_selector(".problem")
            assert "logged in elsewhere" in page.inner_text(".problem")
            page.check('input[name="replace"]')
            page.fill('input[name="password"]', DEFAULT_PASSWORD)
            page.click('button[type="submit"]')
            page.wait_for_selector("#board svg")
            assert page.url == f"{server.base_url}/games/{game['id']}"
            assert "eli" in page.inner_text("header")
            mover = players[game["turn_username"]]
            square = "e2" if game["turn"] == "south" else "e8"
            answer = play(client, mover, game["id"], "move", square)
            assert answer.status_code == 201, answer.text
            page.wait_for_selector(
                f'svg [data-seat="{game["turn"]}"][data-square="{square}"]', timeout=2000
            )
            page.click("header button")  # log out
            page.wait_for_url(f"{server.base_url}/login**")


def test_a_browser_that_logs_in_again_replaces_its_own_session(server: RunningServer) -> None:
    insert_users(server.database_url, ["hal"])
    with httpx.Client(base_url=server.base_url, timeout=10) as browser:
        form = {"username": "hal", "password": DEFAULT_PASSWORD, "next": "/"}
        first = browser.post("/login", data=form)
        assert first.status_code == 303, first.text
        held = browser.cookies.get("cq_session")
        assert held
        again = browser.post("/login", data=form)  # the same browser, its cookie sent
        assert again.status_code == 303, again.text  # not "logged in elsewhere"
        assert browser.cookies.get("cq_session") not in (None, held)
        old = httpx.get(server.api + "/users/me", headers={"Authorization": f"Bearer {held}"})
        assert old.status_code == 401  # the session it replaced is over
    with httpx.Client(base_url=server.base_url, timeout=10) as elsewhere:
        refused = elsewhere.post("/login", data=form)  # another browser: really elsewhere
        assert refused.status_code == 409
        assert "logged in elsewhere" in refused.text
