"""The board at an earlier action counts the wall trades made by then (SPEC §5, issue 5)."""

from __future__ import annotations

import httpx

from tests.support.games import play, started_game
from tests.support.server import RunningServer
from tests.support.users import auth, insert_user


def _walls_left_at(client: httpx.Client, token: str, game_id: int, n: int) -> dict[str, int]:
    response = client.get(f"/games/{game_id}", params={"at": n}, headers=auth(token))
    assert response.status_code == 200, response.text
    return {seat["username"]: seat["walls_left"] for seat in response.json()["seats"]}


def _step_towards_goal(seat: str) -> str:
    return "south" if seat == "north" else "north"


def test_a_trade_shows_in_the_walls_left_from_the_next_action_on(
    server: RunningServer, client: httpx.Client
) -> None:
    tokens = {name: insert_user(server.database_url, name) for name in ("posann", "posbob")}
    game = started_game(client, tokens, size=5)
    seat_of = {seat["username"]: seat["seat"] for seat in game["seats"]}
    user_at = {seat: name for name, seat in seat_of.items()}
    first = user_at[game["turn"]]
    second = next(name for name in tokens if name != first)

    moved = play(client, tokens[first], game["id"], "move", _step_towards_goal(seat_of[first]))
    assert moved.status_code == 201, moved.text
    offer = client.post(
        f"/games/{game['id']}/offers", json={"mode": "selling"}, headers=auth(tokens[first])
    )
    assert offer.status_code == 201, offer.text
    trade = client.post(
        f"/games/{game['id']}/trades",
        json={"mode": "buying", "partner": first},
        headers=auth(tokens[second]),
    )
    assert trade.status_code == 201, trade.text
    moved = play(client, tokens[second], game["id"], "move", _step_towards_goal(seat_of[second]))
    assert moved.status_code == 201, moved.text

    assert _walls_left_at(client, tokens[first], game["id"], 0) == {first: 5, second: 5}
    assert _walls_left_at(client, tokens[first], game["id"], 1) == {first: 4, second: 6}
    now = {seat["username"]: seat["walls_left"] for seat in moved.json()["seats"]}
    assert _walls_left_at(client, tokens[first], game["id"], 2) == now == {first: 4, second: 6}
