"""The game page of invisible-walls and masked-walls games in a real browser: each seat's
page (its board's walls and markers, and the `game` events its stream brought) shows
exactly what the API shows that seat, a spectator's shows none of the hidden walls; and
what the page plays beside the board: a refused bump into an unseen wall said in words,
markers, wall offers and a trade, messages and DMs."""

from __future__ import annotations

import time
from collections.abc import Iterator
from typing import Any

import httpx
import pytest

from tests.support.server import RunningServer
from tests.support.users import auth, insert_users
from tests.web.browser import Browser, browser_page, chromium_missing
from tests.web.test_play_page import click_wall, logged_in, started, status, wait_turn

pytestmark = pytest.mark.skipif(chromium_missing(), reason="needs /usr/bin/chromium")

# Every `game` and `message` event of the page's stream, kept in window.cqSeen (the page's
# EventSource, wrapped before its scripts run).
RECORD = """(() => {
  const Real = window.EventSource;
  window.cqSeen = { game: [], message: [] };
  function Recorded(url, options) {
    const stream = new Real(url, options);
    for (const name of ["game", "message"]) {
      stream.addEventListener(name, (event) => window.cqSeen[name].push(JSON.parse(event.data)));
    }
    return stream;
  }
  Recorded.prototype = Real.prototype;
  Recorded.CONNECTING = 0; Recorded.OPEN = 1; Recorded.CLOSED = 2;
  window.EventSource = Recorded;
})();"""


@pytest.fixture(scope="module")
def browser() -> Iterator[Browser]:
    with browser_page() as found:
        yield found


def api_view(server: RunningServer, token: str | None, game_id: int) -> dict[str, Any]:
    with httpx.Client(base_url=server.api, timeout=10) as api:
        answer = api.get(f"/games/{game_id}", headers=auth(token) if token else {})
    assert answer.status_code == 200, answer.text
    return dict(answer.json())


def drawn(page: Any) -> tuple[set[tuple[str, str | None]], set[tuple[str, str]]]:
    """The walls (notation, owner) and markers (notation, owner) on the page's board."""
    walls = page.eval_on_selector_all(
        "#board [data-wall]", "els => els.map(e => [e.dataset.wall, e.dataset.owner || null])")
    markers = page.eval_on_selector_all(
        "#board [data-marker]", "els => els.map(e => [e.dataset.marker, e.dataset.owner])")
    return {tuple(w) for w in walls}, {tuple(m) for m in markers}  # type: ignore[misc]


def seen(view: dict[str, Any]) -> tuple[set[tuple[str, str | None]], set[tuple[str, str]]]:
    return ({(w["wall"], w["owner"]) for w in view["walls"] or []},
            {(m["marker"], m["owner"]) for m in view["markers"] or []})


def walls_left_cell(seat: str) -> str:
    """The panel's cell with the walls `seat` has left."""
    return f"#board ~ .panel tr.seat-{seat} td:nth-child(3)"


def same_as_api(server: RunningServer, page: Any, token: str | None, game_id: int) -> None:
    """The page's board and its stream's last game show what the API shows this viewer."""
    view = api_view(server, token, game_id)
    deadline = time.monotonic() + 5
    while True:
        streamed = page.evaluate("window.cqSeen.game.length && window.cqSeen.game.at(-1)")
        in_sync = streamed and streamed["revision"] == view["revision"] and (
            page.get_attribute("#board", "data-revision") == str(view["revision"]))
        if in_sync and drawn(page) == seen(view) and seen(streamed) == seen(view):
            break
        assert time.monotonic() < deadline, (drawn(page), seen(view), streamed and seen(streamed))
        time.sleep(0.05)
    seats = {s["seat"]: s["walls_left"] for s in view["seats"]}
    for seat, left in seats.items():  # masked: "?" for every seat
        cell = page.inner_text(walls_left_cell(seat))
        assert cell == ("?" if left is None else str(left)), (seat, cell, left)


def test_an_invisible_game_plays_in_the_browser_and_shows_each_seat_its_own(
    server: RunningServer, browser: Browser
) -> None:
    insert_users(server.database_url, ["inva", "invb", "invc"])
    contexts, tokens = {}, {}
    for name in ("inva", "invb"):  # the players
        contexts[name], tokens[name] = logged_in(browser, server, name)
        contexts[name].add_init_script(RECORD)
    game = started(server, {n: tokens[n] for n in ("inva", "invb")}, size=9, invisible=True)
    gid = game["id"]
    seats = {s["seat"]: s["username"] for s in game["seats"]}
    first = game["turn"]
    second = "south" if first == "north" else "north"
    a_name, b_name = seats[first], seats[second]
    pages = {}
    for name in (a_name, b_name):
        pages[name] = contexts[name].new_page()
        pages[name].goto(f"{server.base_url}/games/{gid}")
    spectator_context, tokens["invc"] = logged_in(browser, server, "invc")  # not a player
    spectator_context.add_init_script(RECORD)
    spectator = spectator_context.new_page()
    spectator.goto(f"{server.base_url}/games/{gid}")
    a, b = pages[a_name], pages[b_name]

    # a wall right in front of the second player's pawn, which it cannot see
    b_start, b_ahead = ("e9", "e8") if second == "north" else ("e1", "e2")
    wall = "e8h" if second == "north" else "e1h"
    wait_turn(a)
    click_wall(a, wall)
    a.wait_for_selector(f'#board [data-wall="{wall}"][data-owner="{first}"]', timeout=5000)
    for page, token in ((a, tokens[a_name]), (b, tokens[b_name]), (spectator, tokens["invc"])):
        same_as_api(server, page, token, gid)
    assert drawn(b) == (set(), set()) and drawn(spectator) == (set(), set())
    # the second player's page offers the square behind it (what the seat may know)...
    wait_turn(b)
    b.click(f'#board [data-to="{b_ahead}"].legal')
    b.wait_for_selector("#play-status.refused", timeout=5000)
    assert f"wall between {b_start} and {b_ahead}" in status(b), status(b)
    assert drawn(b) == (set(), set())  # ...the refusal says it, the board still does not
    side = "d9" if second == "north" else "d1"
    b.fill("#notation", side.upper())  # typed in the notation, this time
    b.press("#notation", "Enter")
    b.wait_for_selector(f'#board [data-seat="{second}"][data-square="{side}"]', timeout=5000)

    # a marker where the second player thinks the wall is, then another one removed again
    b.check("#marking")
    b.locator(f'#board [data-edge="{wall[:2]}h"]').click()
    b.wait_for_selector(f'#board [data-marker="{wall[:2]}h"][data-owner="{second}"]',
                        timeout=5000)
    b.locator('#board [data-edge="a5v"]').click()
    b.wait_for_selector('#board [data-marker="a5v"]', timeout=5000)
    b.locator('#board [data-edge="a5v"]').click()
    b.wait_for_selector('#board [data-marker="a5v"]', state="detached", timeout=5000)
    b.uncheck("#marking")
    for page, token in ((a, tokens[a_name]), (b, tokens[b_name]), (spectator, tokens["invc"])):
        same_as_api(server, page, token, gid)
    assert drawn(a)[1] == set()  # the first player sees none of the other's markers

    # wall trading: an offer to everybody, taken from the other's panel
    a.click('#offer-form button[data-offer="selling"]')
    b.wait_for_selector(f'.offer-list button[data-trade="buying"][data-partner="{a_name}"]',
                        timeout=5000)
    b.click(f'.offer-list button[data-trade="buying"][data-partner="{a_name}"]')
    # (the panel's count is what the trade changes; the status line's "...: done." is
    # checked in flows.play_5x5_to_the_end)
    b.wait_for_function("(cell) => document.querySelector(cell)?.textContent.trim() === '11'",
                        arg=walls_left_cell(second), timeout=10000)
    view = api_view(server, tokens[b_name], gid)
    walls_left = {s["username"]: s["walls_left"] for s in view["seats"]}
    assert walls_left == {a_name: 8, b_name: 11}, walls_left
    # a private offer to the other, declined there (it stays open on the server)
    b.select_option("#offer-partner", a_name)
    b.click('#offer-form button[data-offer="buying"]')
    offer = a.locator(f'.offer-list li:has(button[data-partner="{b_name}"])')
    offer.wait_for(timeout=5000)
    assert "to you only" in offer.inner_text()
    offer.locator("button[data-decline]").click()
    assert offer.is_hidden()
    assert spectator.locator(".offer-list").count() == 0

    # messages: one to everybody, one private (a DM): the spectator reads only the first
    a.fill("#message-text", "good luck")
    a.press("#message-text", "Enter")
    b.select_option("#message-to", a_name)
    b.fill("#message-text", "nice wall")
    b.click("#message-form button")
    a.wait_for_selector(f'.messages li.dm:has-text("nice wall"):has-text("with {b_name}")',
                        timeout=5000)
    b.wait_for_selector('.messages li:has-text("good luck")', timeout=5000)
    spectator.wait_for_selector('.messages li:has-text("good luck")', timeout=5000)
    assert "nice wall" not in spectator.inner_text(".messages")
    assert not any("nice wall" in str(m) for m in spectator.evaluate("window.cqSeen.message"))
    # an empty message: the server's refusal in words
    a.fill("#message-text", "   ")
    a.click("#message-form button")
    a.wait_for_selector("#play-status.refused", timeout=5000)
    assert status(a).strip()
    for page, token in ((a, tokens[a_name]), (b, tokens[b_name]), (spectator, tokens["invc"])):
        same_as_api(server, page, token, gid)
    for context in (*contexts.values(), spectator_context):
        context.close()


def test_a_masked_game_page_shows_each_seat_what_the_api_shows(
    server: RunningServer, browser: Browser
) -> None:
    insert_users(server.database_url, ["maska", "maskb"])
    contexts, tokens = {}, {}
    for name in ("maska", "maskb"):
        contexts[name], tokens[name] = logged_in(browser, server, name)
        contexts[name].add_init_script(RECORD)
    game = started(server, tokens, size=5, masked=True)
    gid = game["id"]
    mover = game["turn_username"]
    pages = {name: contexts[name].new_page() for name in tokens}
    for page in pages.values():
        page.goto(f"{server.base_url}/games/{gid}")
    wait_turn(pages[mover])
    click_wall(pages[mover], "b2h")
    for name, page in pages.items():
        page.wait_for_selector('#board [data-wall="b2h"]', timeout=5000)
        assert page.locator("#board [data-owner]").count() == 0  # not even one's own
        same_as_api(server, page, tokens[name], gid)
    for context in contexts.values():
        context.close()
