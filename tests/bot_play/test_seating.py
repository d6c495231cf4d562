"""Bot users and seating bots (SPEC §13) through the real API, with BOT_WORKERS=0: the
bots are seated but nobody plays them here (the driver has tests of its own)."""

from __future__ import annotations

from collections.abc import Iterator

import httpx
import pytest

from tests.support.games import get_game, new_game
from tests.support.server import RunningServer, running_server
from tests.support.users import DEFAULT_PASSWORD, auth, insert_user


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[RunningServer]:
    with running_server(tmp_path_factory.mktemp("server"), bot_workers=0) as running:
        yield running


@pytest.fixture(scope="module")
def client(server: RunningServer) -> Iterator[httpx.Client]:
    with httpx.Client(base_url=server.api, timeout=10.0) as http:
        yield http


@pytest.fixture(scope="module")
def tokens(server: RunningServer) -> dict[str, str]:
    return {name: insert_user(server.database_url, name) for name in ("ann", "bob")}


def test_the_server_makes_one_bot_per_level_shown_with_its_level(
    client: httpx.Client, tokens: dict[str, str]
) -> None:
    for level in range(1, 7):
        shown = client.get(f"/users/bot-{level}", headers=auth(tokens["ann"]))
        assert shown.status_code == 200, shown.text
        assert shown.json()["bot"] == {"level": level}
    person = client.get("/users/ann", headers=auth(tokens["bob"])).json()
    assert person["bot"] is None


def test_a_login_as_a_bot_is_refused_with_a_reason(client: httpx.Client) -> None:
    refused = client.post("/sessions", json={"username": "bot-3", "password": DEFAULT_PASSWORD})
    assert refused.status_code == 403
    assert refused.json()["reason"] == "bot_account"
    assert "bot" in refused.json()["message"]


def test_the_creator_seats_a_bot_and_the_game_starts(
    client: httpx.Client, tokens: dict[str, str]
) -> None:
    game = new_game(client, tokens["ann"], size=5)
    seated = client.post(
        f"/games/{game['id']}/bots", json={"level": 2}, headers=auth(tokens["ann"])
    )
    assert seated.status_code == 201, seated.text
    view = seated.json()
    assert view["status"] == "started"
    assert view["bots"] == {"bot-2": {"level": 2}}
    assert sorted(seat["username"] for seat in view["seats"]) == ["ann", "bot-2"]
    listed = client.get("/games", params={"status": "started"}, headers=auth(tokens["ann"]))
    row = next(g for g in listed.json()["games"] if g["id"] == game["id"])
    assert row["bots"] == {"bot-2": {"level": 2}}


@pytest.mark.parametrize(
    ("who", "body", "status", "reason"),
    [
        ("ann", {"level": 0}, 422, "invalid_bot_level"),
        ("ann", {"level": 7}, 422, "invalid_bot_level"),
        ("ann", {"level": "2"}, 400, "bad_request"),
        ("bob", {"level": 2}, 403, "not_game_admin"),
    ],
)
def test_bad_seating_is_refused_and_changes_nothing(
    client: httpx.Client,
    tokens: dict[str, str],
    who: str,
    body: dict[str, object],
    status: int,
    reason: str | None,
) -> None:
    game = new_game(client, tokens["ann"], players=4, size=5)
    refused = client.post(f"/games/{game['id']}/bots", json=body, headers=auth(tokens[who]))
    assert refused.status_code == status, refused.text
    if reason is not None:
        assert refused.json()["reason"] == reason
    after = get_game(client, tokens["ann"], game["id"])
    assert (after["revision"], after["waiting_players"]) == (game["revision"], ["ann"])


def test_a_level_seated_again_is_another_bot_and_a_started_game_refuses_a_bot(
    client: httpx.Client, tokens: dict[str, str]
) -> None:
    four = new_game(client, tokens["ann"], players=4, size=5)
    first = client.post(f"/games/{four['id']}/bots", json={"level": 1}, headers=auth(tokens["ann"]))
    assert first.status_code == 201
    again = client.post(f"/games/{four['id']}/bots", json={"level": 1}, headers=auth(tokens["ann"]))
    assert again.status_code == 201, again.text
    assert again.json()["bots"] == {"bot-1": {"level": 1}, "bot-1b": {"level": 1}}
    assert client.get("/users/bot-1b").json()["bot"] == {"level": 1}
    two = new_game(client, tokens["ann"], size=5, bots=[1])
    assert two["status"] == "started"
    late = client.post(
        f"/games/{two['id']}/bots", json={"level": 2}, headers=auth(tokens["ann"])
    )
    assert (late.status_code, late.json()["reason"]) == (409, "game_not_waiting")
    assert get_game(client, tokens["ann"], two["id"])["revision"] == two["revision"]


def test_a_game_is_created_with_bots_or_not_at_all(
    client: httpx.Client, tokens: dict[str, str]
) -> None:
    game = new_game(client, tokens["bob"], players=4, size=5, bots=[1, 2, 3])
    assert game["status"] == "started"
    assert game["bots"] == {f"bot-{n}": {"level": n} for n in (1, 2, 3)}
    before = client.get("/games", params={"user": "me"}, headers=auth(tokens["bob"])).json()
    for bots, reason in (([7], "invalid_bot_level"), ([1, 2], "too_many_bots")):
        players = 2 if reason == "too_many_bots" else 4
        refused = client.post(
            "/games", json={"players": players, "size": 5, "bots": bots},
            headers=auth(tokens["bob"]),
        )
        assert (refused.status_code, refused.json()["reason"]) == (422, reason), refused.text
    after = client.get("/games", params={"user": "me"}, headers=auth(tokens["bob"])).json()
    assert after == before


def test_one_level_fills_every_seat_of_a_game_of_bots_only(
    client: httpx.Client, tokens: dict[str, str]
) -> None:
    names = ("bot-5", "bot-5b", "bot-5c", "bot-5d")
    game = new_game(client, tokens["bob"], players=4, size=5, bots=[5, 5, 5, 5], join=False)
    assert game["status"] == "started"
    assert game["bots"] == {name: {"level": 5} for name in names}
    assert sorted(seat["username"] for seat in game["seats"]) == sorted(names)
    again = new_game(client, tokens["ann"], players=4, size=5, bots=[5, 5, 5], join=True)
    assert set(again["bots"]) == {"bot-5", "bot-5b", "bot-5c"}  # the same bots again
