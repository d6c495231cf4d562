"""The analysis graph under a finished game's board (issue 31 item 3): drawn by the server
once the analysis is stored, one point per ply, mistakes as red rings, each point a link
to its step of the replay; no script (CSP)."""

from __future__ import annotations

import re
import time
from typing import Any

import httpx
import pytest

from tests.api.mode_helpers import start
from tests.api.test_analysis import play_missing_a_win, wait_done
from tests.support.server import RunningServer
from tests.support.users import auth
from tests.web.browser import browser_page, chromium_missing


@pytest.fixture(scope="module")
def analysed(
    server: RunningServer, client: httpx.Client, tokens: Any
) -> tuple[int, str, int, dict[str, Any]]:
    names = tokens(("agann", "agbob"))
    match = start(client, names, size=5)
    missed = play_missing_a_win(client, match)
    token = names["agann"]
    page = httpx.get(f"{server.base_url}/games/{match.id}", headers=auth(token), timeout=10)
    assert page.status_code == 200
    assert 'class="analysis-graph"' not in page.text and "cq game analyse -g" in page.text
    asked = client.post(f"/games/{match.id}/analysis", headers=auth(token))
    assert asked.status_code in (200, 202)
    return match.id, token, missed, wait_done(client, token, match.id)


def test_the_graph_is_under_the_board_with_one_point_per_ply(
    server: RunningServer, analysed: tuple[int, str, int, dict[str, Any]]
) -> None:
    game_id, token, missed, analysis = analysed
    page = httpx.get(f"{server.base_url}/games/{game_id}", headers=auth(token), timeout=10)
    assert page.status_code == 200
    html = page.text
    assert html.index('id="live"') < html.index('class="analysis-graph"')
    points = re.findall(r'<a href="/games/(\d+)\?at=(\d+)"><circle [^>]*class="point( mistake)?"',
                        html)
    # a point opens the step where its ply is played (the position before it)
    assert [int(at) for _, at, _ in points] == list(range(len(analysis["plies"])))
    marked = [int(at) + 1 for _, at, mistake in points if mistake]
    assert missed in marked
    assert marked == [row["ply"] for row in analysis["plies"] if row["mistake"]]
    assert "<script>" not in html[html.index('class="analysis'):]


@pytest.mark.skipif(chromium_missing(), reason="needs /usr/bin/chromium")
def test_clicking_a_mistake_opens_its_step_of_the_replay(
    server: RunningServer, analysed: tuple[int, str, int, dict[str, Any]]
) -> None:
    game_id, token, missed, _ = analysed
    with browser_page() as browser:
        context = browser.new_context(extra_http_headers=auth(token))
        page = context.new_page()
        page.goto(f"{server.base_url}/games/{game_id}")
        ring = page.wait_for_selector(f'svg.analysis-graph circle.mistake[data-ply="{missed}"]')
        assert ring is not None and ring.is_visible()
        ring.click()
        deadline = time.monotonic() + 5
        while not page.url.endswith(f"?at={missed - 1}") and time.monotonic() < deadline:
            time.sleep(0.05)
        assert page.url.endswith(f"/games/{game_id}?at={missed - 1}")
        page.wait_for_selector("#replay")
        assert page.inner_text("#step").startswith(f"{missed - 1} /")
        assert "Best here:" in page.inner_text("body")  # the move the mistake missed
        context.close()
