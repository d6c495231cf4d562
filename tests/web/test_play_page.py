"""Playing on the game page in a real browser (chromium through playwright), against the
real server on loopback: two players logged in through /login play a 5x5 game to its
end with clicks only (a wall, a refused wall and its message, a jump) while a third
browser watches it live; a phone plays a 9x9 move and a wall by touch."""

from __future__ import annotations

import time
from collections.abc import Iterator
from typing import Any

import httpx
import pytest

from tests.support.server import RunningServer
from tests.support.users import DEFAULT_PASSWORD, auth, insert_users
from tests.web.browser import Browser, browser_page, chromium_missing

pytestmark = pytest.mark.skipif(chromium_missing(), reason="needs /usr/bin/chromium")

FORWARD = {"north": -1, "south": 1}


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


def square(at: str, seat: str, rows: int) -> str:
    return f"{at[0]}{int(at[1:]) + FORWARD[seat] * rows}"


def click_wall(page: Any, slot: str, tap: bool = False) -> None:
    """Point at the edge of a wall's place away from the crossing (the middle of its
    bounding box is the crossing of the grooves, which two places share)."""
    target = page.locator(f'#board [data-slot="{slot}"]')
    box = target.bounding_box()
    assert box is not None
    spot = ({"x": box["width"] * 0.2, "y": box["height"] / 2} if slot.endswith("h")
            else {"x": box["width"] / 2, "y": box["height"] * 0.2})
    (target.tap if tap else target.click)(position=spot)


def wait_turn(page: Any) -> None:
    page.wait_for_selector("#board svg.my-turn .hit-square.legal", timeout=5000)


def status(page: Any) -> str:
    return str(page.inner_text("#play-status"))


def test_two_players_play_a_5x5_game_to_the_end_with_clicks_and_a_third_watches(
    server: RunningServer, browser: Browser
) -> None:
    insert_users(server.database_url, ["plana", "planb"])
    contexts, tokens = {}, {}
    for name in ("plana", "planb"):
        contexts[name], tokens[name] = logged_in(browser, server, name)
    with httpx.Client(base_url=server.api, timeout=10) as api:
        made = api.post("/games", json={"players": 2, "size": 5}, headers=auth(tokens["plana"]))
        assert made.status_code == 201, made.text
        waiting = contexts["plana"].new_page()  # its creator waits on the game's page
        waiting.goto(f"{server.base_url}/games/{made.json()['id']}")
        waiting.wait_for_selector("#board")
        assert waiting.locator("#play").count() == 0
        waiting.evaluate("window.notReloaded = true")
        time.sleep(0.5)  # its stream is open
        joined = api.post(f"/games/{made.json()['id']}/players", json={},
                          headers=auth(tokens["planb"]))
        assert joined.status_code == 201, joined.text
        game = joined.json()
    seats = {s["seat"]: s["username"] for s in game["seats"]}
    first, second = game["turn"], "south" if game["turn"] == "north" else "north"
    pages = {}
    for seat, name in seats.items():
        if name == "plana":  # the game started: the waiting page plays now
            waiting.wait_for_selector("#play", timeout=5000)
            assert waiting.evaluate("window.notReloaded") is True  # live, no reload
            pages[seat] = waiting
            continue
        pages[seat] = contexts[name].new_page()
        pages[seat].goto(f"{server.base_url}/games/{game['id']}")
    problems: list[str] = []  # the pages' script errors and CSP refusals
    for page in pages.values():
        page.on("console", lambda m: problems.append(m.text) if m.type == "error" else None)
        page.on("pageerror", lambda error: problems.append(str(error)))
    watcher = browser.new_page()  # nobody logged in: a spectator (WEB_WATCH_WITHOUT_LOGIN)
    watcher.goto(f"{server.base_url}/games/{game['id']}")
    assert watcher.locator("#play").count() == 0
    assert watcher.locator("#board .hit").count() == 0  # a watcher's board has no targets
    for page in (*pages.values(), watcher):
        page.wait_for_selector("#board svg")
    time.sleep(0.5)  # the streams are open
    at = {"north": "c5", "south": "c1"}

    def moved(seat: str, to: str) -> None:
        at[seat] = to
        for page in (*pages.values(), watcher):
            page.wait_for_selector(f'#board [data-seat="{seat}"][data-square="{to}"]',
                                   timeout=5000)

    # the first player places a wall: the preview under the pointer, then the click
    a, b = pages[first], pages[second]
    wait_turn(a)
    assert b.locator("#board svg.my-turn").count() == 0  # not the other's turn
    click_wall(a, "a2h")
    for page in (*pages.values(), watcher):
        page.wait_for_selector('#board [data-wall="a2h"]', timeout=5000)
    # the second one points at the same place: refused (red), and the server says why
    wait_turn(b)
    b.locator('#board [data-slot="a2h"]').hover(position={"x": 5, "y": 10})
    assert b.locator('#board .preview.refused[data-preview="a2h"]').count() == 1
    click_wall(b, "a2h")
    b.wait_for_selector("#play-status.refused", timeout=5000)
    assert "overlaps" in status(b), status(b)
    assert b.locator('#board [data-wall]').count() == 1  # nothing placed
    # then the pawns walk towards each other until one jumps the other
    b.click(f'#board [data-to="{square(at[second], second, 1)}"].legal')
    moved(second, square(at[second], second, 1))
    wait_turn(a)
    a.click(f'#board [data-to="{square(at[first], first, 1)}"].legal')
    moved(first, square(at[first], first, 1))
    wait_turn(b)
    b.click(f'#board [data-to="{square(at[second], second, 1)}"].legal')
    moved(second, square(at[second], second, 1))
    wait_turn(a)
    jump = a.locator(f'#board [data-to="{square(at[first], first, 2)}"].legal')
    assert jump.get_attribute("data-kind") == "jump"
    jump.click()
    moved(first, square(at[first], first, 2))
    wait_turn(b)
    b.click(f'#board [data-to="{square(at[second], second, 1)}"].legal')
    moved(second, square(at[second], second, 1))
    wait_turn(a)
    a.click(f'#board [data-to="{square(at[first], first, 1)}"].legal')  # its goal row
    winner = seats[first]
    for page in (*pages.values(), watcher):  # the finished page: the replay, the winner
        page.wait_for_selector("#replay", timeout=10000)
        assert f"won by {winner}" in page.inner_text(".status")
        assert page.locator("#play").count() == 0
    with httpx.Client(base_url=server.api, timeout=10) as api:
        final = api.get(f"/games/{game['id']}", headers=auth(tokens["plana"])).json()
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
    board = page.locator("#board svg").bounding_box()
    assert board is not None and board["width"] >= 370  # the board fills the width
    legal = page.locator("#board .hit-square.legal").first.bounding_box()
    assert legal is not None and legal["width"] >= 28  # a thumb's target
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
    board = page.locator("#board svg").bounding_box()
    square = page.locator('#board [data-to="a1"]').bounding_box()
    assert board is not None and square is not None
    assert board["y"] + board["height"] <= 768, board  # the whole board, under the title
    assert square["width"] >= 24, square  # squares large enough for a mouse
    laptop.close()
    other.close()
