"""A finished game's replay: the side panel (walls left, turn, last actions) shows the
step being viewed, each step has its own address (?at=N), and the step buttons draw
with any font (icons, not media-control characters that many fonts lack)."""

from __future__ import annotations

import re
from typing import Any

import httpx
import pytest

from tests.api.mode_helpers import Match, play_out, start
from tests.support.server import RunningServer
from tests.web.browser import browser_page, chromium_missing

# characters a button label may use: what every font has (letters, digits, ASCII punctuation)
SAFE = set(" abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789.,:;!?-+<>|/()[]")


@pytest.fixture(scope="module")
def finished(client: httpx.Client, tokens: Any) -> tuple[Match, list[dict[str, Any]]]:
    """A game played out with two walls each, and what the panel should say at each
    step: whose turn and the walls each player had left."""
    match = start(client, tokens(("rpa", "rpb")))
    steps: list[dict[str, Any]] = []

    def remember(m: Match) -> None:
        state = m.mirror
        steps.append({
            "turn": m.names[state.turn.value] if state.turn is not None else None,
            "walls": {m.names[s.value]: n for s, n in state.walls_left.items()},
        })

    remember(match)
    play_out(client, match, walls_each=2, after_each=remember)
    return match, steps


def _panel(page: Any) -> dict[str, Any]:
    rows = page.query_selector_all(".players tbody tr")
    walls = {}
    turn = None
    for row in rows:
        cells = row.query_selector_all("td")
        name = cells[0].inner_text().strip()
        walls[name] = int(cells[1].inner_text())
        if "turn" in (row.get_attribute("class") or "").split():
            turn = name
    return {"turn": turn, "walls": walls, "status": page.inner_text(".status")}


@pytest.mark.skipif(chromium_missing(), reason="needs /usr/bin/chromium")
def test_the_replay_panel_shows_the_step_being_viewed_and_its_address(
    server: RunningServer, finished: tuple[Match, list[dict[str, Any]]]
) -> None:
    match, steps = finished
    total = len(steps) - 1
    middle = 3  # after two walls and a move: walls left differ from the start and the end
    assert steps[middle]["walls"] != steps[total]["walls"]
    with browser_page() as browser:
        page = browser.new_page()
        page.goto(f"{server.base_url}/games/{match.id}")
        page.wait_for_selector("#replay")
        page.keyboard.press("Home")
        for _ in range(middle):
            page.keyboard.press("ArrowRight")
        # what a user sees: the last action listed is the step's own
        page.wait_for_selector(
            f'.actions li:first-child:text-matches("^{middle}\\\\. ")', timeout=3000
        )
        shown = _panel(page)
        assert shown["walls"] == steps[middle]["walls"]
        assert shown["turn"] == steps[middle]["turn"]
        assert f'{steps[middle]["turn"]} to move' in shown["status"]
        assert "won by" not in shown["status"]
        actions = page.query_selector_all(".actions li")
        assert actions and actions[0].inner_text().startswith(f"{middle}. ")  # the last one
        assert len(actions) <= middle
        # the step's own address, which opens at that step
        assert page.url.endswith(f"/games/{match.id}?at={middle}")
        page.reload()
        page.wait_for_selector("#replay")
        assert page.inner_text("#step") == f"{middle} / {total}"
        assert _panel(page)["walls"] == steps[middle]["walls"]
        page.click('button[data-step="last"]')
        page.wait_for_selector(f'#replay[data-shown="{total}"]', timeout=3000)
        assert "won by" in page.inner_text(".status")
        assert page.url.endswith(f"/games/{match.id}")

        # the buttons: icons drawn inline, no character a font may lack
        for button in page.query_selector_all("#replay button"):
            label = button.inner_text().strip()
            assert set(label) <= SAFE, repr(label)
            icon = button.query_selector("svg path")
            assert icon is not None
            box = icon.bounding_box()
            assert box is not None and box["width"] >= 8 and box["height"] >= 8
            assert button.get_attribute("aria-label")
        page.close()


def test_a_replay_address_out_of_range_is_refused_with_its_reason(
    server: RunningServer, finished: tuple[Match, list[dict[str, Any]]]
) -> None:
    match, steps = finished
    total = len(steps) - 1
    for at in ("-1", "x", str(total + 1), "1e3"):
        answer = httpx.get(f"{server.base_url}/games/{match.id}", params={"at": at}, timeout=10)
        assert answer.status_code == 422, at
        assert f"0 to {total}" in answer.text
        back = re.search(r'<a href="([^"]*)" id="back">([^<]*)</a>', answer.text)
        assert back is not None, answer.text  # a way back from the refusal
        assert back.groups() == (f"/games/{match.id}", f"Back to game {match.id}")
        assert httpx.get(server.base_url + back.group(1), timeout=10).status_code == 200
        fragment = httpx.get(
            f"{server.base_url}/web/games/{match.id}/live", params={"at": at}, timeout=10
        )
        assert fragment.status_code == 422, at
    answer = httpx.get(f"{server.base_url}/games/{match.id}", params={"at": "0"}, timeout=10)
    assert answer.status_code == 200
    assert 'data-at="0"' in answer.text and "0 / " in answer.text
