"""Game messages end to end (SPEC §8): system messages, broadcasts, DMs, limit, mute, admin."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import httpx
import pytest

from tests.support.games import get_game, new_game, play, play_scripts, started_game
from tests.support.server import RunningServer, running_server
from tests.support.users import auth, insert_user

NAMES = ("amy", "ben", "cal", "dot", "out")
LIMIT = 4
# 5x5: South walks c1 -> c5 (wins), North walks c5 -> a5 -> a1, never in the way; South
# first places the wall d1v, which blocks nobody.
SOUTH = [("wall", "d1v"), ("move", "north"), ("move", "c3"), ("move", "c4"), ("move", "c5")]
NORTH = [("move", "west"), ("move", "a5"), ("move", "a4"), ("move", "a3"), ("move", "a2")]


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[RunningServer]:
    with running_server(tmp_path_factory.mktemp("server"), MESSAGE_LIMIT=LIMIT) as running:
        yield running


@pytest.fixture(scope="module")
def tokens(server: RunningServer) -> dict[str, str]:
    found = {name: insert_user(server.database_url, name) for name in NAMES}
    found["root"] = insert_user(server.database_url, "root", is_admin=True)
    return found


def read(client: httpx.Client, token: str, game_id: int, **params: Any) -> httpx.Response:
    return client.get(f"/games/{game_id}/messages", params=params, headers=auth(token))


def texts(client: httpx.Client, token: str, game_id: int) -> list[str]:
    response = read(client, token, game_id)
    assert response.status_code == 200, response.text
    return [m["text"] for m in response.json()["messages"]]


def send(
    client: httpx.Client, token: str, game_id: int, text: str, to: str | None = None
) -> httpx.Response:
    body: dict[str, Any] = {"text": text}
    if to is not None:
        body["to"] = to
    return client.post(f"/games/{game_id}/messages", json=body, headers=auth(token))


def mute(
    client: httpx.Client, token: str, game_id: int, name: str, muted: bool = True
) -> httpx.Response:
    body = {"username": name, "muted": muted}
    return client.post(f"/games/{game_id}/mutes", json=body, headers=auth(token))


def play_out(client: httpx.Client, tokens: dict[str, str], game: dict[str, Any]) -> None:
    by_seat = {s["seat"]: tokens[s["username"]] for s in game["seats"]}
    play_scripts(client, by_seat, game, {"south": list(SOUTH), "north": list(NORTH)})


def seat_names(game: dict[str, Any]) -> dict[str, str]:
    return {s["seat"]: s["username"] for s in game["seats"]}


def test_every_change_of_a_game_writes_a_system_message(
    client: httpx.Client, tokens: dict[str, str]
) -> None:
    game = started_game(client, {"amy": tokens["amy"], "ben": tokens["ben"]}, size=5)
    gid = game["id"]
    seats = seat_names(game)
    first = seats[game["turn"]]
    assert texts(client, tokens["amy"], gid) == [
        "amy created the game (5x5, 2 players)",
        "ben joined the game",
        f"The game started: {seats['north']} plays North, {seats['south']} plays South. "
        f"{first} moves first.",
    ]
    play_out(client, tokens, game)
    south, north = seats["south"], seats["north"]
    got = texts(client, tokens["out"], gid)
    assert f"{south} (South) placed wall d1v" in got
    assert f"{north} (North) moved to b5" in got
    assert f"{south} (South) moved to c5" in got
    assert got[-1].startswith(f"{south} won the game. Scores: {south} ")
    cancelled = new_game(client, tokens["amy"])
    assert client.delete(f"/games/{cancelled['id']}", headers=auth(tokens["amy"])).is_success
    assert texts(client, tokens["amy"], cancelled["id"])[-1] == (
        "The game was cancelled: cancelled by amy"
    )


def test_masked_walls_get_no_message_and_invisible_walls_are_told_without_where(
    client: httpx.Client, tokens: dict[str, str]
) -> None:
    pair = {"amy": tokens["amy"], "ben": tokens["ben"]}
    masked = started_game(client, pair, size=5, masked=True)
    invisible = started_game(client, pair, size=5, invisible=True)
    for game in (masked, invisible):
        by_seat = {s["seat"]: tokens[s["username"]] for s in game["seats"]}
        if game["turn"] == "north":
            assert play(client, by_seat["north"], game["id"], "move", "west").status_code == 201
        placed = play(client, by_seat["south"], game["id"], "wall", "d1v")
        assert placed.status_code == 201, placed.text
    for name in ("amy", "ben", "out"):
        seen = texts(client, tokens[name], masked["id"])
        assert not any("placed" in text or "d1v" in text for text in seen), seen
    placer = seat_names(invisible)["south"]
    other = seat_names(invisible)["north"]
    assert f"{placer} (South) placed wall d1v" in texts(client, tokens[placer], invisible["id"])
    for name in (other, "out"):
        seen = texts(client, tokens[name], invisible["id"])
        assert f"{placer} (South) placed a wall" in seen
        assert not any("d1v" in text for text in seen)


def test_after_the_finish_an_invisible_wall_message_is_revealed(
    client: httpx.Client, tokens: dict[str, str]
) -> None:
    game = started_game(
        client, {"cal": tokens["cal"], "dot": tokens["dot"]}, size=5, invisible=True
    )
    placer = seat_names(game)["south"]
    play_out(client, tokens, game)
    assert get_game(client, tokens["out"], game["id"])["status"] == "finished"
    assert f"{placer} (South) placed wall d1v" in texts(client, tokens["out"], game["id"])


def test_broadcasts_dms_and_who_reads_them(client: httpx.Client, tokens: dict[str, str]) -> None:
    four = {name: tokens[name] for name in ("amy", "ben", "cal", "dot")}
    game = started_game(client, four, size=5)
    gid = game["id"]
    hello = send(client, tokens["amy"], gid, "  hello all  ")
    assert hello.status_code == 201, hello.text
    assert {k: hello.json()[k] for k in ("kind", "from", "to", "text")} == {
        "kind": "broadcast",
        "from": "amy",
        "to": None,
        "text": "hello all",
    }
    dm = send(client, tokens["amy"], gid, "psst ben", to="BEN")
    assert dm.status_code == 201 and dm.json()["kind"] == "dm" and dm.json()["to"] == "ben"
    for name in ("amy", "ben"):
        assert {"hello all", "psst ben"} <= set(texts(client, tokens[name], gid))
    for name in ("cal", "dot", "out"):
        seen = texts(client, tokens[name], gid)
        assert "hello all" in seen and "psst ben" not in seen
    after = read(client, tokens["ben"], gid, after=hello.json()["id"]).json()["messages"]
    assert [m["text"] for m in after] == ["psst ben"]

    private = started_game(client, {"amy": tokens["amy"], "ben": tokens["ben"]}, private=True)
    assert send(client, tokens["amy"], private["id"], "secret plans").status_code == 201
    hidden = read(client, tokens["out"], private["id"])
    assert hidden.status_code == 404 and hidden.json()["reason"] == "game_not_found"
    assert read(client, tokens["root"], private["id"]).json()["messages"] == []
    assert "secret plans" in texts(client, tokens["ben"], private["id"])


def test_refused_messages_store_nothing(client: httpx.Client, tokens: dict[str, str]) -> None:
    game = started_game(client, {"amy": tokens["amy"], "ben": tokens["ben"]}, size=5)
    gid = game["id"]
    before = {name: texts(client, tokens[name], gid) for name in ("amy", "ben", "out")}
    refusals = [
        (send(client, tokens["amy"], gid, "hi cal", to="cal"), 422, "not_a_player_of_game"),
        (send(client, tokens["amy"], gid, "hi ghost", to="ghost"), 404, "user_not_found"),
        (send(client, tokens["amy"], gid, "me", to="amy"), 422, "invalid_recipient"),
        (send(client, tokens["out"], gid, "let me in"), 403, "not_a_player"),
        (send(client, tokens["amy"], gid, "   "), 422, "invalid_message"),
        (send(client, tokens["amy"], gid, "x" * 501), 422, "invalid_message"),
        # control characters would act on the readers' terminals (issue 13)
        (send(client, tokens["amy"], gid, "\u007f\u0001\u001b[31m"), 422, "invalid_message"),
        (send(client, tokens["amy"], gid, "red\u001b[31mALERT"), 422, "invalid_message"),
        (send(client, tokens["amy"], gid, "two\nlines"), 422, "invalid_message"),
        (send(client, tokens["amy"], gid, "abc\u202edcba"), 422, "invalid_message"),
        (send(client, tokens["amy"], gid, "c1 \u009b31m"), 422, "invalid_message"),
        (send(client, tokens["amy"], 999_999, "anyone?"), 404, "game_not_found"),
        (mute(client, tokens["amy"], gid, "cal"), 422, "not_a_player_of_game"),
        (mute(client, tokens["amy"], gid, "amy"), 422, "invalid_mute"),
        (mute(client, tokens["out"], gid, "amy"), 403, "not_a_player"),
    ]
    for response, status, reason in refusals:
        assert (response.status_code, response.json()["reason"]) == (status, reason), response.text
    assert {name: texts(client, tokens[name], gid) for name in before} == before
    assert get_game(client, tokens["amy"], gid)["revision"] == game["revision"]


def test_a_player_writes_at_most_the_message_limit_per_game(
    client: httpx.Client, tokens: dict[str, str]
) -> None:
    game = started_game(client, {"amy": tokens["amy"], "ben": tokens["ben"]}, size=5)
    gid = game["id"]
    for number in range(LIMIT):
        assert send(client, tokens["amy"], gid, f"message {number}").status_code == 201
    before = texts(client, tokens["ben"], gid)
    over = send(client, tokens["amy"], gid, "one too many", to="ben")
    assert over.status_code == 409, over.text
    assert over.json()["reason"] == "message_limit_reached" and over.json()["limit"] == LIMIT
    assert texts(client, tokens["ben"], gid) == before
    # The limit is per player and per game: ben and another game are not affected.
    assert send(client, tokens["ben"], gid, "my first").status_code == 201
    other = started_game(client, {"amy": tokens["amy"], "ben": tokens["ben"]}, size=5)
    assert send(client, tokens["amy"], other["id"], "fresh start").status_code == 201


def test_a_muted_players_messages_are_hidden_from_the_muter_only(
    client: httpx.Client, tokens: dict[str, str]
) -> None:
    three = {name: tokens[name] for name in ("amy", "ben", "cal", "dot")}
    game = started_game(client, three, size=5)
    gid = game["id"]
    muted = mute(client, tokens["ben"], gid, "cal")
    assert muted.status_code == 200 and muted.json() == {"muted": ["cal"]}
    assert send(client, tokens["cal"], gid, "spam spam").status_code == 201
    assert send(client, tokens["cal"], gid, "dm spam", to="ben").status_code == 201
    ben_sees = read(client, tokens["ben"], gid).json()
    assert ben_sees["muted"] == ["cal"]
    assert not any("spam" in m["text"] for m in ben_sees["messages"])
    assert any(m["text"].startswith("cal joined") for m in ben_sees["messages"])
    assert "spam spam" in texts(client, tokens["amy"], gid)
    unmuted = mute(client, tokens["ben"], gid, "cal", muted=False)
    assert unmuted.status_code == 200 and unmuted.json() == {"muted": []}
    assert {"spam spam", "dm spam"} <= set(texts(client, tokens["ben"], gid))


def test_only_system_admins_broadcast_to_every_waiting_and_started_game(
    client: httpx.Client, tokens: dict[str, str]
) -> None:
    waiting = new_game(client, tokens["dot"])
    started = started_game(client, {"cal": tokens["cal"], "dot": tokens["dot"]}, size=5)
    cancelled = new_game(client, tokens["dot"])
    assert client.delete(f"/games/{cancelled['id']}", headers=auth(tokens["dot"])).is_success
    before = texts(client, tokens["dot"], waiting["id"])
    refused = client.post(
        "/admin/broadcasts", json={"text": "maintenance at noon"}, headers=auth(tokens["dot"])
    )
    assert refused.status_code == 403 and refused.json()["reason"] == "not_admin"
    assert texts(client, tokens["dot"], waiting["id"]) == before

    done = client.post(
        "/admin/broadcasts", json={"text": "maintenance at noon"}, headers=auth(tokens["root"])
    )
    assert done.status_code == 201, done.text
    assert waiting["id"] in done.json()["games"] and started["id"] in done.json()["games"]
    assert cancelled["id"] not in done.json()["games"]
    notice = "Message from the administrators: maintenance at noon"
    for gid in (waiting["id"], started["id"]):
        assert texts(client, tokens["out"], gid)[-1] == notice
    assert notice not in texts(client, tokens["dot"], cancelled["id"])


def offer(client: httpx.Client, token: str, game_id: int, **body: Any) -> httpx.Response:
    return client.post(f"/games/{game_id}/offers", json=body, headers=auth(token))


def numbers(client: httpx.Client, token: str, game_id: int, **params: Any) -> list[int]:
    response = read(client, token, game_id, **params)
    assert response.status_code == 200, response.text
    return [m["id"] for m in response.json()["messages"]]


def test_private_dealings_between_two_others_leave_no_trace_in_a_readers_numbers(
    client: httpx.Client, tokens: dict[str, str]
) -> None:
    """Message numbers count only what the reader may read: DMs and private offers
    between amy and ben leave no gap, no count and no cursor step for cal or a watcher."""
    four = {name: tokens[name] for name in ("amy", "ben", "cal", "dot")}
    gid = started_game(client, four, size=5)["id"]
    before = {name: numbers(client, tokens[name], gid) for name in ("cal", "out")}
    assert before["cal"] == before["out"] == list(range(1, len(before["cal"]) + 1))

    assert send(client, tokens["amy"], gid, "ally?", to="ben").status_code == 201
    assert send(client, tokens["ben"], gid, "deal", to="amy").status_code == 201
    made = offer(client, tokens["amy"], gid, mode="selling", partner="ben")
    assert made.status_code == 201, made.text
    traded = client.post(
        f"/games/{gid}/trades", json={"mode": "buying", "partner": "amy"},
        headers=auth(tokens["ben"]),
    )
    assert traded.status_code == 201, traded.text
    assert offer(client, tokens["dot"], gid, mode="buying").status_code == 201
    hello = send(client, tokens["dot"], gid, "hello all")
    assert hello.status_code == 201, hello.text

    for name in ("cal", "out"):
        last = before[name][-1]
        assert numbers(client, tokens[name], gid) == [*before[name], last + 1, last + 2]
        newer = read(client, tokens[name], gid, after=last + 1).json()["messages"]
        assert [(m["id"], m["text"]) for m in newer] == [(last + 2, "hello all")]
        assert numbers(client, tokens[name], gid, after=last + 2) == []
        # the open offers they see carry no number either (offer ids count private ones)
        offers = get_game(client, tokens[name], gid)["offers"]
        assert [sorted(o) for o in offers] == [["at", "mode", "partner", "username"]]
    # the sender's answer carries the number its own listing shows
    assert hello.json()["id"] == numbers(client, tokens["dot"], gid)[-1]
    # the two dealers number their private messages in, consecutively
    for name in ("amy", "ben"):
        theirs = numbers(client, tokens[name], gid)
        assert theirs == list(range(1, len(before["cal"]) + 7))


def test_a_private_system_message_names_the_other_party_for_each_of_the_two(
    client: httpx.Client, tokens: dict[str, str]
) -> None:
    gid = started_game(client, {"amy": tokens["amy"], "ben": tokens["ben"]}, size=5)["id"]
    assert offer(client, tokens["ben"], gid, mode="buying", partner="amy").status_code == 201
    for reader, other in (("amy", "ben"), ("ben", "amy")):
        found = read(client, tokens[reader], gid).json()["messages"]
        private = [m for m in found if m["to"] is not None]
        assert [(m["kind"], m["with"]) for m in private] == [("system", other)], private
        assert private[0]["text"].startswith("ben privately offers amy to buy a wall")
    public = read(client, tokens["out"], gid).json()["messages"]
    assert public and all(m["to"] is None and m["with"] is None for m in public)
