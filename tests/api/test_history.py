"""Finished games stay viewable in full: the history with who and when, and the board at
any earlier action (`GET /games/{id}?at=N`), which during play shows only what the viewer
may see."""

from __future__ import annotations

from typing import Any

import httpx
import pytest

from tests.api.mode_helpers import Match, act, play_out, start
from tests.support.games import history, new_game
from tests.support.server import RunningServer
from tests.support.users import auth, insert_user

NAMES = ("hsann", "hsbob", "hswatch")


@pytest.fixture(scope="module")
def tokens(server: RunningServer) -> dict[str, str]:
    return {name: insert_user(server.database_url, name) for name in NAMES}


def at(client: httpx.Client, token: str, game_id: int, n: int | str) -> httpx.Response:
    return client.get(f"/games/{game_id}", params={"at": n}, headers=auth(token))


@pytest.fixture(scope="module")
def recorded(
    client: httpx.Client, tokens: dict[str, str]
) -> tuple[Match, list[dict[str, str]], str]:
    """An invisible 5x5 game whose first action is a wall; the true pawns after each action."""
    match = start(client, {n: tokens[n] for n in ("hsann", "hsbob")}, size=5, invisible=True)
    pawns = [{s.value: str(sq) for s, sq in match.mirror.pawns.items()}]
    placer = match.game["turn"]
    act(client, match, "wall", "d1v")
    pawns.append({s.value: str(sq) for s, sq in match.mirror.pawns.items()})
    return match, pawns, placer


def test_an_earlier_board_during_play_shows_only_what_the_viewer_may_see(
    client: httpx.Client, tokens: dict[str, str], recorded: tuple[Match, list[Any], str]
) -> None:
    match, pawns, placer = recorded
    victim = next(s for s in match.by_seat if s != placer)
    mine = at(client, match.by_seat[placer], match.id, 1).json()
    assert mine["walls"] == [{"wall": "d1v", "owner": placer}] and mine["at"] == 1
    for token in (match.by_seat[victim], tokens["hswatch"]):
        seen = at(client, token, match.id, 1)
        assert seen.status_code == 200, seen.text
        assert seen.json()["walls"] == [] and "d1v" not in seen.text
    start_board = at(client, tokens["hswatch"], match.id, 0).json()
    assert start_board["pawns"] == pawns[0] and start_board["turn"] == placer
    assert start_board["last_actions"] == []


def test_bad_positions_are_refused(
    client: httpx.Client, tokens: dict[str, str], recorded: tuple[Match, list[Any], str]
) -> None:
    match, _, _ = recorded
    token = tokens["hswatch"]
    too_far = at(client, token, match.id, 2)
    assert too_far.status_code == 422 and too_far.json()["reason"] == "invalid_action_number"
    assert "0 to 1" in too_far.json()["message"]
    assert at(client, token, match.id, -1).status_code == 400
    assert at(client, token, match.id, "first").status_code == 400
    assert at(client, token, match.id, "").status_code == 400  # not left out: not a number
    waiting = new_game(client, tokens["hswatch"], size=5)
    refused = at(client, token, waiting["id"], 0)
    assert refused.status_code == 409 and refused.json()["reason"] == "game_not_started"
    assert client.get(f"/games/{match.id}", params={"at": 0}).status_code == 401


def test_a_finished_game_shows_every_action_with_who_and_when_and_every_earlier_board(
    client: httpx.Client, tokens: dict[str, str], recorded: tuple[Match, list[Any], str]
) -> None:
    match, pawns, placer = recorded

    def snapshot(m: Match) -> None:
        pawns.append({s.value: str(sq) for s, sq in m.mirror.pawns.items()})

    final = play_out(client, match, walls_each=1, after_each=snapshot)
    assert final["status"] == "finished"
    token = tokens["hswatch"]
    actions = history(client, token, match.id)
    assert [a["n"] for a in actions] == list(range(1, len(actions) + 1))
    assert all(a["seat"] and a["username"] and a["notation"] and a["at"] for a in actions)
    assert actions[0] == {**actions[0], "type": "wall", "notation": "d1v", "seat": placer}
    walls_seen = []
    for n in range(len(actions) + 1):
        board = at(client, token, match.id, n).json()
        assert board["pawns"] == pawns[n], n
        assert board["at"] == n and board["markers"] == []
        assert [a["n"] for a in board["last_actions"]] == list(range(max(1, n - 4), n + 1))
        if n < len(actions):
            assert board["turn"] == actions[n]["seat"]
        walls_seen.append(len(board["walls"]))
    assert walls_seen[0] == 0 and walls_seen[1] == 1 and walls_seen[-1] == 2
    last = at(client, token, match.id, len(actions)).json()
    assert last["winner"] == final["winner"] and last["turn"] is None
    assert {w["owner"] for w in last["walls"]} == set(match.by_seat)
    assert [s["walls_left"] for s in last["seats"]] == [4, 4]
