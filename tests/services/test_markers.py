"""services/markers.py against a real store, no server process: a player's markers in an
invisible-walls game are that player's notes: the opponents see none of them nor any
sign of them (the revision does not move), every refusal says why and changes nothing,
and a wall placed over one's own marker removes it.

On the database `fresh_database` gives (SQLite, or PostgreSQL in CI's second pass)."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest

from corridorquest.services import games, markers, play
from corridorquest.services.errors import ServiceError
from tests.support.services import refusal, service_context, started_game, to_move, user


def test_markers_are_seen_by_their_owner_only_and_move_no_revision(tmp_path: Path) -> None:
    async def scenario() -> None:
        async with service_context(tmp_path) as ctx:
            ann, ben = user(ctx, "ann"), user(ctx, "ben")
            game = await started_game(ctx, ann, ben, invisible=True)
            opponent_before = await games.show_game(ctx, ben, game["id"])

            marked = await markers.mark(ctx, ann, game["id"], "e4v")
            assert [m["marker"] for m in marked["markers"]] == ["e4v"]
            assert marked["revision"] == game["revision"]
            assert [m["marker"] for m in await markers.list_markers(ctx, ann, game["id"])] == [
                "e4v"
            ]
            assert await markers.list_markers(ctx, ben, game["id"]) == []
            assert await games.show_game(ctx, ben, game["id"]) == opponent_before

            with pytest.raises(ServiceError) as refused:
                await markers.mark(ctx, ann, game["id"], "e4v")
            assert refusal(refused.value) == (409, "already_marked")

            unmarked = await markers.unmark(ctx, ann, game["id"], "e4v")
            assert unmarked["markers"] == [] and unmarked["revision"] == game["revision"]
            with pytest.raises(ServiceError) as refused:
                await markers.unmark(ctx, ann, game["id"], "e4v")
            assert refusal(refused.value) == (404, "marker_not_found")

    asyncio.run(scenario())


def test_markers_refused_with_a_reason_change_nothing(tmp_path: Path) -> None:
    async def scenario() -> None:
        async with service_context(tmp_path) as ctx:
            ann, ben, eve = user(ctx, "ann"), user(ctx, "ben"), user(ctx, "eve")
            plain = await started_game(ctx, ann, ben)
            with pytest.raises(ServiceError) as refused:
                await markers.mark(ctx, ann, plain["id"], "e4v")
            assert refusal(refused.value) == (409, "game_not_invisible")

            game = await started_game(ctx, ann, ben, invisible=True)
            for who, text, expected in (
                (eve, "e4v", (403, "not_a_player")),
                (ann, "e4", (422, "invalid_notation")),
                (ann, "z9v", (422, "invalid_notation")),
            ):
                with pytest.raises(ServiceError) as refused:
                    await markers.mark(ctx, who, game["id"], text)
                assert refusal(refused.value) == expected, text
            assert await markers.list_markers(ctx, ann, game["id"]) == []

    asyncio.run(scenario())


def test_a_wall_placed_over_ones_own_marker_removes_it(tmp_path: Path) -> None:
    async def scenario() -> None:
        async with service_context(tmp_path) as ctx:
            ann, ben = user(ctx, "ann"), user(ctx, "ben")
            game = await started_game(ctx, ann, ben, invisible=True)
            mover = to_move(game, ann, ben)
            await markers.mark(ctx, mover, game["id"], "c3v")
            await markers.mark(ctx, mover, game["id"], "g6h")
            await play.play(ctx, mover, game["id"], "wall", "c3v")  # covers c3v and c4v
            left = await markers.list_markers(ctx, mover, game["id"])
            assert [m["marker"] for m in left] == ["g6h"]
            with pytest.raises(ServiceError) as refused:  # now an edge of one's own wall
                await markers.mark(ctx, mover, game["id"], "c4v")
            assert refusal(refused.value) == (422, "marker_on_own_wall")

    asyncio.run(scenario())
