"""A renamed user is renamed everywhere (SPEC §7: a username change keeps every reference).

Stored texts (system messages, a cancelled game's reason) name users by id and show the
current name when read; somebody who takes the old name afterwards appears nowhere in
the old games.
"""

from __future__ import annotations

import re
from typing import Any

import httpx
import pytest

from tests.support.games import get_game, history, play_scripts, started_game
from tests.support.server import RunningServer
from tests.support.users import auth, insert_user, make_user

NAMES = ("dave", "erin", "rnwatch")
# 5x5: South walks c1 -> c5 (wins), North walks c5 -> a5 -> a1, never in the way; South
# first places the wall d1v, which blocks nobody.
SOUTH = [("wall", "d1v"), ("move", "north"), ("move", "c3"), ("move", "c4"), ("move", "c5")]
NORTH = [("move", "west"), ("move", "a5"), ("move", "a4"), ("move", "a3"), ("move", "a2")]
OLD = re.compile(r"\bdave\b")


@pytest.fixture(scope="module")
def tokens(server: RunningServer) -> dict[str, str]:
    return {name: insert_user(server.database_url, name) for name in NAMES}


def ok(response: httpx.Response, status: int = 200) -> Any:
    assert response.status_code == status, response.text
    return response.json()


def system_texts(client: httpx.Client, token: str, game_id: int) -> list[str]:
    found = ok(client.get(f"/games/{game_id}/messages", headers=auth(token)))
    return [m["text"] for m in found["messages"] if m["kind"] == "system"]


def offer(
    client: httpx.Client, token: str, game_id: int, mode: str, partner: str | None = None
) -> None:
    body = {"mode": mode} | ({"partner": partner} if partner else {})
    ok(client.post(f"/games/{game_id}/offers", json=body, headers=auth(token)), 201)


@pytest.fixture(scope="module")
def before_rename(
    server: RunningServer, client: httpx.Client, tokens: dict[str, str]
) -> dict[str, int]:
    """dave's games, played under his old name: one finished (with a public trade and a
    withdrawn private offer), one he cancelled by withdrawing, one with his open offer."""
    pair = {"dave": tokens["dave"], "erin": tokens["erin"]}
    finished = started_game(client, pair, size=5)
    gid = finished["id"]
    offer(client, tokens["dave"], gid, "selling")
    trade = {"mode": "buying", "partner": "dave"}
    ok(client.post(f"/games/{gid}/trades", json=trade, headers=auth(tokens["erin"])), 201)
    offer(client, tokens["erin"], gid, "selling", partner="dave")
    ok(client.delete(f"/games/{gid}/offers/me", headers=auth(tokens["erin"])))
    game = get_game(client, tokens["dave"], gid)
    by_seat = {s["seat"]: tokens[s["username"]] for s in game["seats"]}
    state = play_scripts(client, by_seat, game, {"south": list(SOUTH), "north": list(NORTH)})
    assert state["status"] == "finished"
    cancelled = started_game(client, pair, size=5)
    ok(client.delete(f"/games/{cancelled['id']}/players/me", headers=auth(tokens["dave"])))
    open_offer = started_game(client, pair, size=5)
    offer(client, tokens["dave"], open_offer["id"], "buying")
    # as it was: the old name is everywhere
    assert any(OLD.search(text) for text in system_texts(client, tokens["erin"], gid))
    ok(client.patch("/users/me", json={"username": "davey"}, headers=auth(tokens["dave"])))
    # somebody else signs up with the freed name
    tokens["impostor"] = make_user(
        server.base_url, server.mail_dir, "dave", email="another-dave@example.test"
    )
    return {"finished": gid, "cancelled": cancelled["id"], "open_offer": open_offer["id"]}


def test_every_system_message_shows_the_new_name_to_every_reader(
    client: httpx.Client, tokens: dict[str, str], before_rename: dict[str, int]
) -> None:
    gid = before_rename["finished"]
    for reader in ("erin", "dave", "rnwatch", "impostor"):
        seen = system_texts(client, tokens[reader], gid)
        assert not [text for text in seen if OLD.search(text)], (reader, seen)
        assert seen[0] == "davey created the game (5x5, 2 players)"
        assert "davey offers to sell a wall (wall cost 8)" in seen
        assert "davey sold a wall to erin on davey's offer (wall cost 8)" in seen
        assert re.search(r"won the game\. Scores: .*\bdavey \d+", seen[-1]), seen[-1]
    private = system_texts(client, tokens["dave"], gid)
    assert "erin privately offers davey to sell a wall (wall cost 8)" in private
    cancelled = system_texts(client, tokens["erin"], before_rename["cancelled"])
    assert cancelled[-1] == "The game was cancelled: davey withdrew"


def test_the_new_holder_of_the_old_name_appears_in_none_of_the_old_games(
    client: httpx.Client, tokens: dict[str, str], before_rename: dict[str, int]
) -> None:
    impostor = tokens["impostor"]
    mine = ok(client.get("/games", params={"user": "me"}, headers=auth(impostor)))
    assert mine["games"] == []
    assert ok(client.get("/users/dave/highscores"))["highscores"] == []
    for gid in before_rename.values():
        game = get_game(client, impostor, gid)
        assert not OLD.search(str(game)), game
        assert not [t for t in system_texts(client, impostor, gid) if OLD.search(t)]


def test_every_view_that_names_the_user_shows_the_new_name(
    client: httpx.Client, tokens: dict[str, str], before_rename: dict[str, int]
) -> None:
    token = tokens["rnwatch"]
    finished = get_game(client, token, before_rename["finished"])
    assert finished["admin"] == "davey"
    assert {s["username"] for s in finished["seats"]} == {"davey", "erin"}
    assert set(finished["scores"]) == {"davey", "erin"}
    assert finished["winner"] in {"davey", "erin"}
    assert {a["username"] for a in finished["last_actions"]} == {"davey", "erin"}
    assert {a["username"] for a in history(client, token, finished["id"])} == {"davey", "erin"}
    cancelled = get_game(client, token, before_rename["cancelled"])
    assert cancelled["cancel_reason"] == "davey withdrew"
    with_offer = get_game(client, token, before_rename["open_offer"])
    assert [o["username"] for o in with_offer["offers"]] == ["davey"]

    listed = ok(client.get("/games", params={"user": "davey"}, headers=auth(token)))["games"]
    assert {g["id"] for g in listed} == set(before_rename.values())
    assert all("davey" in g["usernames"] for g in listed)
    assert not OLD.search(str(listed))
    best = ok(client.get("/users/davey/highscores"))["highscores"]
    assert [h["game_id"] for h in best] == [before_rename["finished"]]
    board = ok(client.get("/leaderboards", params={"size": 5, "players": 2}))["entries"]
    assert {e["username"] for e in board} == {"davey", "erin"}
