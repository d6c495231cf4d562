"""Markers end to end: mark/unmark any time, only one's own, not on one's own wall,
removed under a newly placed own wall, revealed at the finish; every refusal changes nothing."""

from __future__ import annotations

from typing import Any

import httpx
import pytest

from tests.api.mode_helpers import Match, act, best_step, play_out, start
from tests.support.games import get_game, new_game
from tests.support.server import RunningServer
from tests.support.users import auth, insert_user

NAMES = ("mkann", "mkbob", "mkwatch", "mkcara", "mkdan")


@pytest.fixture(scope="module")
def tokens(server: RunningServer) -> dict[str, str]:
    return {name: insert_user(server.database_url, name) for name in NAMES}


def mark(client: httpx.Client, token: str, game_id: int, marker: str) -> httpx.Response:
    return client.post(f"/games/{game_id}/markers", json={"marker": marker}, headers=auth(token))


def unmark(client: httpx.Client, token: str, game_id: int, marker: str) -> httpx.Response:
    return client.delete(f"/games/{game_id}/markers/{marker}", headers=auth(token))


def markers(client: httpx.Client, token: str, game_id: int) -> list[dict[str, Any]]:
    response = client.get(f"/games/{game_id}/markers", headers=auth(token))
    assert response.status_code == 200, response.text
    found: list[dict[str, Any]] = response.json()["markers"]
    return found


def refused(response: httpx.Response, status: int, reason: str) -> None:
    assert response.status_code == status, response.text
    assert response.json()["reason"] == reason


def idle_seat(match: Match) -> str:
    assert match.mirror.turn is not None
    return next(s for s in match.by_seat if s != match.mirror.turn.value)


@pytest.fixture(scope="module")
def match(client: httpx.Client, tokens: dict[str, str]) -> Match:
    pair = {name: tokens[name] for name in ("mkann", "mkbob")}
    return start(client, pair, size=5, invisible=True)


def test_a_player_marks_any_time_and_only_it_sees_its_markers(
    client: httpx.Client, tokens: dict[str, str], match: Match
) -> None:
    idle = idle_seat(match)
    mover = match.mirror.turn.value if match.mirror.turn else ""
    before = get_game(client, match.by_seat[idle], match.id)
    response = mark(client, match.by_seat[idle], match.id, " D2V ")
    assert response.status_code == 201, response.text
    assert response.json()["markers"] == [{"marker": "d2v", "owner": idle}]
    assert response.json()["revision"] == before["revision"]  # notes are not game changes
    assert mark(client, match.by_seat[idle], match.id, "d1v").status_code == 201
    assert mark(client, match.by_seat[idle], match.id, "d3v").status_code == 201
    assert [m["marker"] for m in markers(client, match.by_seat[idle], match.id)] == [
        "d2v",
        "d1v",
        "d3v",
    ]
    assert get_game(client, match.by_seat[mover], match.id)["markers"] == []
    assert markers(client, match.by_seat[mover], match.id) == []
    assert markers(client, tokens["mkwatch"], match.id) == []
    assert get_game(client, tokens["mkwatch"], match.id)["markers"] == []


def test_bad_markers_are_refused_and_change_nothing(
    client: httpx.Client, tokens: dict[str, str], match: Match
) -> None:
    idle = idle_seat(match)
    token = match.by_seat[idle]
    before = markers(client, token, match.id)
    refused(mark(client, token, match.id, "d2v"), 409, "already_marked")
    refused(mark(client, token, match.id, "e1v"), 422, "invalid_notation")  # east edge
    refused(mark(client, token, match.id, "a5h"), 422, "invalid_notation")  # north edge
    refused(mark(client, token, match.id, "wall"), 422, "invalid_notation")
    refused(mark(client, tokens["mkwatch"], match.id, "a1v"), 403, "not_a_player")
    refused(unmark(client, token, match.id, "a1h"), 404, "marker_not_found")
    refused(unmark(client, token, match.id, "zz9"), 422, "invalid_notation")
    bad_body = client.post(
        f"/games/{match.id}/markers", json={"marker": "a1v", "x": 1}, headers=auth(token)
    )
    assert bad_body.status_code == 400
    assert markers(client, token, match.id) == before


def test_placing_a_wall_removes_ones_markers_under_it_and_not_others(
    client: httpx.Client, match: Match
) -> None:
    idle = idle_seat(match)
    other = next(s for s in match.by_seat if s != idle)
    # the other player marks an edge the idle player's wall will cover
    assert mark(client, match.by_seat[other], match.id, "d1v").status_code == 201
    step = best_step(match.mirror)
    act(client, match, "jump" if step.jump else "move", str(step.to))  # now idle's turn
    after = act(client, match, "wall", "d1v")  # covers d1v and d2v
    assert after["markers"] == [{"marker": "d3v", "owner": idle}]
    assert markers(client, match.by_seat[other], match.id) == [
        {"marker": "d1v", "owner": other}
    ]
    refused(mark(client, match.by_seat[idle], match.id, "d2v"), 422, "marker_on_own_wall")
    refused(mark(client, match.by_seat[idle], match.id, "d1v"), 422, "marker_on_own_wall")
    assert unmark(client, match.by_seat[idle], match.id, "d3v").status_code == 200
    assert markers(client, match.by_seat[idle], match.id) == []
    assert mark(client, match.by_seat[idle], match.id, "b4h").status_code == 201


def test_markers_are_revealed_to_everyone_when_the_game_finishes(
    client: httpx.Client, tokens: dict[str, str], match: Match
) -> None:
    play_out(client, match, walls_each=0)
    assert match.game["status"] == "finished"
    idle_marker = {"marker": "b4h"}
    seen = markers(client, tokens["mkwatch"], match.id)
    assert sorted(m["marker"] for m in seen) == ["b4h", "d1v"]
    assert {m["owner"] for m in seen} == set(match.by_seat)
    assert idle_marker["marker"] in {m["marker"] for m in get_game(
        client, tokens["mkwatch"], match.id)["markers"]}
    any_token = next(iter(match.by_seat.values()))
    refused(mark(client, any_token, match.id, "a1v"), 409, "game_finished")


def test_markers_exist_only_in_started_invisible_games(
    client: httpx.Client, tokens: dict[str, str]
) -> None:
    plain = start(client, {"mkcara": tokens["mkcara"], "mkdan": tokens["mkdan"]}, size=5)
    refused(mark(client, tokens["mkcara"], plain.id, "a1v"), 409, "game_not_invisible")
    waiting = new_game(client, tokens["mkcara"], size=5, invisible=True)
    refused(mark(client, tokens["mkcara"], waiting["id"], "a1v"), 409, "game_not_started")
    assert client.post(f"/games/{plain.id}/markers", json={"marker": "a1v"}).status_code == 401
