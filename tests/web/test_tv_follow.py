"""/tv follows every change without a reload (issue 30, item 4): captions within 2 s
of a move even when the screen's event stream is refused (the server holds its most
streams: the page's look for games that started or ended brings the changed ones too);
a game that ends shows its result for a while (`?linger=`) before it leaves; the pages
turn without a reload. The real server, chromium, games played through the API."""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any

import httpx
import pytest

from tests.api.mode_helpers import Match, play_out, start
from tests.support.server import running_server
from tests.support.sse import EventReader
from tests.support.users import insert_user
from tests.web.browser import browser_page, chromium_missing
from tests.web.screenshots import moves

pytestmark = pytest.mark.skipif(chromium_missing(), reason="needs /usr/bin/chromium")


def _turn(match: Match) -> str:
    return f'figure[data-game="{match.id}"] li.tv-turn[data-seat="{match.game["turn"]}"]'


def _shown(page: Any) -> set[str]:
    return {f.get_attribute("data-game") or "" for f in page.query_selector_all("figure.tv-board")}


def test_the_captions_follow_within_two_seconds_when_the_stream_is_refused(
    tmp_path: Path,
) -> None:
    with running_server(
        tmp_path, STREAMS_MAX="1", STREAMS_PER_ADDRESS="50", STREAM_KEEPALIVE="1"
    ) as server, httpx.Client(base_url=server.api, timeout=10) as client:
        tokens = {name: insert_user(server.database_url, name) for name in ("fa", "fb", "fc")}
        match = start(client, {name: tokens[name] for name in ("fa", "fb")})
        holder = EventReader(f"{server.api}/games/{match.id}/events", None).start()
        assert holder.status == 200  # the server's one stream is taken
        try:
            with browser_page() as browser:
                page = browser.new_page(viewport={"width": 1920, "height": 1080})
                refused: list[int] = []
                page.on("response", lambda r: refused.append(r.status)
                        if "/events" in r.url else None)
                page.goto(f"{server.base_url}/tv")
                page.wait_for_selector(_turn(match))
                page.evaluate("window.notReloaded = true")
                deadline = time.monotonic() + 5
                while 503 not in refused and time.monotonic() < deadline:
                    page.wait_for_timeout(100)
                assert 503 in refused  # the screen's stream was refused
                for _ in range(3):
                    moves(client, match, 1)
                    page.wait_for_selector(_turn(match), timeout=2000)
                assert page.evaluate("window.notReloaded") is True
        finally:
            holder.close()


def test_a_finished_game_shows_its_result_then_leaves_and_pages_turn_in_place(
    tmp_path: Path,
) -> None:
    with running_server(tmp_path, STREAM_KEEPALIVE="1") as server, httpx.Client(
        base_url=server.api, timeout=10
    ) as client:
        names = [f"lg{i}" for i in range(16)]
        tokens = {name: insert_user(server.database_url, name) for name in names}
        pairs = [{a: tokens[a], b: tokens[b]} for a, b in zip(names[::2], names[1::2], strict=True)]
        ending, staying = start(client, pairs[0], size=5), start(client, pairs[1], size=5)
        with browser_page() as browser:
            page = browser.new_page(viewport={"width": 1920, "height": 1080})
            page.goto(f"{server.base_url}/tv?linger=4")
            page.wait_for_selector(_turn(ending))
            page.evaluate("window.notReloaded = true")
            page.wait_for_timeout(500)  # the page's stream is open
            play_out(client, ending, walls_each=0)
            ended = f'figure[data-game="{ending.id}"]'
            winner = ending.game["winner"]
            page.wait_for_selector(f'{ended} .tv-state strong:text-is("{winner}")', timeout=2000)
            page.wait_for_selector(f"{ended} li.tv-won", timeout=1000)
            shown = time.monotonic()
            late = start(client, pairs[2], size=5)  # waits for the result to have been seen
            page.wait_for_timeout(2000)
            assert page.query_selector(ended) is not None  # the result stays a while
            page.wait_for_selector(ended, state="detached", timeout=5000)
            assert time.monotonic() - shown >= 2.5
            page.wait_for_selector(f'figure[data-game="{late.id}"]', timeout=2000)
            assert page.query_selector(f'figure[data-game="{staying.id}"]') is not None
            assert page.evaluate("window.notReloaded") is True

            for pair in pairs[3:8]:  # 7 games: two pages, turning every 3 s
                start(client, pair, size=5)
            page.goto(f"{server.base_url}/tv?cycle=3")
            page.wait_for_selector("figure.tv-board")
            first = _shown(page)
            assert len(first) == 6
            page.evaluate("window.notReloaded = true")
            page.wait_for_url(lambda url: "page=2" in url, timeout=6000)
            second = _shown(page)
            assert len(second) == 1 and not first & second
            page.wait_for_url(lambda url: "page=1" in url, timeout=6000)
            assert page.evaluate("window.notReloaded") is True
