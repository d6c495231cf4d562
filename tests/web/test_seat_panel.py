"""The seat panel of a waiting game's page (issue 29 item 4, issue 30's acceptance) in
chromium: the link a game's QR code encodes, opened by a visitor with GUESTS=on, seats a
guest in one step (the page then shows it as a player, marked as a guest); opened by a
visitor who logs in (the link comes back to the game), one tap seats the user. With
GUESTS=off a visitor is offered only the log-in and sign-up links, and a guest cannot be
made at all."""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any
from urllib.parse import quote

import httpx
import pytest

from tests.support.games import new_game
from tests.support.qr import decode, svg_matrix
from tests.support.server import RunningServer, running_server
from tests.support.users import DEFAULT_PASSWORD, auth, insert_user, insert_users
from tests.web.browser import browser_page, chromium_missing

pytestmark = pytest.mark.skipif(chromium_missing(), reason="needs /usr/bin/chromium")

QR = re.compile(r'<svg xmlns="http://www.w3.org/2000/svg" viewBox="[^"]+" class="qr">.*?</svg>',
                re.S)
PHONE = {"width": 390, "height": 844}


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[RunningServer]:
    with running_server(tmp_path_factory.mktemp("seats"), GUESTS="on") as running:
        yield running


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    with browser_page() as launched:
        yield launched


def qr_link(server: RunningServer, game_id: int, token: str) -> str:
    """The link the game's QR code encodes, as its creator's page shows it."""
    page = httpx.get(f"{server.base_url}/games/{game_id}", headers=auth(token), timeout=10)
    assert page.status_code == 200
    found = [text for svg in QR.findall(page.text) for text in decode(svg_matrix(svg))]
    assert len(found) == 1, found
    return found[0]


def csp_watch(tab: Any) -> list[str]:
    refused: list[str] = []
    tab.on("console", lambda m: refused.append(m.text) if "Content Security" in m.text else None)
    return refused


def table_names(tab: Any) -> str:
    return str(tab.inner_text("table.players"))


def test_a_guest_joins_from_the_qr_link_in_one_step(
    server: RunningServer, client: httpx.Client, browser: Any
) -> None:
    host = insert_user(server.database_url, "hostess")
    game = new_game(client, host, size=9, players=4, private=True)
    link = qr_link(server, game["id"], host)
    assert link.endswith(f"/games/{game['id']}?code={game['invitation_code']}")
    context = browser.new_context(viewport=PHONE)
    tab = context.new_page()
    refused = csp_watch(tab)
    tab.goto(link)
    assert tab.locator("#take-seat").count() == 0
    login = tab.get_attribute("#seat a[href^='/login']", "href")
    back = f"/games/{game['id']}?code={game['invitation_code']}"
    assert login == "/login?next=" + quote(back, safe="")
    tab.fill("#guest-name", "hostess")  # taken: said in words, nothing made
    tab.click("#guest-form button")
    tab.wait_for_selector("#seat-problem:has-text('taken')", timeout=5000)
    tab.fill("#guest-name", "Zoe")
    tab.click("#guest-form button")
    tab.wait_for_selector("#seat", state="detached", timeout=5000)
    assert "Zoe (guest)" in table_names(tab)
    assert "Zoe" in tab.inner_text("header")
    cookie = next(c for c in context.cookies() if c["name"] == "cq_session")
    assert cookie["httpOnly"] and cookie["sameSite"] == "Strict"
    shown = client.get(f"/games/{game['id']}", headers=auth(host)).json()
    assert shown["waiting_players"] == ["hostess", "Zoe"] and shown["guests"] == ["Zoe"]
    assert refused == []
    context.close()


def test_a_visitor_who_logs_in_from_the_qr_link_is_seated_with_one_tap(
    server: RunningServer, client: httpx.Client, browser: Any
) -> None:
    host = insert_user(server.database_url, "hostel")
    insert_users(server.database_url, ["tapper"])
    game = new_game(client, host, size=5, private=True)
    link = qr_link(server, game["id"], host)
    context = browser.new_context(viewport=PHONE)
    tab = context.new_page()
    refused = csp_watch(tab)
    tab.goto(link)
    tab.click("#seat a[href^='/login']")
    tab.fill('input[name="username"]', "tapper")
    tab.fill('input[name="password"]', DEFAULT_PASSWORD)
    tab.click('button[type="submit"]')
    tab.wait_for_selector("#take-seat")
    assert tab.url == link  # came back to the game, with its code
    tab.click("#take-seat")  # one tap
    tab.wait_for_selector(".status:has-text('to move')", timeout=5000)
    assert tab.locator("#seat").count() == 0
    assert "tapper" in table_names(tab) and "(guest)" not in table_names(tab)
    shown = client.get(f"/games/{game['id']}", headers=auth(host)).json()
    assert shown["status"] == "started"
    assert {s["username"] for s in shown["seats"]} == {"hostel", "tapper"}
    assert refused == []
    context.close()


def test_with_guests_off_a_visitor_is_only_led_to_log_in_or_sign_up(
    tmp_path: Path, browser: Any
) -> None:
    with (
        running_server(tmp_path) as off,
        httpx.Client(base_url=off.api, timeout=10) as api,
    ):
        host = insert_user(off.database_url, "offhost")
        game = new_game(api, host, size=5)
        tab = browser.new_page(viewport=PHONE)
        tab.goto(f"{off.base_url}/games/{game['id']}")
        tab.wait_for_selector("#seat")
        assert tab.locator("#guest-form").count() == 0
        assert tab.locator("#take-seat").count() == 0
        links = tab.locator("#seat a").evaluate_all("(xs) => xs.map((x) => x.textContent)")
        assert links == ["log in", "sign up"]
        # the page's own request, made by hand: refused, nothing created
        answer = tab.evaluate(
            """(id) => fetch('/web/games/' + id + '/guest', {method: 'POST',
                 headers: {'Content-Type': 'application/json'},
                 body: JSON.stringify({username: 'sneaky'})})
               .then((r) => r.json().then((b) => [r.status, b.reason]))""",
            game["id"],
        )
        assert answer == [403, "guests_off"]
        assert api.get("/users/sneaky").status_code == 404
        assert api.get(f"/games/{game['id']}", headers=auth(host)).json()[
            "waiting_players"] == ["offhost"]
        tab.close()
