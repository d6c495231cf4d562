"""Playing on the game page in a real browser (chromium through playwright), against the
real server on loopback. The whole flow of a new player: two people sign up in two
browsers, verify with the code mailed to the test's SMTP server, one creates a 5x5 game
from the lobby and waits on its page, the other joins it with the lobby's Join button,
and they play it to its end with clicks only (a wall, a refused wall and its message, a
jump) while a third browser watches it live. A phone plays a 9x9 move and a wall by
touch; a 17x17 board fits a laptop's screen."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import httpx
import pytest

from tests.support.server import RunningServer
from tests.support.smtp_inbox import Inbox
from tests.support.users import DEFAULT_PASSWORD, auth, insert_users
from tests.web.browser import Browser, browser_page, chromium_missing
from tests.web.flows import (
    api_status,
    click_wall,
    create_from_lobby,
    join_from_lobby,
    mailed_server,
    play_5x5_to_the_end,
    sign_up_and_verify,
    square,
    status,
    steady_box,
    wait_turn,
)

pytestmark = pytest.mark.skipif(chromium_missing(), reason="needs /usr/bin/chromium")


@pytest.fixture(scope="module")
def mailed(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[RunningServer, Inbox]]:
    with mailed_server(tmp_path_factory.mktemp("play"), STREAM_KEEPALIVE="5") as running:
        yield running


@pytest.fixture(scope="module")
def server(mailed: tuple[RunningServer, Inbox]) -> RunningServer:
    """This module's one server (it mails its codes to the test's SMTP server)."""
    return mailed[0]


@pytest.fixture(scope="module")
def browser() -> Iterator[Browser]:
    with browser_page() as found:
        yield found


def logged_in(
    browser: Browser, server: RunningServer, name: str, **options: Any
) -> tuple[Any, str]:
    """A browser context logged in as `name` through /login, and its session token."""
    context = browser.new_context(**options)
    answer = context.request.post(server.base_url + "/login", form={
        "username": name, "password": DEFAULT_PASSWORD}, max_redirects=0)
    assert answer.status == 303, answer.text()
    token = next(c["value"] for c in context.cookies() if c["name"] == "cq_session")
    return context, token


def started(server: RunningServer, tokens: dict[str, str], **options: Any) -> dict[str, Any]:
    names = list(tokens)
    with httpx.Client(base_url=server.api, timeout=10) as api:
        made = api.post("/games", json={"players": 2, **options}, headers=auth(tokens[names[0]]))
        assert made.status_code == 201, made.text
        game = made.json()
        joined = api.post(f"/games/{game['id']}/players",
                          json={"invitation_code": game["invitation_code"]},
                          headers=auth(tokens[names[1]]))
        assert joined.status_code == 201, joined.text
        return dict(joined.json())


def api_game(page: Any, game_id: int) -> dict[str, Any]:
    """The game as the page's user reads it from the API (with the cookie)."""
    return dict(page.evaluate(f"cqApi('GET', '/games/{game_id}').then((a) => a.body)"))


def test_two_browsers_sign_up_create_and_join_from_the_lobby_and_play_5x5_to_the_end(
    mailed: tuple[RunningServer, Inbox], browser: Browser
) -> None:
    server, inbox = mailed
    base = server.base_url
    contexts = {"ann": browser.new_context(viewport={"width": 1000, "height": 900}),
                "bea": browser.new_context(viewport={"width": 390, "height": 844})}
    problems: list[str] = []  # the pages' script errors and CSP refusals
    mine = {}
    for name, context in contexts.items():
        mine[name] = page = context.new_page()
        page.on("console", lambda m: problems.append(m.text) if m.type == "error" else None)
        page.on("pageerror", lambda error: problems.append(str(error)))
        sign_up_and_verify(page, base, inbox, name)  # each in the lobby, logged in
    # ann creates a 5x5 game from the lobby's form and waits on its page
    game_id = create_from_lobby(mine["ann"], 5)
    waiting = mine["ann"]
    assert api_status(waiting, game_id) == "waiting"
    waiting.wait_for_selector("#board")
    assert waiting.locator("#play").count() == 0
    waiting.evaluate("window.notReloaded = true")
    # bea joins it with its Join button in her lobby: its page, the game started
    join_from_lobby(mine["bea"], base, game_id)
    assert api_status(mine["bea"], game_id) == "started"
    waiting.wait_for_selector("#play", timeout=5000)  # the waiting page plays now
    assert waiting.evaluate("window.notReloaded") is True  # live, no reload
    # ann's lobby in another tab: the game among hers, whose turn it is; its link leads there
    tab = contexts["ann"].new_page()
    tab.goto(f"{base}/")
    listed = tab.inner_text(f'#lobby li:has(a[href="/games/{game_id}"])')
    assert "your turn" in listed or "bea to move" in listed, listed
    tab.fill('#join-code input[name="game"]', f"{base}/games/{game_id}")  # a link
    tab.click('#join-code button[type="submit"]')
    tab.wait_for_url(f"{base}/games/{game_id}")  # already in it: to its page
    tab.close()

    game = api_game(waiting, game_id)
    assert game["status"] == "started"
    seats = {s["seat"]: s["username"] for s in game["seats"]}
    assert sorted(seats.values()) == ["ann", "bea"]
    pages = {seat: mine[name] for seat, name in seats.items()}
    watcher = browser.new_page()  # nobody logged in: a spectator (WEB_WATCH_WITHOUT_LOGIN)
    watcher.goto(f"{base}/games/{game_id}")
    assert watcher.locator("#play").count() == 0
    assert watcher.locator("#board .hit").count() == 0  # a watcher's board has no targets
    for page in (*pages.values(), watcher):
        page.wait_for_selector("#board svg")

    play_5x5_to_the_end(pages, watcher, game["turn"])
    winner = seats[game["turn"]]
    for page in (*pages.values(), watcher):  # the finished page: the replay, the winner
        page.wait_for_selector("#replay", timeout=10000)
        assert f"won by {winner}" in page.inner_text(".status")
        assert page.locator("#play").count() == 0
    final = api_game(waiting, game_id)
    assert final["status"] == "finished" and final["winner"] == winner
    # (a browser notes each 4xx answer, the refused wall's 422 among them: not a problem)
    assert [p for p in problems if not p.startswith("Failed to load resource")] == [], problems
    for context in contexts.values():
        context.close()
    watcher.close()


def test_a_phone_plays_a_move_and_a_wall_by_touch(server: RunningServer, browser: Browser) -> None:
    insert_users(server.database_url, ["phonea", "phoneb"])
    phone, mine = logged_in(browser, server, "phonea", viewport={"width": 390, "height": 844},
                            has_touch=True, is_mobile=True, device_scale_factor=2)
    other, theirs = logged_in(browser, server, "phoneb")
    game = started(server, {"phonea": mine, "phoneb": theirs}, size=9)
    my_seat = next(s["seat"] for s in game["seats"] if s["username"] == "phonea")
    with httpx.Client(base_url=server.api, timeout=10) as api:
        if game["turn"] != my_seat:  # the other plays first, from its terminal
            step = "e8" if game["turn"] == "north" else "e2"
            moved = api.post(f"/games/{game['id']}/actions", json={"type": "move", "to": step},
                             headers=auth(theirs))
            assert moved.status_code == 201, moved.text
    page = phone.new_page()
    page.goto(f"{server.base_url}/games/{game['id']}")
    wait_turn(page)
    board = steady_box(page, "#board svg")
    assert board["width"] >= 370  # the board fills the width
    legal = steady_box(page, "#board .hit-square.legal")
    assert legal["width"] >= 28  # a thumb's target
    start = "e9" if my_seat == "north" else "e1"
    to = square(start, my_seat, 1)
    page.tap(f'#board [data-to="{to}"].legal')
    page.wait_for_selector(f'#board [data-seat="{my_seat}"][data-square="{to}"]', timeout=5000)
    # the other moves (its terminal); then a wall by two taps: the first previews it
    with httpx.Client(base_url=server.api, timeout=10) as api:
        their_seat = "south" if my_seat == "north" else "north"
        step = "e2" if their_seat == "south" else "e8"
        if game["turn"] != my_seat:
            step = "e3" if their_seat == "south" else "e7"
        moved = api.post(f"/games/{game['id']}/actions", json={"type": "move", "to": step},
                         headers=auth(theirs))
        assert moved.status_code == 201, moved.text
    wait_turn(page)
    click_wall(page, "d5h", tap=True)
    page.wait_for_selector('#board .preview[data-preview="d5h"]', timeout=3000)
    assert page.locator("#board [data-wall]").count() == 0  # a preview, not yet placed
    assert "tap it again" in status(page)
    click_wall(page, "d5h", tap=True)
    page.wait_for_selector('#board [data-wall="d5h"]', timeout=5000)
    with httpx.Client(base_url=server.api, timeout=10) as api:
        walls = api.get(f"/games/{game['id']}", headers=auth(theirs)).json()["walls"]
    assert [w["wall"] for w in walls] == ["d5h"]
    phone.close()
    other.close()


def test_a_17x17_board_fits_a_laptop_screen(server: RunningServer, browser: Browser) -> None:
    insert_users(server.database_url, ["biga", "bigb"])
    laptop, mine = logged_in(browser, server, "biga", viewport={"width": 1366, "height": 768})
    other, theirs = logged_in(browser, server, "bigb")
    game = started(server, {"biga": mine, "bigb": theirs}, size=17)
    page = laptop.new_page()
    page.goto(f"{server.base_url}/games/{game['id']}")
    page.wait_for_selector("#board svg .hit-square")
    page.wait_for_function(  # the page's script has marked the board: it is laid out
        "() => !document.querySelector('#play-status').textContent.startsWith('You play')")
    board = steady_box(page, "#board svg")
    square = steady_box(page, '#board [data-to="a1"]')
    assert board["y"] + board["height"] <= 768, board  # the whole board, under the title
    assert square["width"] >= 24, square  # squares large enough for a mouse
    laptop.close()
    other.close()
