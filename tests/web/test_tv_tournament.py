"""The hook for a running tournament on /tv (issue 30, item 4): `/tv?tournament=ID`
shows that tournament's latest round's boards with its standings beside them. The
tournament service is not on this branch: here the panel is built from a tournament's
view in the API's shape and rendered through the real templates, and the real server
answers 404 `tournament_not_found` for any id (the page, the list, the fragment)."""

from __future__ import annotations

from typing import Any

import httpx

from corridorquest.web.join_qr import qr_svg
from corridorquest.web.templating import render
from corridorquest.web.tv_tournament import panel_of
from tests.support.server import RunningServer


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
