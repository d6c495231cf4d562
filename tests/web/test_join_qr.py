"""Join by QR on the web pages (issue 30, item 2): a waiting game's page and /tv show its
join link as a QR code (inline SVG) that a QR decoder reads back as the link, PUBLIC_URL's
when set; a private game's link carries its code and is shown to its players only, never
to a spectator, another user or the projector; the code opens the page for whoever
scanned it. In chromium the code shows under the pages' CSP and goes once the game starts.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Any

import httpx
import pytest

from tests.support.games import join, new_game
from tests.support.qr import decode, svg_matrix
from tests.support.server import RunningServer, running_server
from tests.support.users import auth
from tests.web.browser import browser_page, chromium_missing

PUBLIC_URL = "http://party.example:3000"
QR = re.compile(r'<svg xmlns="http://www.w3.org/2000/svg" viewBox="[^"]+" class="qr">.*?</svg>',
                re.S)


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[RunningServer]:
    with running_server(tmp_path_factory.mktemp("qr"), PUBLIC_URL=PUBLIC_URL) as running:
        yield running


@pytest.fixture(scope="module")
def users(tokens: Any) -> dict[str, str]:
    return dict(tokens(("hana", "ivan", "jude")))


def page(server: RunningServer, path: str, token: str | None = None) -> httpx.Response:
    headers = auth(token) if token else {}
    return httpx.get(server.base_url + path, headers=headers, timeout=10)


def codes_read(html: str) -> list[str]:
    """What a QR decoder reads in each QR code of the page."""
    return [text for svg in QR.findall(html) for text in decode(svg_matrix(svg))]


def test_a_public_waiting_games_page_shows_its_join_link_as_a_qr_code(
    server: RunningServer, client: httpx.Client, users: dict[str, str]
) -> None:
    game = new_game(client, users["hana"], size=5)
    link = f"{PUBLIC_URL}/games/{game['id']}"
    for token in (None, users["ivan"]):  # a spectator, another user: anybody may join
        answer = page(server, f"/games/{game['id']}", token)
        assert answer.status_code == 200
        assert codes_read(answer.text) == [link]
        assert f'href="{link}"' in answer.text
    fragment = page(server, f"/web/games/{game['id']}/live")
    assert codes_read(fragment.text) == [link]  # the page's live part keeps it
    assert join(client, users["ivan"], game["id"]).status_code == 201
    started = page(server, f"/games/{game['id']}")
    assert started.status_code == 200 and QR.search(started.text) is None


def test_a_private_games_qr_code_carries_its_code_and_only_its_players_see_it(
    server: RunningServer, client: httpx.Client, users: dict[str, str]
) -> None:
    game = new_game(client, users["hana"], size=5, private=True)
    code = game["invitation_code"]
    assert code
    link = f"{PUBLIC_URL}/games/{game['id']}?code={code}"
    mine = page(server, f"/games/{game['id']}", users["hana"])
    assert mine.status_code == 200
    assert codes_read(mine.text) == [link]
    assert codes_read(page(server, f"/web/games/{game['id']}/live", users["hana"]).text) == [link]
    for token in (None, users["ivan"]):  # a spectator, another user
        for path in (f"/games/{game['id']}", f"/web/games/{game['id']}/live"):
            answer = page(server, path, token)
            assert answer.status_code == 404, path
            assert code not in answer.text and QR.search(answer.text) is None
        wrong = page(server, f"/games/{game['id']}?code=not-the-code", token)
        assert wrong.status_code == 404 and code not in wrong.text
    # the link opens the page for whoever scanned it (to take the seat), without a QR code
    scanned = page(server, f"/games/{game['id']}?code={code}", users["ivan"])
    assert scanned.status_code == 200 and QR.search(scanned.text) is None
    live = page(server, f"/web/games/{game['id']}/live?code={code}", users["ivan"])
    assert live.status_code == 200 and QR.search(live.text) is None


def test_the_tv_shows_the_qr_codes_of_waiting_public_games_never_a_private_one(
    server: RunningServer, client: httpx.Client, users: dict[str, str]
) -> None:
    public = new_game(client, users["jude"], size=7)
    private = new_game(client, users["jude"], size=7, private=True)
    for token in (None, users["jude"]):  # the projector, or a player of the private game
        answer = page(server, "/tv", token)
        assert answer.status_code == 200
        read = codes_read(answer.text)
        assert f"{PUBLIC_URL}/games/{public['id']}" in read
        assert not any(f"/games/{private['id']}" in text for text in read)
        assert private["invitation_code"] not in answer.text
    listed = httpx.get(server.base_url + "/web/tv/list", timeout=10).json()
    assert public["id"] in listed["joinable"] and private["id"] not in listed["joinable"]


@pytest.mark.skipif(chromium_missing(), reason="needs /usr/bin/chromium")
def test_in_chromium_the_qr_code_shows_and_goes_when_the_game_starts(
    server: RunningServer, client: httpx.Client, users: dict[str, str]
) -> None:
    game = new_game(client, users["hana"], size=5)
    with browser_page() as browser:
        tab = browser.new_page(viewport={"width": 375, "height": 740})  # a phone
        refused: list[str] = []
        tab.on("console", lambda m: refused.append(m.text) if "Content Security" in m.text
               else None)
        tab.goto(f"{server.base_url}/games/{game['id']}")
        box = tab.locator("#join svg.qr").bounding_box()
        assert box is not None and box["width"] >= 100 and box["width"] == box["height"]
        tab.evaluate("window.notReloaded = true")
        tv = browser.new_page(viewport={"width": 1920, "height": 1080})
        tv.goto(f"{server.base_url}/tv")
        later = new_game(client, users["ivan"], size=9)  # appears on /tv without a reload
        tv.wait_for_selector(f'figure[data-joinable="{later["id"]}"] svg.qr', timeout=4000)
        assert join(client, users["jude"], game["id"]).status_code == 201
        tab.wait_for_selector("#join", state="detached", timeout=3000)
        assert tab.evaluate("window.notReloaded") is True
        assert refused == []


@pytest.mark.skipif(chromium_missing(), reason="needs /usr/bin/chromium")
def test_in_chromium_a_private_games_link_opens_its_page_live_for_whoever_scanned_it(
    server: RunningServer, client: httpx.Client, users: dict[str, str]
) -> None:
    game = new_game(client, users["hana"], size=5, private=True)
    link = f"{server.base_url}/games/{game['id']}?code={game['invitation_code']}"
    with browser_page() as browser:
        context = browser.new_context(extra_http_headers=auth(users["ivan"]))
        tab = context.new_page()
        answer = tab.goto(link)
        assert answer is not None and answer.status == 200
        assert tab.locator("#join").count() == 0  # not a player: no code to pass on
        tab.evaluate("window.notReloaded = true")
        joined = join(client, users["ivan"], game["id"], invitation_code=game["invitation_code"])
        assert joined.status_code == 201, joined.text
        tab.wait_for_selector(".status:has-text('to move')", timeout=3000)
        assert tab.evaluate("window.notReloaded") is True
        context.close()
