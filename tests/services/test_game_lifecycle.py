"""services/games.py against a real store, no server process: a game is created waiting,
starts when its last seat is taken (by a join, or by the admin making the game smaller),
leaving and cancelling follow who may do what, and nothing more can be played in a
cancelled game. Every refusal says why and changes nothing.

On the database `fresh_database` gives (SQLite, or PostgreSQL in CI's second pass)."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest

from corridorquest.services import games, play
from corridorquest.services.errors import ServiceError
from tests.support.services import refusal, service_context, started_game, to_move, user


def test_a_game_waits_for_its_players_and_starts_with_the_last_one(tmp_path: Path) -> None:
    async def scenario() -> None:
        async with service_context(tmp_path) as ctx:
            ann, ben, cid, dan, eve = (
                user(ctx, name) for name in ("ann", "ben", "cid", "dan", "eve")
            )
            created = await games.create_game(ctx, ann, games.GameOptions(players=4))
            assert created.status == 201
            game = created.body
            assert (game["status"], game["waiting_players"], game["admin"]) == (
                "waiting",
                ["ann"],
                "ann",
            )
            with pytest.raises(ServiceError) as refused:  # nobody plays a waiting game
                await play.play(ctx, ann, game["id"], "move", "e2")
            assert refusal(refused.value) == (409, "game_not_started")

            joined = await games.join_game(ctx, ben, game["id"])
            assert joined.body["waiting_players"] == ["ann", "ben"]
            assert joined.body["revision"] == game["revision"] + 1
            with pytest.raises(ServiceError) as refused:
                await games.join_game(ctx, ben, game["id"])
            assert refusal(refused.value) == (409, "already_joined")
            await games.join_game(ctx, cid, game["id"])

            last = await games.join_game(ctx, dan, game["id"])
            assert last.body["status"] == "started"
            assert sorted(s["username"] for s in last.body["seats"]) == ["ann", "ben", "cid", "dan"]
            assert last.body["turn_username"] in {"ann", "ben", "cid", "dan"}
            with pytest.raises(ServiceError) as refused:
                await games.join_game(ctx, eve, game["id"])
            assert refusal(refused.value) == (409, "game_full")
            assert (await games.show_game(ctx, eve, game["id"]))["revision"] == last.body[
                "revision"
            ]

    asyncio.run(scenario())


def test_the_admin_starts_a_game_by_making_it_as_small_as_its_players(tmp_path: Path) -> None:
    async def scenario() -> None:
        async with service_context(tmp_path) as ctx:
            ann, ben = user(ctx, "ann"), user(ctx, "ben")
            created = await games.create_game(ctx, ann, games.GameOptions(players=4))
            joined = await games.join_game(ctx, ben, created.body["id"])
            smaller = games.GameOptions(players=2)
            with pytest.raises(ServiceError) as refused:
                await games.change_game(ctx, ben, created.body["id"], smaller)
            assert refusal(refused.value) == (403, "not_game_admin")
            assert (await games.show_game(ctx, ann, created.body["id"]))["status"] == "waiting"

            changed = await games.change_game(
                ctx, ann, created.body["id"], smaller, base_revision=joined.body["revision"]
            )
            assert (changed.body["status"], changed.body["players"]) == ("started", 2)
            assert sorted(s["username"] for s in changed.body["seats"]) == ["ann", "ben"]

    asyncio.run(scenario())


def test_leaving_and_cancelling_follow_who_may_do_what(tmp_path: Path) -> None:
    async def scenario() -> None:
        async with service_context(tmp_path) as ctx:
            ann, ben, cid = user(ctx, "ann"), user(ctx, "ben"), user(ctx, "cid")
            root = user(ctx, "root", is_admin=True)

            # a player who is not the admin leaves a waiting game; it goes on waiting
            created = await games.create_game(ctx, ann, games.GameOptions(players=4))
            await games.join_game(ctx, ben, created.body["id"])
            left = await games.withdraw(ctx, ben, created.body["id"])
            assert (left.body["status"], left.body["waiting_players"]) == ("waiting", ["ann"])
            # the admin leaving cancels it
            gone = await games.withdraw(ctx, ann, created.body["id"])
            assert gone.body["status"] == "cancelled"
            assert gone.body["cancel_reason"] == "ann withdrew"

            # only the game's admin (or a system administrator) cancels a started game
            game = await started_game(ctx, ann, ben)
            with pytest.raises(ServiceError) as refused:
                await games.cancel(ctx, ben, game["id"])
            assert refusal(refused.value) == (403, "not_game_admin")
            with pytest.raises(ServiceError) as refused:
                await games.cancel(ctx, cid, game["id"])
            assert refusal(refused.value) == (403, "not_game_admin")
            assert (await games.show_game(ctx, ben, game["id"]))["status"] == "started"
            cancelled = await games.cancel(ctx, root, game["id"])
            assert cancelled.body["status"] == "cancelled"
            assert cancelled.body["cancel_reason"] == "cancelled by root"

            # nothing more happens in a cancelled game
            mover = to_move(game, ann, ben)
            with pytest.raises(ServiceError) as refused:
                await play.play(ctx, mover, game["id"], "move", "e2")
            assert refusal(refused.value) == (409, "game_cancelled")
            with pytest.raises(ServiceError) as refused:
                await games.cancel(ctx, ann, game["id"])
            assert refusal(refused.value) == (409, "game_cancelled")
            shown = await games.show_game(ctx, ben, game["id"])
            assert shown["revision"] == cancelled.body["revision"]

    asyncio.run(scenario())
