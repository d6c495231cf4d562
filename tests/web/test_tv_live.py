"""/tv follows the games live: each caption ("alice to move") within 2 s of a move, a
game started after the page opened within 2 s, a game that ended leaves; no reload."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import httpx
import pytest

from tests.api.mode_helpers import Match, act, best_step, start
from tests.support.server import RunningServer
from tests.support.users import auth
from tests.web.browser import Browser, browser_page, chromium_missing

pytestmark = pytest.mark.skipif(chromium_missing(), reason="needs /usr/bin/chromium")


@pytest.fixture(scope="module")
def browser() -> Iterator[Browser]:
    with browser_page() as found:
        yield found


def _to_move(match: Match) -> str:
    assert match.mirror.turn is not None
    return match.names[match.mirror.turn.value]


def _step(client: httpx.Client, match: Match) -> None:
    step = best_step(match.mirror)
    act(client, match, "jump" if step.jump else "move", str(step.to))


def _caption(match: Match) -> str:
    return f'figure[data-game="{match.id}"] figcaption strong:text-is("{_to_move(match)}")'


def test_the_tv_follows_captions_and_new_games_live(
    server: RunningServer, client: httpx.Client, browser: Browser, tokens: Any
) -> None:
    first = start(client, tokens(("tva", "tvb")))
    page = browser.new_page()
    page.goto(f"{server.base_url}/tv")
    page.wait_for_selector(_caption(first))
    page.evaluate("window.notReloaded = true")
    for _ in range(2):  # the caption names who is to move, move after move
        _step(client, first)
        page.wait_for_selector(_caption(first), timeout=2000)

    second = start(client, tokens(("tvc", "tvd")))  # after the page opened
    page.wait_for_selector(f'figure[data-game="{second.id}"]', timeout=2000)
    page.wait_for_selector(_caption(second), timeout=1000)
    _step(client, second)
    page.wait_for_selector(_caption(second), timeout=2000)  # its caption follows too
    _step(client, first)
    page.wait_for_selector(_caption(first), timeout=2000)

    # a game that ends (here: cancelled by its creator) leaves the screen
    creator = {name: token for seat, token in first.by_seat.items() for name in [first.names[seat]]}
    answer = client.delete(f"/games/{first.id}", headers=auth(creator["tva"]))
    assert answer.status_code == 200, answer.text
    page.wait_for_selector(f'figure[data-game="{first.id}"]', state="detached", timeout=2000)
    assert page.evaluate("window.notReloaded") is True
    page.close()
