"""A page shows what happened between its rendering and the opening of its live stream:
a game page resumes its stream from the position it was rendered at (`?since=R.M`), so a
move (and a message) made in that moment appears without a reload; /tv compares each
board's revision with the first events of its stream; the lobby's refresh brings it.

Deterministic, no timing luck: the test holds the page's stream request (playwright's
routing), makes the move while it is held, then lets the request go to the server."""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any
from urllib.parse import parse_qs, urlsplit

import httpx

from tests.api.mode_helpers import Match, act, best_step, start
from tests.support.server import RunningServer
from tests.support.users import auth
from tests.web.browser import Browser

Tokens = Callable[[tuple[str, ...]], dict[str, str]]


def _step(client: httpx.Client, match: Match) -> str:
    """The player to move steps; the selector of its pawn on the square it reached."""
    seat = match.mirror.turn
    assert seat is not None
    step = best_step(match.mirror)
    act(client, match, "jump" if step.jump else "move", str(step.to))
    return f'#board svg [data-seat="{seat.value}"][data-square="{step.to}"]'


class Held:
    """Runs `before()` once, when the page's first request matching the route is held,
    then lets every request go; keeps the URLs."""

    def __init__(self, before: Callable[[], None]) -> None:
        self.before: Callable[[], None] | None = before
        self.urls: list[str] = []

    def __call__(self, route: Any) -> None:
        self.urls.append(route.request.url)
        if self.before is not None:
            before, self.before = self.before, None
            before()
        route.continue_()


def test_a_move_and_a_message_made_before_the_stream_opens_appear_on_the_game_page(
    server: RunningServer, client: httpx.Client, browser: Browser, tokens: Tokens
) -> None:
    match = start(client, tokens(("rsa", "rsb")))
    speaker = next(iter(match.by_seat.values()))
    made: dict[str, str] = {}

    def between() -> None:  # the page is rendered; its stream is not open yet
        made["pawn"] = _step(client, match)
        sent = client.post(f"/games/{match.id}/messages", json={"text": "in between"},
                           headers=auth(speaker))
        assert sent.status_code == 201, sent.text

    held = Held(between)
    page = browser.new_page()
    page.route(f"**/api/v1/games/{match.id}/events*", held)
    rendered = match.game["revision"]
    page.goto(f"{server.base_url}/games/{match.id}")
    page.wait_for_selector("#board svg")
    page.evaluate("window.notReloaded = true")
    deadline = time.monotonic() + 15  # a loaded machine (two CI passes at once)
    while "pawn" not in made:
        assert time.monotonic() < deadline, "the page opened no stream"
        page.wait_for_timeout(50)
    page.wait_for_selector(made["pawn"], timeout=15_000)  # the move, without a reload
    page.wait_for_selector('.messages li:has-text("in between")', timeout=15_000)
    assert page.evaluate("window.notReloaded") is True
    since = parse_qs(urlsplit(held.urls[0]).query)["since"][0]
    assert since.split(".")[0] == str(rendered)  # the position the page was rendered at
    # and it goes on following the game
    pawn = _step(client, match)
    page.wait_for_selector(pawn, timeout=15_000)
    page.close()


def test_a_game_page_at_rest_asks_for_nothing_when_its_stream_opens(
    server: RunningServer, client: httpx.Client, browser: Browser, tokens: Tokens
) -> None:
    """The stream's first event at the position the page was rendered at brings nothing
    new: the page does not fetch its board again (a page shown to many watchers)."""
    match = start(client, tokens(("rra", "rrb")))
    held = Held(lambda: None)
    fragments: list[str] = []
    page = browser.new_page()
    page.on("request", lambda r: fragments.append(r.url) if "/live" in r.url else None)
    page.route(f"**/api/v1/games/{match.id}/events*", held)
    page.goto(f"{server.base_url}/games/{match.id}")
    page.wait_for_selector("#board svg")
    deadline = time.monotonic() + 15  # a loaded machine (two CI passes at once)
    while not held.urls:
        assert time.monotonic() < deadline, "the page opened no stream"
        page.wait_for_timeout(50)
    page.wait_for_timeout(1500)  # its first event came and went (a fixed wait: nothing happens)
    assert fragments == []
    pawn = _step(client, match)
    page.wait_for_selector(pawn, timeout=15_000)  # a move: the board anew
    assert fragments
    page.close()


def test_a_move_made_before_the_tv_stream_opens_appears_on_the_tv(
    server: RunningServer, client: httpx.Client, browser: Browser, tokens: Tokens
) -> None:
    match = start(client, tokens(("rtva", "rtvb")))
    held = Held(lambda: _step(client, match))
    page = browser.new_page(viewport={"width": 1920, "height": 1080})
    page.route("**/api/v1/games/events?*", held)
    page.route("**/web/tv/list*", lambda route: route.abort())  # the stream alone, no polling
    page.goto(f"{server.base_url}/tv")
    before = f'figure[data-game="{match.id}"] li.tv-turn[data-seat="{match.game["turn"]}"]'
    # (the figure only: its stream may already be held, the move made and shown)
    page.wait_for_selector(f'figure[data-game="{match.id}"]', state="attached")
    deadline = time.monotonic() + 15  # a loaded machine (two CI passes at once)
    while not held.urls:
        assert time.monotonic() < deadline, "the screen opened no stream"
        page.wait_for_timeout(50)
    after = f'figure[data-game="{match.id}"] li.tv-turn[data-seat="{match.game["turn"]}"]'
    assert after != before
    page.wait_for_selector(after, timeout=15_000)
    page.close()


def test_a_move_made_before_the_lobby_refreshes_appears_in_the_lobby(
    server: RunningServer, client: httpx.Client, browser: Browser, tokens: Tokens
) -> None:
    match = start(client, tokens(("rloa", "rlob")))
    mover = match.names[match.game["turn"]]
    held = Held(lambda: _step(client, match))
    page = browser.new_page()
    page.route("**/web/lobby", held)
    page.goto(f"{server.base_url}/")
    entry = f'#lobby li:has(a[href="/games/{match.id}"])'
    page.wait_for_selector(f'{entry} strong:text-is("{mover}")')
    page.evaluate("window.notReloaded = true")
    deadline = time.monotonic() + 10  # the lobby refreshes every 5 s
    while not held.urls:
        assert time.monotonic() < deadline, "the lobby did not refresh"
        page.wait_for_timeout(50)
    other = match.names[match.game["turn"]]
    assert other != mover
    page.wait_for_selector(f'{entry} strong:text-is("{other}")', timeout=15_000)
    assert page.evaluate("window.notReloaded") is True
    page.close()
