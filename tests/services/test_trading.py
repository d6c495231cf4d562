"""services/trading.py against a real store, no server process: a wall trade moves one
wall from the seller to the buyer and the wall cost the other way, in one write; an offer
is traded once; a private offer leaves no trace for the other players.

On the database `fresh_database` gives (SQLite, or PostgreSQL in CI's second pass)."""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

import pytest

from corridorquest.services import games, trading
from corridorquest.services.errors import ServiceError
from tests.support.services import refusal, service_context, started_game, user


def _walls_left(view: dict[str, Any]) -> dict[str, int]:
    return {seat["username"]: seat["walls_left"] for seat in view["seats"]}


def test_a_trade_moves_one_wall_and_the_wall_cost_once(tmp_path: Path) -> None:
    async def scenario() -> None:
        async with service_context(tmp_path) as ctx:
            ann, ben = user(ctx, "ann"), user(ctx, "ben")
            game = await started_game(ctx, ann, ben)
            cost = game["wall_cost"]
            walls = _walls_left(game)

            offered = await trading.make_offer(ctx, ann, game["id"], "selling")
            assert offered.status == 201
            assert offered.body["revision"] == game["revision"] + 1  # a public offer shows
            seen = await games.show_game(ctx, ben, game["id"])
            assert [(o["username"], o["mode"]) for o in seen["offers"]] == [("ann", "selling")]

            traded = await trading.trade(ctx, ben, game["id"], "buying", "ann")
            assert traded.status == 201
            assert traded.body["revision"] == offered.body["revision"] + 1
            assert _walls_left(traded.body) == {"ann": walls["ann"] - 1, "ben": walls["ben"] + 1}
            assert traded.body["offers"] == []
            assert traded.body["trade_balance"] == -cost  # each sees only their own balance
            seller = await games.show_game(ctx, ann, game["id"])
            assert seller["trade_balance"] == cost

            # the offer is gone: trading against it again changes nothing
            with pytest.raises(ServiceError) as refused:
                await trading.trade(ctx, ben, game["id"], "buying", "ann")
            assert refusal(refused.value) == (409, "offer_taken")
            after = await games.show_game(ctx, ben, game["id"])
            assert after["revision"] == traded.body["revision"]
            assert _walls_left(after) == _walls_left(traded.body)
            assert after["trade_balance"] == -cost

    asyncio.run(scenario())


def test_trades_refused_with_a_reason_change_nothing(tmp_path: Path) -> None:
    async def scenario() -> None:
        async with service_context(tmp_path) as ctx:
            ann, ben = user(ctx, "ann"), user(ctx, "ben")
            game = await started_game(ctx, ann, ben)
            await trading.make_offer(ctx, ann, game["id"], "buying")
            shown = await games.show_game(ctx, ann, game["id"])
            for who, mode, partner, expected in (
                (ben, "buying", "ann", (409, "offer_mismatch")),  # ann wants to buy too
                (ann, "selling", "ann", (409, "own_offer")),
                (ben, "selling", "nobody", (404, "user_not_found")),
            ):
                with pytest.raises(ServiceError) as refused:
                    await trading.trade(ctx, who, game["id"], mode, partner)
                assert refusal(refused.value) == expected, refused.value.to_json()
            with pytest.raises(ServiceError) as refused:
                await trading.make_offer(ctx, ann, game["id"], "selling")
            assert refusal(refused.value) == (409, "offer_already_open")
            assert await games.show_game(ctx, ann, game["id"]) == shown

    asyncio.run(scenario())


def test_a_private_offer_leaves_no_trace_for_the_other_players(tmp_path: Path) -> None:
    async def scenario() -> None:
        async with service_context(tmp_path) as ctx:
            ann, ben, cid, dan = (user(ctx, name) for name in ("ann", "ben", "cid", "dan"))
            game = await started_game(ctx, ann, ben, cid, dan)
            before = await games.show_game(ctx, cid, game["id"])

            offered = await trading.make_offer(ctx, ann, game["id"], "selling", partner="ben")
            assert offered.body["revision"] == game["revision"]  # the revision tells nobody
            partner = await games.show_game(ctx, ben, game["id"])
            assert [(o["username"], o["partner"]) for o in partner["offers"]] == [
                ("ann", "ben")
            ]
            assert await games.show_game(ctx, cid, game["id"]) == before
            with pytest.raises(ServiceError) as refused:  # cid cannot trade against it
                await trading.trade(ctx, cid, game["id"], "buying", "ann")
            assert refusal(refused.value) == (404, "no_open_offer")

            await trading.trade(ctx, ben, game["id"], "buying", "ann")
            seen = await games.show_game(ctx, cid, game["id"])
            # the trade itself moves the game on for everybody (walls changed hands)
            assert seen["revision"] == game["revision"] + 1 and seen["offers"] == []

    asyncio.run(scenario())
