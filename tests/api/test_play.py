"""Play end to end: moves in every notation, walls, turns, revisions, idempotency, finish."""

from __future__ import annotations

from concurrent.futures import ThreadPoolExecutor

import httpx
import pytest

from tests.support.games import (
    get_game,
    history,
    new_game,
    play,
    play_scripts,
    started_game,
)
from tests.support.server import RunningServer
from tests.support.users import auth, insert_user

NAMES = ("north1", "south1", "north2", "south2", "watcher")
# On 5x5, South (c1) walks up column c and wins on c5 in four moves; North (c5) leaves
# column c at once and walks down column a, never in South's way.
SOUTH_PATH = [("move", "north"), ("move", "up"), ("move", "c4"), ("move", "c5")]
NORTH_PATH = [("move", "west"), ("move", "a5"), ("move", "down"), ("move", "south")]


@pytest.fixture(scope="module")
def tokens(server: RunningServer) -> dict[str, str]:
    return {name: insert_user(server.database_url, name) for name in NAMES}


def two_player_game(
    client: httpx.Client,
    tokens: dict[str, str],
    a: str = "north1",
    b: str = "south1",
    **options: object,
) -> tuple[dict[str, object], dict[str, str]]:
    """A started 5x5 game and {seat: token}."""
    game = started_game(client, {a: tokens[a], b: tokens[b]}, size=5, **options)
    by_seat = {seat["seat"]: tokens[seat["username"]] for seat in game["seats"]}
    return game, by_seat


def wall_b3h_placed(
    client: httpx.Client, tokens: dict[str, str], **mode: object
) -> tuple[dict[str, object], dict[str, str], str, str]:
    """A started game in `mode` whose first player placed b3h: (game, by_seat, mover, other)."""
    game, by_seat = two_player_game(client, tokens, **mode)
    mover = str(game["turn"])
    other = "north" if mover == "south" else "south"
    play(client, by_seat[mover], game["id"], "wall", "b3h")
    return game, by_seat, mover, other


def test_the_player_to_move_moves_and_the_turn_passes(
    client: httpx.Client, tokens: dict[str, str]
) -> None:
    game, by_seat = two_player_game(client, tokens)
    mover = game["turn"]
    path = SOUTH_PATH if mover == "south" else NORTH_PATH
    kind, to = path[0]
    response = play(client, by_seat[mover], game["id"], kind, to)
    assert response.status_code == 201, response.text
    after = response.json()
    assert after["revision"] == game["revision"] + 1
    assert after["turn"] != mover
    assert after["pawns"][mover] == ("c2" if mover == "south" else "b5")
    entry = after["last_actions"][-1]
    assert (entry["n"], entry["seat"], entry["type"], entry["notation"]) == (
        1,
        mover,
        "move",
        after["pawns"][mover],
    )


def test_a_game_is_played_to_the_end_in_mixed_notations(
    client: httpx.Client, tokens: dict[str, str]
) -> None:
    game, by_seat = two_player_game(client, tokens, "north2", "south2")
    paths = {"south": list(SOUTH_PATH), "north": list(NORTH_PATH)}
    state = play_scripts(client, by_seat, game, paths)
    assert state["status"] == "finished" and state["finished_at"]
    south = next(s["username"] for s in state["seats"] if s["seat"] == "south")
    assert state["winner"] == south and state["turn"] is None
    assert state["scores"][south] > max(v for k, v in state["scores"].items() if k != south)
    assert [a["n"] for a in history(client, by_seat["south"], game["id"])] == list(
        range(1, len(history(client, by_seat["south"], game["id"])) + 1)
    )
    over = play(client, by_seat["north"], game["id"], "move", "south")
    assert over.status_code == 409 and over.json()["reason"] == "game_finished"
    won = client.get("/games", params={"relation": "won"}, headers=auth(by_seat["south"]))
    assert game["id"] in [g["id"] for g in won.json()["games"]]


def test_not_your_turn_is_refused_and_changes_nothing(
    client: httpx.Client, tokens: dict[str, str]
) -> None:
    game, by_seat = two_player_game(client, tokens)
    waiting_seat = "north" if game["turn"] == "south" else "south"
    response = play(client, by_seat[waiting_seat], game["id"], "move", "west")
    assert response.status_code == 409 and response.json()["reason"] == "not_your_turn"
    assert get_game(client, by_seat["north"], game["id"])["revision"] == game["revision"]
    assert history(client, by_seat["north"], game["id"]) == []


def test_non_players_and_unstarted_games_are_refused(
    client: httpx.Client, tokens: dict[str, str]
) -> None:
    game, _ = two_player_game(client, tokens)
    outsider = play(client, tokens["watcher"], game["id"], "move", "north")
    assert outsider.status_code == 403 and outsider.json()["reason"] == "not_a_player"
    waiting = new_game(client, tokens["north1"], size=5)
    early = play(client, tokens["north1"], waiting["id"], "move", "north")
    assert early.status_code == 409 and early.json()["reason"] == "game_not_started"


@pytest.mark.parametrize(
    ("kind", "to", "status", "reason", "says"),
    [
        ("move", "e99", 422, "invalid_notation", "e99"),
        ("wall", "c3x", 422, "invalid_notation", "c3x"),
        ("move", "northish", 422, "invalid_notation", "northish"),
        ("move", "a1", 422, "illegal_action", "a1"),
        ("jump", "c3", 422, "illegal_action", "c3"),
        ("fly", "north", 400, "bad_request", "type"),
    ],
)
def test_bad_actions_are_refused_with_the_engine_reason_and_change_nothing(
    client: httpx.Client,
    tokens: dict[str, str],
    kind: str,
    to: str,
    status: int,
    reason: str,
    says: str,
) -> None:
    game, by_seat = two_player_game(client, tokens)
    response = play(client, by_seat[game["turn"]], game["id"], kind, to)
    assert (response.status_code, response.json()["reason"]) == (status, reason)
    assert says in response.json()["message"]
    after = get_game(client, by_seat[game["turn"]], game["id"])
    assert (after["revision"], after["pawns"], after["turn"]) == (
        game["revision"],
        game["pawns"],
        game["turn"],
    )


def test_an_overlapping_wall_is_illegal_with_its_reason(
    client: httpx.Client, tokens: dict[str, str]
) -> None:
    game, by_seat = two_player_game(client, tokens)
    first, second = game["turn"], ("north" if game["turn"] == "south" else "south")
    placed = play(client, by_seat[first], game["id"], "wall", "b2h")
    assert placed.status_code == 201
    after_wall = placed.json()
    assert after_wall["walls"] == [{"wall": "b2h", "owner": first}]
    mine = next(s for s in after_wall["seats"] if s["seat"] == first)
    assert mine["walls_left"] == 4
    overlap = play(client, by_seat[second], game["id"], "wall", "b2h")
    assert overlap.status_code == 422 and overlap.json()["reason"] == "illegal_action"
    assert "overlaps" in overlap.json()["message"]
    crossing = play(client, by_seat[second], game["id"], "wall", "b2v")
    assert crossing.status_code == 422 and crossing.json()["reason"] == "illegal_action"
    assert get_game(client, by_seat[second], game["id"])["walls"] == after_wall["walls"]


def test_a_stale_base_revision_is_refused_with_the_current_game(
    client: httpx.Client, tokens: dict[str, str]
) -> None:
    game, by_seat = two_player_game(client, tokens)
    mover = game["turn"]
    stale = play(client, by_seat[mover], game["id"], "wall", "a3h", base_revision=1)
    assert stale.status_code == 409 and stale.json()["reason"] == "stale_revision"
    assert stale.json()["game"]["revision"] == game["revision"]
    assert stale.json()["game"]["walls"] == []
    fresh = play(client, by_seat[mover], game["id"], "wall", "a3h", base_revision=game["revision"])
    assert fresh.status_code == 201


def test_a_retried_action_returns_the_first_answer_and_plays_once(
    client: httpx.Client, tokens: dict[str, str]
) -> None:
    game, by_seat = two_player_game(client, tokens)
    mover = game["turn"]
    key = {"Idempotency-Key": f"move-{game['id']}"}
    first = play(client, by_seat[mover], game["id"], "wall", "d3h", headers=key)
    second = play(client, by_seat[mover], game["id"], "wall", "d3h", headers=key)
    assert first.status_code == second.status_code == 201
    assert first.json() == second.json()
    assert len(history(client, by_seat[mover], game["id"])) == 1
    assert get_game(client, by_seat[mover], game["id"])["revision"] == game["revision"] + 1


def test_masked_walls_hide_owner_and_counts_from_opponents(
    client: httpx.Client, tokens: dict[str, str]
) -> None:
    game, by_seat, mover, other = wall_b3h_placed(client, tokens, masked=True)
    seen_by_other = get_game(client, by_seat[other], game["id"])
    assert seen_by_other["walls"] == [{"wall": "b3h", "owner": None}]
    counts = {s["seat"]: s["walls_left"] for s in seen_by_other["seats"]}
    assert counts == {mover: None, other: None}  # every count, one's own too
    entry = history(client, by_seat[other], game["id"])[0]
    assert (entry["seat"], entry["username"], entry["notation"]) == (None, None, None)
    seen_by_mover = get_game(client, by_seat[mover], game["id"])
    assert seen_by_mover["walls"] == [{"wall": "b3h", "owner": None}]  # not even one's own


def test_invisible_walls_are_shown_only_to_their_owner(
    client: httpx.Client, tokens: dict[str, str]
) -> None:
    game, by_seat, mover, other = wall_b3h_placed(client, tokens, invisible=True)
    assert get_game(client, by_seat[mover], game["id"])["walls"] == [
        {"wall": "b3h", "owner": mover}
    ]
    opponent_view = get_game(client, by_seat[other], game["id"])
    assert opponent_view["walls"] == []
    assert all(s["distance"] is None for s in opponent_view["seats"])
    entry = history(client, by_seat[other], game["id"])[0]
    assert (entry["seat"], entry["type"], entry["notation"]) == (mover, "wall", None)
    watcher_view = get_game(client, tokens["watcher"], game["id"])
    assert watcher_view["walls"] == [] and watcher_view["invitation_code"] is None
    assert "b3h" not in str(watcher_view) and "b3h" not in str(
        history(client, tokens["watcher"], game["id"])
    )


def test_a_finished_game_reveals_masked_and_invisible_walls(
    client: httpx.Client, tokens: dict[str, str]
) -> None:
    game, by_seat = two_player_game(client, tokens, "north2", "south2", masked=True, invisible=True)
    first = game["turn"]
    other = "north" if first == "south" else "south"
    assert play(client, by_seat[first], game["id"], "wall", "d3h").status_code == 201
    hidden = get_game(client, by_seat[other], game["id"])
    assert hidden["walls"] == [] and history(client, by_seat[other], game["id"])[0] == {
        **history(client, by_seat[other], game["id"])[0],
        "seat": None,
        "username": None,
        "notation": None,
    }
    paths = {"south": list(SOUTH_PATH), "north": list(NORTH_PATH)}
    state = get_game(client, by_seat[first], game["id"])
    while state["status"] == "started":
        seat = state["turn"]
        kind, to = paths[seat].pop(0)
        state = play(client, by_seat[seat], game["id"], kind, to).json()
    revealed = get_game(client, by_seat[other], game["id"])
    assert revealed["status"] == "finished"
    assert revealed["walls"] == [{"wall": "d3h", "owner": first}]
    assert all(s["walls_left"] is not None and s["distance"] is not None for s in revealed["seats"])
    entry = history(client, tokens["watcher"], game["id"])[0]
    assert (entry["seat"], entry["notation"]) == (first, "d3h")


def test_concurrent_retries_of_one_idempotency_key_play_once(
    server: RunningServer, tokens: dict[str, str]
) -> None:
    with httpx.Client(base_url=server.api, timeout=10.0) as client:
        game, by_seat = two_player_game(client, tokens)
    mover = game["turn"]
    headers = {**auth(by_seat[mover]), "Idempotency-Key": f"race-{game['id']}"}

    def send(_: int) -> httpx.Response:
        with httpx.Client(base_url=server.api, timeout=10.0) as own:
            return own.post(
                f"/games/{game['id']}/actions", json={"type": "wall", "to": "a4h"}, headers=headers
            )

    with ThreadPoolExecutor(8) as pool:
        answers = list(pool.map(send, range(8)))
    assert {a.status_code for a in answers} == {201}
    assert len({a.text for a in answers}) == 1
    with httpx.Client(base_url=server.api, timeout=10.0) as client:
        assert len(history(client, by_seat[mover], game["id"])) == 1
