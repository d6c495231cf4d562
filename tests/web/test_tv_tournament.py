"""A running tournament on /tv (issue 30, item 4): `/tv?tournament=ID` shows that
tournament's latest round's boards with its standings beside them. The panel built
from a tournament's view in the API's shape and rendered through the real templates;
the real server's 404 `tournament_not_found` for an unknown id (the page, the list,
the fragment); and a real Swiss started through the API, followed in chromium.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import httpx
import pytest

from corridorquest.engine import GameState, Seat
from corridorquest.web.join_qr import qr_svg
from corridorquest.web.templating import render
from corridorquest.web.tv_tournament import panel_of
from tests.api.mode_helpers import Match, play_out
from tests.support.games import get_game
from tests.support.server import RunningServer, running_server
from tests.support.users import auth, insert_user
from tests.web.browser import browser_page, chromium_missing


def _swiss() -> dict[str, Any]:
    """A Swiss of 4 in its second round (the API's shape of a tournament)."""
    line = {"played": 1, "wins": 1, "byes": 0}
    return {
        "id": 3, "name": "Friday <Swiss>", "kind": "swiss", "status": "started",
        "round": 2, "rounds": 3,
        "standings": [
            {**line, "rank": 1, "username": "ann", "points": 1, "buchholz": 1, "score": 40,
             "withdrawn": False},
            {**line, "rank": 2, "username": "<b>bo", "points": 1, "buchholz": 0, "score": 31,
             "withdrawn": False},
            {**line, "rank": 3, "username": "cy", "points": 0, "buchholz": 1, "score": 12,
             "withdrawn": False},
            {**line, "rank": 4, "username": "di", "points": 0, "buchholz": 1, "score": 9,
             "withdrawn": True},
        ],
        "pairings": [
            {"round": 1, "byes": [], "games": [
                {"board": 1, "game_id": 11, "game_status": "finished"},
                {"board": 2, "game_id": 12, "game_status": "finished"},
            ]},
            {"round": 2, "byes": [], "games": [
                {"board": 2, "game_id": 14, "game_status": "started"},
                {"board": 1, "game_id": 13, "game_status": "finished"},
                {"board": 3, "game_id": 15, "game_status": "cancelled"},
            ]},
        ],
    }


def test_the_panel_holds_the_standings_and_the_latest_rounds_games_by_board() -> None:
    panel = panel_of(_swiss())
    assert [(s.rank, s.username, s.points, s.buchholz) for s in panel.standings] == [
        (1, "ann", 1, 1), (2, "<b>bo", 1, 0), (3, "cy", 0, 1), (4, "di", 0, 1),
    ]
    assert panel.game_ids == (13, 14)  # round 2, by board, the cancelled one left out
    robin = panel_of({**_swiss(), "kind": "round_robin"})
    assert not robin.swiss and all(s.buchholz is None for s in robin.standings)
    changed = _swiss()
    changed["standings"][2]["points"] = 1
    assert panel_of(changed).fingerprint() != panel.fingerprint()  # the page refreshes
    assert panel_of(_swiss()).fingerprint() == panel.fingerprint()


def test_the_standings_show_beside_the_boards() -> None:
    panel = panel_of(_swiss())
    link = "http://party.lan:3000/"
    text = render("tv_boards.html", figures=[], grid=(1, 1), joinable=[],
                  server={"link": link, "svg": qr_svg(link)}, tournament=panel)
    side = text.split('<aside class="tv-side">')[1]
    assert side.startswith('<section class="tv-standings" data-tournament="3">')
    assert "Friday &lt;Swiss&gt;" in side and "round 2 of 3" in side
    assert "<th title=\"Buchholz\">Bu</th>" in side
    rows = side.split("<tbody>")[1].split("</tbody>")[0].split("</tr>")[:-1]
    assert [r.split('class="tv-name">')[1].split("<")[0] for r in rows] == [
        "ann", "&lt;b&gt;bo", "cy", "di",
    ]
    assert 'class="tv-withdrawn"' in rows[3] and "tv-withdrawn" not in "".join(rows[:3])
    assert "<td>1</td><td class=\"tv-name\">ann</td><td>1</td><td>1</td><td>40</td>" in rows[0]
    assert side.index("tv-standings") < side.index("tv-server")  # the QR code still last
    robin = render("tv_boards.html", figures=[], grid=(1, 1), joinable=[],
                   server={"link": link, "svg": qr_svg(link)},
                   tournament=panel_of({**_swiss(), "kind": "round_robin"}))
    assert "Buchholz" not in robin


def test_an_unknown_tournament_is_not_found(server: RunningServer) -> None:
    for wanted in ("7", "abc", "-1"):
        page = httpx.get(f"{server.base_url}/tv?tournament={wanted}", timeout=10)
        assert page.status_code == 404 and "No such tournament." in page.text
        listed = httpx.get(f"{server.base_url}/web/tv/list?tournament={wanted}", timeout=10)
        assert listed.status_code == 404
        assert listed.json()["reason"] == "tournament_not_found"
        boards = httpx.get(f"{server.base_url}/web/tv/boards?tournament={wanted}", timeout=10)
        assert boards.status_code == 404
    assert httpx.get(f"{server.base_url}/tv?tournament=", timeout=10).status_code == 200


@pytest.mark.skipif(chromium_missing(), reason="needs /usr/bin/chromium")
def test_a_running_tournament_shows_its_boards_and_standings_live(tmp_path: Path) -> None:
    """The real tournament service: a Swiss of four started through the API; /tv?tournament
    shows round 1's two boards and the four entrants; a game played to its end through the
    API gives its winner a point on the screen, without a reload."""
    with running_server(tmp_path, BOT_WORKERS="0", SCHEDULER_INTERVAL="1s") as server, \
            httpx.Client(base_url=server.api, timeout=10) as client:
        names = ["tva", "tvb", "tvc", "tvd"]
        tokens = {name: insert_user(server.database_url, name) for name in names}
        made = client.post("/tournaments", headers=auth(tokens["tva"]),
                           json={"name": "Friday <Swiss>", "kind": "swiss", "rounds": 2,
                                 "size": 5})
        assert made.status_code == 201, made.text
        tid = made.json()["id"]
        for name in names:
            entered = client.post(f"/tournaments/{tid}/join", headers=auth(tokens[name]))
            assert entered.status_code in (201, 409), entered.text
        started = client.post(f"/tournaments/{tid}/start", headers=auth(tokens["tva"]))
        assert started.status_code == 200, started.text
        tables = started.json()["pairings"][0]["games"]
        ids = {int(t["game_id"]) for t in tables}
        assert len(ids) == 2
        with browser_page() as browser:
            page = browser.new_page(viewport={"width": 1920, "height": 1080})
            page.goto(f"{server.base_url}/tv?tournament={tid}")
            page.wait_for_selector(".tv-standings")
            shown = {int(f.get_attribute("data-game") or 0)
                     for f in page.query_selector_all("figure.tv-board")}
            assert shown == ids
            players = [c.inner_text() for c in page.query_selector_all(".tv-standings .tv-name")]
            assert sorted(players) == names
            assert "Friday <Swiss>" in page.inner_text(".tv-standings h2")
            page.evaluate("window.notReloaded = true")
            page.wait_for_timeout(500)
            first = min(ids)
            game = get_game(client, tokens["tva"], first)
            match = Match(game, {s["seat"]: tokens[s["username"]] for s in game["seats"]},
                          {s["seat"]: s["username"] for s in game["seats"]},
                          GameState.new(size=game["size"], players=game["players"],
                                        first=Seat(game["turn"])),
                          {s["seat"]: [] for s in game["seats"]})
            play_out(client, match, walls_each=0)
            winner = match.game["winner"]
            row = f'.tv-standings tr[data-player="{winner}"] td:nth-child(3)'
            page.wait_for_selector(f"{row}:text-is('1')", timeout=3000)
            page.wait_for_selector(
                f'figure[data-game="{first}"] .tv-state strong:text-is("{winner}")', timeout=2000)
            assert page.evaluate("window.notReloaded") is True
