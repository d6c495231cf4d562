"""A finished invisible-walls game's boards at earlier steps show the markers of the end."""

from __future__ import annotations

import xml.etree.ElementTree as ET
from typing import Any

import httpx

from tests.api.mode_helpers import play_out, start
from tests.support.server import RunningServer
from tests.support.users import auth

SVG = "{http://www.w3.org/2000/svg}"


def _markers(svg: str) -> set[str]:
    root = ET.fromstring(svg)
    return {e.get("data-marker") or "" for e in root.iter() if e.get("data-marker")}


def test_replay_boards_of_a_finished_game_overlay_the_markers_as_at_the_end(
    server: RunningServer, client: httpx.Client, tokens: Any
) -> None:
    match = start(client, tokens(("mira", "nils")), invisible=True)
    marker_seat = next(iter(match.by_seat))
    marked = client.post(
        f"/games/{match.id}/markers", json={"marker": "a5h"},
        headers=auth(match.by_seat[marker_seat]),
    )
    assert marked.status_code == 201, marked.text
    watcher = tokens(("olaf",))["olaf"]
    during = client.get(f"/games/{match.id}/board.svg?at=0", headers=auth(watcher))
    assert during.status_code == 200 and _markers(during.text) == set()  # not while playing
    play_out(client, match, walls_each=0, avoid=frozenset({"a5h"}))
    for at in (0, 3):
        board = client.get(f"/games/{match.id}/board.svg", params={"at": at}, headers=auth(watcher))
        assert board.status_code == 200, board.text
        assert _markers(board.text) == {"a5h"}
    anonymous = httpx.get(f"{server.api}/games/{match.id}/board.svg?at=1", timeout=10)
    assert anonymous.status_code == 200 and _markers(anonymous.text) == {"a5h"}


def test_a_board_without_its_caption(
    server: RunningServer, client: httpx.Client, tokens: Any
) -> None:
    match = start(client, tokens(("pat", "quy")))
    url = f"/games/{match.id}/board.svg"
    with_caption = client.get(url, headers=auth(match.by_seat["north"]))
    without = client.get(url, params={"caption": "false"}, headers=auth(match.by_seat["north"]))
    assert with_caption.status_code == without.status_code == 200
    assert 'class="caption"' in with_caption.text and 'class="caption"' not in without.text
    assert client.get(url, params={"caption": "maybe"}).status_code == 400
