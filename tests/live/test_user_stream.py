"""GET /api/v1/users/me/events: one stream for everything that concerns the caller."""

from __future__ import annotations

import time

import httpx

from tests.support.games import join, new_game, play
from tests.support.server import RunningServer
from tests.support.sse import EventReader
from tests.support.users import auth, insert_user


def test_turns_starts_invitations_dms_and_the_end_reach_the_players_streams(
    server: RunningServer, client: httpx.Client
) -> None:
    tokens = {name: insert_user(server.database_url, name) for name in ("wes", "xia", "yul")}
    url = f"{server.api}/users/me/events"
    waiting = new_game(client, tokens["wes"])  # a game of wes's before the stream opens
    with EventReader(url, tokens["wes"]) as wes, EventReader(url, tokens["xia"]) as xia, (
        EventReader(url, tokens["yul"])
    ) as yul:
        first = wes.next()
        assert first["event"] == "games"
        assert [g["id"] for g in first["data"]["games"]] == [waiting["id"]]
        assert xia.next()["data"] == {"games": []}
        yul.next("games")

        # an invitation reaches the invitee, with the code to join
        game = new_game(client, tokens["wes"], invitees=["xia"], private=True)
        invited = xia.next("invited")
        assert invited["data"]["game"]["id"] == game["id"]
        assert invited["data"]["invitation_code"] == game["invitation_code"]
        assert invited["data"]["by"] == "wes"

        joined = join(client, tokens["xia"], game["id"], invitation_code=game["invitation_code"])
        assert joined.status_code == 201, joined.text
        started = joined.json()
        assert wes.next("started")["data"]["game"]["id"] == game["id"]
        assert xia.next("started")["data"]["game"]["id"] == game["id"]
        first_to_move = started["turn_username"]
        other = "xia" if first_to_move == "wes" else "wes"
        streams = {"wes": wes, "xia": xia}
        turn = streams[first_to_move].next("turn")
        assert turn["data"]["game"]["turn_username"] == first_to_move

        square = "e2" if started["turn"] == "south" else "e8"
        moved = play(client, tokens[first_to_move], game["id"], "move", square)
        assert moved.status_code == 201, moved.text
        assert streams[other].next("turn")["data"]["game"]["id"] == game["id"]

        dm = client.post(
            f"/games/{game['id']}/messages",
            json={"text": "nice move", "to": first_to_move},
            headers=auth(tokens[other]),
        )
        assert dm.status_code == 201, dm.text
        got = streams[first_to_move].next("dm")
        assert got["data"]["message"]["text"] == "nice move"
        assert got["data"]["message"]["from"] == other

        cancelled = client.delete(f"/games/{game['id']}", headers=auth(tokens["wes"]))
        assert cancelled.status_code == 200, cancelled.text
        assert xia.next("cancelled")["data"]["game"]["status"] == "cancelled"
        time.sleep(0.3)  # pacing: nothing must reach yul
    # yul, who has nothing to do with that game, heard nothing of it
    assert [e["event"] for e in yul.drain(0.1)] == []
    assert [line for line in yul.lines if line.startswith("event:")] == ["event: games"]


def test_a_user_stream_is_not_for_anonymous_callers(server: RunningServer) -> None:
    answer = httpx.get(f"{server.api}/users/me/events", timeout=5)
    assert answer.status_code == 401
    assert answer.json()["reason"] == "unauthenticated"
