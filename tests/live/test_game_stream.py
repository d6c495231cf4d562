"""GET /api/v1/games/{id}/events: a game followed live, as each reader may see it.

A real server, real HTTP streams (tests/support/sse.py reads them in a thread), changes
made through the API as players make them.
"""

from __future__ import annotations

import json
import time
from typing import Any

import httpx

from tests.api.mode_helpers import Match, act, best_step, pick_wall, start
from tests.support.games import get_game, play, started_game
from tests.support.server import RunningServer
from tests.support.sse import EventReader, without_presence
from tests.support.users import auth, insert_user


def _events_url(server: RunningServer, game_id: int) -> str:
    return f"{server.api}/games/{game_id}/events"


def _first_move(game: dict[str, Any]) -> str:
    return "e2" if game["turn"] == "south" else "e8"


def _step(client: httpx.Client, match: Match) -> str:
    """The player to move steps towards its goal; the square."""
    step = best_step(match.mirror)
    act(client, match, "jump" if step.jump else "move", str(step.to))
    return str(step.to)


def test_a_spectator_gets_the_game_then_each_move_as_it_is_made(
    server: RunningServer, client: httpx.Client
) -> None:
    tokens = {name: insert_user(server.database_url, name) for name in ("ada", "ben")}
    watcher = insert_user(server.database_url, "watcher1")
    game = started_game(client, tokens)
    gid = game["id"]
    with EventReader(_events_url(server, gid), watcher) as events:
        assert events.status == 200
        assert events.content_type is not None
        assert events.content_type.startswith("text/event-stream")
        first = events.next()
        assert first["event"] == "game"  # the first event is the whole game
        shown = get_game(client, watcher, gid)
        assert without_presence(first["data"]) == without_presence(shown)
        assert first["id"].split(".")[0] == str(shown["revision"])

        mover = tokens[game["turn_username"]]
        made = time.monotonic()
        answer = play(client, mover, gid, "move", _first_move(game))
        assert answer.status_code == 201, answer.text
        action = events.next("action")
        assert action["data"]["n"] == 1 and action["data"]["notation"] == _first_move(game)
        after = events.next("game")
        assert after["data"]["revision"] == answer.json()["revision"]
        assert after["id"].split(".")[0] == str(answer.json()["revision"])
        assert after["data"]["last_actions"][-1]["notation"] == _first_move(game)
        assert after["received"] - made < 2.0
        # the move's system message comes too, numbered as the reader numbers them
        message = events.next("message")
        assert message["data"]["kind"] == "system"
        listed = client.get(f"/games/{gid}/messages", headers=auth(watcher)).json()
        assert message["data"] == listed["messages"][-1]
        assert message["id"] == f"{answer.json()['revision']}.{message['data']['id']}"


def test_keepalive_comments_keep_an_idle_stream_open(
    server: RunningServer, client: httpx.Client
) -> None:
    tokens = {name: insert_user(server.database_url, name) for name in ("cara", "dov")}
    game = started_game(client, tokens)
    with EventReader(_events_url(server, game["id"]), tokens["cara"]) as events:
        events.next("game")
        # STREAM_KEEPALIVE=1 on this server: two keepalives come within about 2 s
        deadline = time.monotonic() + 10
        while events.comments < 2 and not events.ended.is_set():
            assert time.monotonic() < deadline, f"{events.comments} keepalives in 10 s"
            time.sleep(0.05)
        assert events.comments >= 2
        assert not events.ended.is_set()


def test_a_resumed_stream_gets_what_it_missed_then_the_live_events(
    server: RunningServer, client: httpx.Client
) -> None:
    tokens = {name: insert_user(server.database_url, name) for name in ("eve", "fay")}
    watcher = insert_user(server.database_url, "watcher2")
    match = start(client, tokens)
    with EventReader(_events_url(server, match.id), watcher) as events:
        last = events.next("game")["id"]
        events.drain(0.3)
    # while nobody listens: two moves and a message
    _step(client, match)
    _step(client, match)
    sent = client.post(
        f"/games/{match.id}/messages", json={"text": "gg"}, headers=auth(match.by_seat["south"])
    )
    assert sent.status_code == 201, sent.text
    for resume in ({"headers": {"Last-Event-ID": last}}, {"params": {"since": last}}):
        with EventReader(_events_url(server, match.id), watcher, **resume) as events:  # type: ignore[arg-type]
            got = events.drain(0.7)
        names = [e["event"] for e in got]
        assert names[:3] == ["action", "action", "game"], names
        assert [e["data"]["n"] for e in got[:2]] == [1, 2]
        assert got[2]["data"]["revision"] == match.game["revision"]
        texts = [e["data"]["text"] for e in got if e["event"] == "message"]
        assert texts[-1] == "gg" and len(texts) == 3  # two moves' system messages, then gg
        ids = [e["id"] for e in got]
        assert ids == sorted(ids, key=lambda i: tuple(int(p) for p in i.split(".")))

    # resuming from the last id gets only the game again, and stays live
    final_id = got[-1]["id"]
    with EventReader(
        _events_url(server, match.id), watcher, headers={"Last-Event-ID": final_id}
    ) as events:
        assert [e["event"] for e in events.drain(0.5)] == ["game"]
        square = _step(client, match)
        assert events.next("action")["data"]["notation"] == square


def test_an_invisible_wall_never_reaches_a_spectator_or_the_opponent(
    server: RunningServer, client: httpx.Client
) -> None:
    tokens = {name: insert_user(server.database_url, name) for name in ("gus", "hal")}
    watcher = insert_user(server.database_url, "watcher3")
    match = start(client, tokens, invisible=True)
    placer_seat = match.mirror.turn
    assert placer_seat is not None
    placer = match.names[placer_seat.value]
    opponent = next(name for seat, name in match.names.items() if seat != placer_seat.value)
    wall = pick_wall(match.mirror, frozenset())
    assert wall is not None
    readers = {
        "watcher": EventReader(_events_url(server, match.id), watcher).start(),
        "opponent": EventReader(_events_url(server, match.id), tokens[opponent]).start(),
        "placer": EventReader(_events_url(server, match.id), tokens[placer]).start(),
    }
    try:
        for reader in readers.values():
            reader.next("game")
        act(client, match, "wall", wall)
        for reader in readers.values():
            reader.next("action")
            reader.next("game")
            reader.next("message")
        time.sleep(0.3)  # pacing: no more events must come
    finally:
        for reader in readers.values():
            reader.close()
    # the placer sees its own wall; nobody else receives its square, in any event
    assert any(wall in line for line in readers["placer"].lines)
    for who in ("watcher", "opponent"):
        text = "\n".join(readers[who].lines)
        assert wall not in text, f"the {who} received {wall}"
        actions = [
            json.loads(line[6:])
            for line in readers[who].lines
            if line.startswith("data: ") and '"type":"wall"' in line
        ]
        assert actions and all(a.get("notation") in (None, "") for a in actions), actions


def test_a_private_game_is_not_found_for_others_and_dms_reach_only_their_two_readers(
    server: RunningServer, client: httpx.Client
) -> None:
    tokens = {name: insert_user(server.database_url, name) for name in ("ivy", "jon", "kim", "lea")}
    outsider = insert_user(server.database_url, "outsider")
    game = started_game(client, tokens, private=True)
    gid = game["id"]
    refused = EventReader(_events_url(server, gid), outsider).start()
    refused.close()
    assert refused.status == 404
    assert refused.error_body["reason"] == "game_not_found"
    readers = {
        name: EventReader(_events_url(server, gid), tok).start() for name, tok in tokens.items()
    }
    try:
        for reader in readers.values():
            reader.next("game")
        dm = client.post(
            f"/games/{gid}/messages",
            json={"text": "psst kim", "to": "kim"},
            headers=auth(tokens["ivy"]),
        )
        assert dm.status_code == 201, dm.text
        assert readers["kim"].next("message")["data"]["text"] == "psst kim"
        assert readers["ivy"].next("message")["data"]["text"] == "psst kim"
        time.sleep(0.5)  # pacing: no more events must come
    finally:
        for reader in readers.values():
            reader.close()
    assert not any("psst" in line for line in readers["jon"].lines)
    # no trace either: jon's stream sent no event for it at all
    assert [e for e in readers["jon"].drain(0.1) if e["event"] == "message"] == []


def _presence(reader: EventReader, expected: list[str]) -> None:
    """Presence events come until the online players are `expected`."""
    deadline = time.monotonic() + 3
    while True:
        found = reader.next("presence", timeout=max(0.1, deadline - time.monotonic()))
        if found["data"]["online"] == expected:
            return


def test_presence_says_which_players_hold_a_stream(
    server: RunningServer, client: httpx.Client
) -> None:
    tokens = {name: insert_user(server.database_url, name) for name in ("lou", "max")}
    game = started_game(client, tokens)
    gid = game["id"]
    assert get_game(client, tokens["max"], gid)["online"] == []
    with EventReader(_events_url(server, gid), tokens["lou"]) as lou:
        lou.next("game")
        assert get_game(client, tokens["max"], gid)["online"] == ["lou"]
        with EventReader(_events_url(server, gid), tokens["max"]) as max_:
            max_.next("game")
            _presence(lou, ["lou", "max"])
        _presence(lou, ["lou"])
    deadline = time.monotonic() + 3
    while get_game(client, tokens["max"], gid)["online"] and time.monotonic() < deadline:
        time.sleep(0.05)
    assert get_game(client, tokens["max"], gid)["online"] == []


def test_a_players_markers_reach_its_own_stream_only(
    server: RunningServer, client: httpx.Client
) -> None:
    tokens = {name: insert_user(server.database_url, name) for name in ("ned", "ola")}
    game = started_game(client, tokens, invisible=True)
    gid = game["id"]
    with EventReader(_events_url(server, gid), tokens["ned"]) as ned, EventReader(
        _events_url(server, gid), tokens["ola"]
    ) as ola:
        ned.next("game")
        ola.next("game")
        marked = client.post(
            f"/games/{gid}/markers", json={"marker": "d4h"}, headers=auth(tokens["ned"])
        )
        assert marked.status_code in (200, 201), marked.text
        view = ned.next("game")
        assert [m["marker"] for m in view["data"]["markers"]] == ["d4h"]
        time.sleep(0.5)  # pacing: nothing must reach ola
        assert [e for e in ola.drain(0.1) if e["event"] != "presence"] == []
        assert not any("d4h" in line for line in ola.lines)


def test_anybody_may_watch_a_public_game_without_a_login_but_no_private_one(
    server: RunningServer, client: httpx.Client
) -> None:
    tokens = {name: insert_user(server.database_url, name) for name in ("pub1", "pub2")}
    public = started_game(client, tokens)
    private = started_game(client, tokens, private=True)
    with EventReader(_events_url(server, public["id"]), None) as anonymous:
        assert anonymous.status == 200
        first = anonymous.next("game")["data"]
        assert first["id"] == public["id"] and first["invitation_code"] is None
        answer = play(client, tokens[public["turn_username"]], public["id"], "move",
                      _first_move(public))
        assert answer.status_code == 201, answer.text
        assert anonymous.next("action")["data"]["n"] == 1
    refused = EventReader(_events_url(server, private["id"]), None).start()
    refused.close()
    assert refused.status == 404


def test_several_games_on_one_stream(server: RunningServer, client: httpx.Client) -> None:
    first = start(client, {n: insert_user(server.database_url, n) for n in ("mg1", "mg2")})
    second = start(client, {n: insert_user(server.database_url, n) for n in ("mg3", "mg4")})
    private = started_game(
        client, {n: insert_user(server.database_url, n) for n in ("mg5", "mg6")}, private=True
    )
    url = f"{server.api}/games/events"
    with EventReader(url, None, params={"ids": f"{first.id},{second.id}"}) as events:
        shown = {events.next("game")["data"]["id"], events.next("game")["data"]["id"]}
        assert shown == {first.id, second.id}
        _step(client, second)
        _step(client, first)
        moved = [events.next("game")["data"]["id"], events.next("game")["data"]["id"]]
        assert moved == [second.id, first.id]
    for ids, status, reason in (
        (f"{first.id},{private['id']}", 404, "game_not_found"),
        (",", 422, "invalid_game_ids"),
        ("", 422, "invalid_game_ids"),
        ("1,x", 422, "invalid_game_ids"),
        (",".join(str(i) for i in range(1, 18)), 422, "invalid_game_ids"),
    ):
        answer = httpx.get(url, params={"ids": ids}, timeout=5)
        assert answer.status_code == status, (ids, answer.text)
        assert answer.json()["reason"] == reason
