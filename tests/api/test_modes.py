"""Masked and invisible walls end to end: what each viewer sees during play, the bump
into an invisible wall (refused, turn kept, nothing revealed), legal actions from the
player's knowledge, and the reveal at the finish."""

from __future__ import annotations

from typing import Any

import httpx
import pytest

from tests.api.mode_helpers import Match, act, play_out, start
from tests.support.games import get_game, history, play
from tests.support.server import RunningServer
from tests.support.users import auth, insert_user

NAMES = ("mdann", "mdbob", "mdwatch")
# On 5x5 North starts on c5 and South on c1. A wall in front of the other pawn:
BLOCKERS = {"south": ("b4h", "c5", "c4"), "north": ("b1h", "c1", "c2")}


@pytest.fixture(scope="module")
def tokens(server: RunningServer) -> dict[str, str]:
    return {name: insert_user(server.database_url, name) for name in NAMES}


def pair(tokens: dict[str, str]) -> dict[str, str]:
    return {"mdann": tokens["mdann"], "mdbob": tokens["mdbob"]}


def wall_first(client: httpx.Client, match: Match) -> tuple[str, str, str, str, str]:
    """The player to move walls the other pawn in: (placer, victim, wall, from, to)."""
    placer = match.game["turn"]
    victim = next(s for s in match.by_seat if s != placer)
    wall, here, there = BLOCKERS[placer]
    act(client, match, "wall", wall)
    return placer, victim, wall, here, there


def wall_entries(actions: list[dict[str, Any]]) -> list[dict[str, Any]]:
    return [a for a in actions if a["type"] == "wall"]


def test_masked_walls_look_alike_and_counts_are_hidden_until_the_finish(
    client: httpx.Client, tokens: dict[str, str]
) -> None:
    match = start(client, pair(tokens), size=5, masked=True)
    placer, victim, wall, _, _ = wall_first(client, match)
    for token in [*match.by_seat.values(), tokens["mdwatch"]]:
        seen = get_game(client, token, match.id)
        assert seen["walls"] == [{"wall": wall, "owner": None}]
        assert [s["walls_left"] for s in seen["seats"]] == [None, None]
        assert all(s["distance"] is not None for s in seen["seats"])
        entry = wall_entries(history(client, token, match.id))[0]
        # "a wall was placed" (SPEC §4): with the turn order a square would tell the owner
        assert (entry["seat"], entry["username"], entry["notation"]) == (None, None, None)
        assert wall_entries(seen["last_actions"])[0]["username"] is None
        assert seen["last_wall"] == wall  # what the board outlines: the latest action
    finished = play_out(client, match, walls_each=0)
    assert finished["status"] == "finished"
    revealed = get_game(client, tokens["mdwatch"], match.id)
    assert revealed["walls"] == [{"wall": wall, "owner": placer}]
    assert {s["seat"]: s["walls_left"] for s in revealed["seats"]} == {placer: 4, victim: 5}
    entry = wall_entries(history(client, tokens["mdwatch"], match.id))[0]
    assert (entry["seat"], entry["username"], entry["notation"]) == (
        placer, match.names[placer], wall)


def test_invisible_walls_are_seen_by_their_owner_only_and_non_players_see_only_pawns(
    client: httpx.Client, tokens: dict[str, str]
) -> None:
    match = start(client, pair(tokens), size=5, invisible=True)
    placer, victim, wall, _, _ = wall_first(client, match)
    own = get_game(client, match.by_seat[placer], match.id)
    assert own["walls"] == [{"wall": wall, "owner": placer}]
    for token in (match.by_seat[victim], tokens["mdwatch"]):
        seen = get_game(client, token, match.id)
        assert seen["walls"] == [] and seen["markers"] == []
        assert set(seen["pawns"]) == {"north", "south"}
        assert {s["seat"]: s["walls_left"] for s in seen["seats"]} == {placer: 4, victim: 5}
        assert all(s["distance"] is None for s in seen["seats"])
        entry = wall_entries(history(client, token, match.id))[0]
        assert (entry["seat"], entry["username"], entry["notation"]) == (
            placer,
            match.names[placer],
            None,
        )
        assert wall not in get_game(client, token, match.id).__repr__()
    play_out(client, match, walls_each=0)
    revealed = get_game(client, tokens["mdwatch"], match.id)
    assert revealed["walls"] == [{"wall": wall, "owner": placer}]
    assert wall_entries(history(client, tokens["mdwatch"], match.id))[0]["notation"] == wall
    assert all(s["distance"] is not None for s in revealed["seats"])


def test_both_modes_hide_owners_counts_and_opponents_walls(
    client: httpx.Client, tokens: dict[str, str]
) -> None:
    match = start(client, pair(tokens), size=5, masked=True, invisible=True)
    placer, victim, wall, _, _ = wall_first(client, match)
    own = get_game(client, match.by_seat[placer], match.id)
    assert own["walls"] == [{"wall": wall, "owner": None}]
    assert [s["walls_left"] for s in own["seats"]] == [None, None]
    assert wall_entries(own["last_actions"])[0]["notation"] is None  # masked: not even one's own
    theirs = get_game(client, match.by_seat[victim], match.id)
    assert theirs["walls"] == []
    entry = wall_entries(history(client, match.by_seat[victim], match.id))[0]
    assert (entry["seat"], entry["username"], entry["notation"]) == (None, None, None)


def test_a_move_into_an_invisible_wall_is_refused_and_the_turn_is_kept(
    client: httpx.Client, tokens: dict[str, str]
) -> None:
    match = start(client, pair(tokens), size=5, invisible=True)
    placer, victim, wall, here, there = wall_first(client, match)
    token = match.by_seat[victim]
    before = get_game(client, token, match.id)
    direction = "south" if victim == "north" else "north"
    bump = play(client, token, match.id, "move", direction)
    assert bump.status_code == 422, bump.text
    assert bump.json()["reason"] == "illegal_action"
    assert f"wall between {here} and {there}" in bump.json()["message"]
    for attempt, says in ((wall, "overlaps a wall"), (wall[:-1] + "v", "crosses a wall")):
        refused = play(client, token, match.id, "wall", attempt)
        assert refused.status_code == 422, refused.text
        assert refused.json()["message"] == f"{attempt}: {says}"
        assert wall not in refused.json()["message"].split(": ", 1)[1]
    after = get_game(client, token, match.id)
    assert (after["revision"], after["turn"]) == (before["revision"], victim)
    assert play(client, token, match.id, "move", "west").status_code == 201


def test_legal_actions_come_from_what_the_player_knows(
    client: httpx.Client, tokens: dict[str, str]
) -> None:
    match = start(client, pair(tokens), size=5, invisible=True)
    placer, victim, wall, _, there = wall_first(client, match)
    response = client.get(f"/games/{match.id}/legal-actions", headers=auth(match.by_seat[victim]))
    assert response.status_code == 200, response.text
    known = response.json()
    assert known["seat"] == victim and known["your_turn"] is True
    assert there in known["moves"]  # the player cannot know the wall is there
    assert wall in known["walls"]  # nor that its place is taken
    assert known["walls"] == sorted(known["walls"]) and len(known["walls"]) == 32
    placer_view = client.get(
        f"/games/{match.id}/legal-actions", headers=auth(match.by_seat[placer])
    ).json()
    assert placer_view["your_turn"] is False and wall not in placer_view["walls"]
    watcher = client.get(f"/games/{match.id}/legal-actions", headers=auth(tokens["mdwatch"]))
    assert watcher.status_code == 403 and watcher.json()["reason"] == "not_a_player"
    assert client.get(f"/games/{match.id}/legal-actions").status_code == 401
