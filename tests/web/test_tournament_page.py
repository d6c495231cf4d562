"""The tournament pages (issue 30): `/tournaments` lists them, `/tournaments/{id}` shows
the standings, the rounds with a link to each game's live board, the entrants, and
follows the tournament without a reload; chromium renders it under the pages' policy."""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any

import httpx
import pytest

from tests.support.server import RunningServer
from tests.support.users import auth
from tests.web.browser import browser_page, chromium_missing

RECORD = """
window.cspViolations = [];
document.addEventListener("securitypolicyviolation", (event) => {
  window.cspViolations.push(event.violatedDirective + " " + event.blockedURI);
});
"""


def post(client: httpx.Client, token: str, path: str, **body: Any) -> dict[str, Any]:
    response = client.post(path, json=body, headers=auth(token))
    assert response.status_code in (200, 201), response.text
    return response.json()


@pytest.fixture(scope="module")
def running(
    client: httpx.Client, tokens: Callable[[tuple[str, ...]], dict[str, str]]
) -> dict[str, Any]:
    """A started round robin of three people (nobody moves), and one not started."""
    names = tokens(("tpa", "tpb", "tpc"))
    made = post(client, names["tpa"], "/tournaments", name="Friday <b>night</b>",
                kind="round_robin", size=5)
    for name in names:
        post(client, names[name], f"/tournaments/{made['id']}/join")
    view = post(client, names["tpa"], f"/tournaments/{made['id']}/start")
    waiting = post(client, names["tpb"], "/tournaments", name="Later", kind="swiss", rounds=2)
    return {"id": made["id"], "view": view, "tokens": names, "waiting": waiting["id"]}


def test_the_page_shows_standings_rounds_and_links_escaped(
    server: RunningServer, running: dict[str, Any]
) -> None:
    page = httpx.get(f"{server.base_url}/tournaments/{running['id']}", timeout=10)
    assert page.status_code == 200, page.text
    text = page.text
    assert "Friday &lt;b&gt;night&lt;/b&gt;" in text and "<b>night" not in text
    assert "Round robin · 5x5, 2 players" in text and "round 1 of 3" in text
    game = running["view"]["pairings"][0]["games"][0]
    assert f'<a href="/games/{game["game_id"]}">game {game["game_id"]}</a>' in text
    assert "<h2>Standings</h2>" in text
    assert f'<a href="/tv?tournament={running["id"]}" class="on-tv">' in text  # for the host
    assert f"bye: {running['view']['pairings'][0]['byes'][0]}" in text
    listed = httpx.get(f"{server.base_url}/tournaments", timeout=10).text
    assert f'<a href="/tournaments/{running["id"]}">Friday &lt;b&gt;night' in listed
    assert f'<a href="/tournaments/{running["waiting"]}">Later</a>' in listed
    waiting = httpx.get(f"{server.base_url}/tournaments/{running['waiting']}", timeout=10).text
    assert "/tv?tournament=" not in waiting  # nothing to show before it starts
    missing = httpx.get(f"{server.base_url}/tournaments/987654", timeout=10)
    assert missing.status_code == 404 and "No such tournament." in missing.text


@pytest.mark.skipif(chromium_missing(), reason="needs /usr/bin/chromium")
def test_chromium_renders_the_page_and_follows_a_withdrawal(
    server: RunningServer, client: httpx.Client, running: dict[str, Any]
) -> None:
    tid = running["id"]
    table = running["view"]["pairings"][0]["games"][0]
    quitter, other = table["players"]
    with browser_page() as browser:
        page = browser.new_page()
        console: list[str] = []
        page.on("console", lambda message: console.append(message.text))
        page.add_init_script(RECORD)
        page.goto(f"{server.base_url}/")
        page.click('header a[href="/tournaments"]')  # every page's header leads there
        page.wait_for_url(f"{server.base_url}/tournaments")
        page.click(f'a[href="/tournaments/{tid}"]')
        page.wait_for_url(f"{server.base_url}/tournaments/{tid}")
        assert page.inner_text("h1") == "Friday <b>night</b>"
        rows = page.locator("table.standings tr[data-player]")
        assert rows.count() == 3
        result = page.inner_text('section[data-round="1"] li[data-board="1"]')
        assert f"{quitter} – {other}: game {table['game_id']}, started, {quitter} to move" \
            == result
        # a withdrawal elsewhere: the page follows without a reload
        post(client, running["tokens"][quitter], f"/tournaments/{tid}/leave")
        page.locator('section[data-round="1"] li[data-board="1"]', has_text="forfeited") \
            .wait_for(timeout=12000)
        result = page.inner_text('section[data-round="1"] li[data-board="1"]')
        assert f"{other} won ({quitter} forfeited)" in result
        assert page.inner_text(f'tr[data-player="{quitter}"] td.points') == "0"
        assert page.inner_text(f'tr[data-player="{other}"] td.points') != "0"
        assert "(withdrawn)" in page.inner_text(f'tr[data-player="{quitter}"]')
        page.click(f'a[href="/games/{table["game_id"]}"]')
        page.wait_for_url(f"{server.base_url}/games/{table['game_id']}")
        time.sleep(0.3)  # pacing: violations that must not come
        found = page.evaluate("window.cspViolations")
        blocked = [t for t in console if "Content Security Policy" in t]
        assert not found and not blocked, (found, blocked)
