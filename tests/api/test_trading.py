"""Wall trading end to end (SPEC §5): offers, withdrawals, trades, every refusal, races."""

from __future__ import annotations

import asyncio
from typing import Any

import httpx
import pytest

from corridorquest.engine import Seat, initial_walls, score_game, wall_cost
from tests.support.games import get_game, new_game, play, started_game
from tests.support.server import RunningServer
from tests.support.users import auth, insert_user

NAMES = ("ann", "bob", "cid", "dee", "eve")
COST_9_2 = wall_cost(9, 2)
COST_5_4 = wall_cost(5, 4)


@pytest.fixture(scope="module")
def tokens(server: RunningServer) -> dict[str, str]:
    return {name: insert_user(server.database_url, name) for name in NAMES}


def offer(
    client: httpx.Client,
    token: str,
    game_id: int,
    mode: str,
    partner: str | None = None,
    **extra: Any,
) -> httpx.Response:
    body: dict[str, Any] = {"mode": mode, **extra}
    if partner is not None:
        body["partner"] = partner
    return client.post(f"/games/{game_id}/offers", json=body, headers=auth(token))


def trade(
    client: httpx.Client, token: str, game_id: int, mode: str, partner: str, **extra: Any
) -> httpx.Response:
    body = {"mode": mode, "partner": partner, **extra}
    return client.post(f"/games/{game_id}/trades", json=body, headers=auth(token))


def withdraw(client: httpx.Client, token: str, game_id: int) -> httpx.Response:
    return client.delete(f"/games/{game_id}/offers/me", headers=auth(token))


def messages(client: httpx.Client, token: str, game_id: int) -> list[str]:
    response = client.get(f"/games/{game_id}/messages", headers=auth(token))
    assert response.status_code == 200, response.text
    return [m["text"] for m in response.json()["messages"]]


def walls(game: dict[str, Any]) -> dict[str | None, int | None]:
    return {seat["username"]: seat["walls_left"] for seat in game["seats"]}


def snapshot(client: httpx.Client, tokens: dict[str, str], game_id: int) -> dict[str, Any]:
    """Everything a refused request must leave as it was, as each player sees it."""
    seen = {}
    for name, token in tokens.items():
        game = get_game(client, token, game_id)
        seen[name] = (
            game["revision"],
            walls(game),
            game["trade_balance"],
            game["offers"],
            messages(client, token, game_id),
        )
    return seen


def players(tokens: dict[str, str], *names: str) -> dict[str, str]:
    return {name: tokens[name] for name in names}


def four_player_5x5(
    client: httpx.Client, tokens: dict[str, str], **options: Any
) -> tuple[dict[str, str], int]:
    """A started 5x5 game of ann, bob, cid and dee: (their tokens, its id)."""
    four = players(tokens, "ann", "bob", "cid", "dee")
    game = started_game(client, four, size=5, **options)
    return four, int(game["id"])


def ann_selling_to_bob(client: httpx.Client, tokens: dict[str, str]) -> int:
    """A started game of ann and bob in which ann offers to sell a wall; its id."""
    game = started_game(client, players(tokens, "ann", "bob"))
    gid = int(game["id"])
    assert offer(client, tokens["ann"], gid, "selling").status_code == 201
    return gid


def test_a_public_sell_offer_is_bought_and_a_wall_and_the_cost_move(
    client: httpx.Client, tokens: dict[str, str]
) -> None:
    game = started_game(client, players(tokens, "ann", "bob"))
    gid, start = game["id"], initial_walls(9, 2)
    assert game["wall_cost"] == COST_9_2 and game["trade_balance"] == 0

    made = offer(client, tokens["ann"], gid, "selling")
    assert made.status_code == 201, made.text
    after_offer = made.json()
    assert after_offer["revision"] == game["revision"] + 1
    assert [(o["username"], o["mode"], o["partner"]) for o in after_offer["offers"]] == [
        ("ann", "selling", None)
    ]
    # Everybody who sees the game reads a public offer, also a non-player.
    assert [o["username"] for o in get_game(client, tokens["eve"], gid)["offers"]] == ["ann"]

    traded = trade(client, tokens["bob"], gid, "buying", "ann")
    assert traded.status_code == 201, traded.text
    bob_view = traded.json()
    assert bob_view["revision"] == game["revision"] + 2
    assert walls(bob_view) == {"ann": start - 1, "bob": start + 1}
    assert bob_view["trade_balance"] == -COST_9_2 and bob_view["offers"] == []
    assert get_game(client, tokens["ann"], gid)["trade_balance"] == COST_9_2
    texts = messages(client, tokens["eve"], gid)
    assert f"ann offers to sell a wall (wall cost {COST_9_2})" in texts
    assert f"ann sold a wall to bob on ann's offer (wall cost {COST_9_2})" in texts


def test_a_buy_offer_is_sold_against_by_a_player_whose_turn_it_is_not(
    client: httpx.Client, tokens: dict[str, str]
) -> None:
    game = started_game(client, players(tokens, "ann", "bob"))
    gid = game["id"]
    mover = game["turn_username"]
    waiter = "bob" if mover == "ann" else "ann"
    assert offer(client, tokens[mover], gid, "buying").status_code == 201
    sold = trade(client, tokens[waiter], gid, "selling", mover)
    assert sold.status_code == 201, sold.text
    start = initial_walls(9, 2)
    assert walls(sold.json()) == {mover: start + 1, waiter: start - 1}
    assert sold.json()["trade_balance"] == COST_9_2
    assert sold.json()["turn_username"] == mover  # a trade is not a turn
    # The traded offer is closed: the offerer may make a new one.
    assert offer(client, tokens[mover], gid, "buying").status_code == 201


def test_withdrawn_offers_disappear_and_cannot_be_traded(
    client: httpx.Client, tokens: dict[str, str]
) -> None:
    gid = ann_selling_to_bob(client, tokens)
    gone = withdraw(client, tokens["ann"], gid)
    assert gone.status_code == 200, gone.text
    assert gone.json()["offers"] == []
    assert "ann withdrew the offer to sell a wall" in messages(client, tokens["bob"], gid)
    before = snapshot(client, players(tokens, "ann", "bob"), gid)

    refused = trade(client, tokens["bob"], gid, "buying", "ann")
    assert refused.status_code == 409 and refused.json()["reason"] == "offer_withdrawn"
    again = withdraw(client, tokens["ann"], gid)
    assert again.status_code == 404 and again.json()["reason"] == "no_open_offer"
    assert snapshot(client, players(tokens, "ann", "bob"), gid) == before


def test_refused_offers_and_trades_change_nothing(
    client: httpx.Client, tokens: dict[str, str]
) -> None:
    gid = ann_selling_to_bob(client, tokens)
    two = players(tokens, "ann", "bob")
    before = snapshot(client, two, gid)
    refusals = [
        (offer(client, tokens["ann"], gid, "buying"), 409, "offer_already_open"),
        (trade(client, tokens["ann"], gid, "buying", "ann"), 409, "own_offer"),
        (trade(client, tokens["bob"], gid, "selling", "ann"), 409, "offer_mismatch"),
        (trade(client, tokens["eve"], gid, "buying", "ann"), 403, "not_a_player"),
        (offer(client, tokens["eve"], gid, "buying"), 403, "not_a_player"),
        (offer(client, tokens["bob"], gid, "buying", "eve"), 422, "invalid_trading_partner"),
        (offer(client, tokens["bob"], gid, "buying", "nobody"), 404, "user_not_found"),
        (trade(client, tokens["ann"], gid, "selling", "bob"), 404, "no_open_offer"),
        (offer(client, tokens["bob"], gid, "lending"), 400, "bad_request"),
        (
            trade(client, tokens["bob"], gid, "buying", "ann", base_revision=1),
            409,
            "stale_revision",
        ),
        (offer(client, tokens["bob"], 999_999, "buying"), 404, "game_not_found"),
    ]
    for response, status, reason in refusals:
        assert (response.status_code, response.json()["reason"]) == (status, reason), response.text
    assert snapshot(client, two, gid) == before

    waiting = new_game(client, tokens["ann"])
    early = offer(client, tokens["ann"], waiting["id"], "selling")
    assert early.status_code == 409 and early.json()["reason"] == "game_not_started"


def test_without_a_wall_in_hand_nobody_offers_or_trades_to_sell(
    client: httpx.Client, tokens: dict[str, str]
) -> None:
    four, gid = four_player_5x5(client, tokens)
    for _ in range(initial_walls(5, 4)):  # ann sells both her walls to bob
        assert offer(client, tokens["ann"], gid, "selling").status_code == 201
        assert trade(client, tokens["bob"], gid, "buying", "ann").status_code == 201
    ann_view = get_game(client, tokens["ann"], gid)
    assert walls(ann_view)["ann"] == 0 and ann_view["trade_balance"] == 2 * COST_5_4
    assert offer(client, tokens["cid"], gid, "buying").status_code == 201
    before = snapshot(client, four, gid)

    no_offer = offer(client, tokens["ann"], gid, "selling")
    assert no_offer.status_code == 422 and no_offer.json()["reason"] == "no_wall_to_sell"
    no_trade = trade(client, tokens["ann"], gid, "selling", "cid")
    assert no_trade.status_code == 422 and no_trade.json()["reason"] == "no_wall_to_sell"
    assert snapshot(client, four, gid) == before


def test_a_private_offer_is_read_and_traded_by_its_partner_only(
    client: httpx.Client, tokens: dict[str, str]
) -> None:
    four, gid = four_player_5x5(client, tokens)
    made = offer(client, tokens["ann"], gid, "selling", "bob")
    assert made.status_code == 201, made.text
    private_text = f"ann privately offers bob to sell a wall (wall cost {COST_5_4})"
    for name in ("ann", "bob"):
        assert [o["partner"] for o in get_game(client, tokens[name], gid)["offers"]] == ["bob"]
        assert private_text in messages(client, tokens[name], gid)
    for name in ("cid", "dee", "eve"):
        assert get_game(client, tokens[name], gid)["offers"] == []
        assert not any(
            "ann" in text and "offer" in text for text in messages(client, tokens[name], gid)
        )
    before = snapshot(client, four, gid)

    third = trade(client, tokens["cid"], gid, "buying", "ann")
    assert third.status_code == 404 and third.json()["reason"] == "no_open_offer"
    assert snapshot(client, four, gid) == before

    done = trade(client, tokens["bob"], gid, "buying", "ann")
    assert done.status_code == 201, done.text
    trade_text = f"ann sold a wall to bob on ann's offer (wall cost {COST_5_4})"
    assert trade_text in messages(client, tokens["bob"], gid)
    assert trade_text not in messages(client, tokens["cid"], gid)


def test_a_masked_trade_tells_third_parties_no_wall_count(
    client: httpx.Client, tokens: dict[str, str]
) -> None:
    four, gid = four_player_5x5(client, tokens, masked=True)
    assert offer(client, tokens["ann"], gid, "buying").status_code == 201
    sold = trade(client, tokens["bob"], gid, "selling", "ann")
    assert sold.status_code == 201, sold.text
    assert sold.json()["trade_balance"] == COST_5_4
    assert get_game(client, tokens["ann"], gid)["trade_balance"] == -COST_5_4
    for name in ("ann", "bob", "cid", "dee"):
        view = get_game(client, tokens[name], gid)
        others = {k: v for k, v in walls(view).items() if k != name}
        assert set(others.values()) == {None}, (name, view["seats"])
    assert get_game(client, tokens["cid"], gid)["trade_balance"] == 0
    texts = messages(client, tokens["cid"], gid)
    assert f"bob sold a wall to ann on ann's offer (wall cost {COST_5_4})" in texts
    assert not any("left" in text for text in texts)


async def _race(
    server: RunningServer, tokens: dict[str, str], gid: int, buyers: list[str]
) -> list[httpx.Response]:
    async with httpx.AsyncClient(base_url=server.api, timeout=20.0) as http:
        calls = [
            http.post(
                f"/games/{gid}/trades",
                json={"mode": "buying", "partner": "ann"},
                headers=auth(tokens[name]),
            )
            for name in buyers
        ]
        return list(await asyncio.gather(*calls))


def test_concurrent_trades_against_one_offer_exactly_one_succeeds(
    server: RunningServer, client: httpx.Client, tokens: dict[str, str]
) -> None:
    four = players(tokens, "ann", "bob", "cid", "dee")
    game = started_game(client, four)
    gid, start = game["id"], initial_walls(9, 4)
    for round_number in range(1, 4):
        assert offer(client, tokens["ann"], gid, "selling").status_code == 201
        answers = asyncio.run(_race(server, tokens, gid, ["bob", "cid", "dee"]))
        statuses = sorted(a.status_code for a in answers)
        assert statuses == [201, 409, 409], [a.text for a in answers]
        assert {a.json()["reason"] for a in answers if a.status_code == 409} == {"offer_taken"}
        ann = get_game(client, tokens["ann"], gid)
        assert walls(ann)["ann"] == start - round_number
        assert sum(w for w in walls(ann).values() if w is not None) == 4 * start
        assert ann["trade_balance"] == round_number * wall_cost(9, 4)


def test_trade_balances_count_in_the_final_scores_and_sold_walls_are_not_placed_walls(
    client: httpx.Client, tokens: dict[str, str]
) -> None:
    game = started_game(client, players(tokens, "cid", "dee"), size=5)
    gid = game["id"]
    by_seat = {s["seat"]: s["username"] for s in game["seats"]}
    assert offer(client, tokens[by_seat["south"]], gid, "selling").status_code == 201
    assert trade(client, tokens[by_seat["north"]], gid, "buying", by_seat["south"]).is_success
    # South walks c1 -> c5 and wins; North walks away along row 5 and column a.
    scripts = {"south": ["north", "c3", "c4", "c5"], "north": ["west", "a5", "a4", "a3", "a2"]}
    state = get_game(client, tokens["cid"], gid)
    while state["status"] == "started":
        seat = state["turn"]
        moved = play(client, tokens[by_seat[seat]], gid, "move", scripts[seat].pop(0))
        assert moved.status_code == 201, moved.text
        state = moved.json()
    cost = wall_cost(5, 2)
    distances = {Seat(s["seat"]): s["distance"] for s in state["seats"]}
    expected = score_game(
        5,
        2,
        Seat.SOUTH,
        distances,
        {Seat.NORTH: 0, Seat.SOUTH: 0},
        {Seat.SOUTH: cost, Seat.NORTH: -cost},
    )
    assert state["scores"] == {by_seat[seat.value]: score for seat, score in expected.items()}
    assert state["offers"] == []
