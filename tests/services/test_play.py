"""services/play.py against a real store, no server process: only the player to move
plays, the engine's refusals reach the player as 422 with a reason, a write based on an
old revision is refused with the current game, and a refused action changes nothing.

On the database `fresh_database` gives (SQLite, or PostgreSQL in CI's second pass)."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest

from corridorquest.services import games, play
from corridorquest.services.errors import ServiceError
from tests.support.services import (
    actions_of,
    refusal,
    service_context,
    started_game,
    state_of,
    to_move,
    user,
)


def test_only_the_player_to_move_plays_and_then_the_turn_passes(tmp_path: Path) -> None:
    async def scenario() -> None:
        async with service_context(tmp_path) as ctx:
            ann, ben = user(ctx, "ann"), user(ctx, "ben")
            game = await started_game(ctx, ann, ben)
            mover = to_move(game, ann, ben)
            waiting = ben if mover is ann else ann
            step = str(state_of(ctx, game["id"]).legal_steps()[0].to)

            with pytest.raises(ServiceError) as refused:
                await play.play(ctx, waiting, game["id"], "move", step, game["revision"])
            assert refusal(refused.value) == (409, "not_your_turn")
            assert refused.value.extra == {"turn_username": mover.username}
            assert actions_of(ctx, game["id"]) == 0

            played = await play.play(ctx, mover, game["id"], "move", step, game["revision"])
            assert played.status == 201
            assert played.body["revision"] == game["revision"] + 1
            assert played.body["turn_username"] == waiting.username
            assert [a["notation"] for a in played.body["last_actions"]] == [step]
            # the other player sees the move and that it is now their turn
            seen = await games.show_game(ctx, waiting, game["id"])
            assert seen["revision"] == played.body["revision"]
            assert seen["turn_username"] == waiting.username
            assert [a["username"] for a in await play.history(ctx, waiting, game["id"])] == [
                mover.username
            ]

    asyncio.run(scenario())


def test_an_illegal_or_unreadable_action_is_refused_422_and_changes_nothing(
    tmp_path: Path,
) -> None:
    async def scenario() -> None:
        async with service_context(tmp_path) as ctx:
            ann, ben = user(ctx, "ann"), user(ctx, "ben")
            game = await started_game(ctx, ann, ben)
            mover = to_move(game, ann, ben)
            before = state_of(ctx, game["id"]).to_dict()

            for kind, text, reason in (
                ("move", "e5", "illegal_action"),  # not next to the pawn
                ("move", "z99", "invalid_notation"),
                ("wall", "e4", "invalid_notation"),  # a wall needs h or v
                ("dance", "e2", "invalid_notation"),
            ):
                with pytest.raises(ServiceError) as refused:
                    await play.play(ctx, mover, game["id"], kind, text, game["revision"])
                assert refusal(refused.value) == (422, reason), (kind, text)
                assert refused.value.message  # the engine's words reach the player

            after = await games.show_game(ctx, mover, game["id"])
            assert after["revision"] == game["revision"]
            assert after["turn_username"] == mover.username  # the turn is kept
            assert state_of(ctx, game["id"]).to_dict() == before
            assert actions_of(ctx, game["id"]) == 0

    asyncio.run(scenario())


def test_a_write_based_on_an_old_revision_is_refused_with_the_current_game(
    tmp_path: Path,
) -> None:
    async def scenario() -> None:
        async with service_context(tmp_path) as ctx:
            ann, ben = user(ctx, "ann"), user(ctx, "ben")
            game = await started_game(ctx, ann, ben)
            first = to_move(game, ann, ben)
            second = ben if first is ann else ann
            step = str(state_of(ctx, game["id"]).legal_steps()[0].to)
            moved = await play.play(ctx, first, game["id"], "move", step, game["revision"])

            reply = str(state_of(ctx, game["id"]).legal_steps()[0].to)
            with pytest.raises(ServiceError) as refused:  # the second player saw the old game
                await play.play(ctx, second, game["id"], "move", reply, game["revision"])
            assert refusal(refused.value) == (409, "stale_revision")
            assert refused.value.extra["revision"] == moved.body["revision"]
            current = refused.value.extra["game"]
            assert current["revision"] == moved.body["revision"]
            assert current["turn_username"] == second.username
            assert actions_of(ctx, game["id"]) == 1

            # reloaded, the same action is played; without a revision it is not checked
            again = await play.play(
                ctx, second, game["id"], "move", reply, moved.body["revision"]
            )
            assert again.body["revision"] == moved.body["revision"] + 1
            step = str(state_of(ctx, game["id"]).legal_steps()[0].to)
            unchecked = await play.play(ctx, first, game["id"], "move", step)
            assert unchecked.body["revision"] == again.body["revision"] + 1

    asyncio.run(scenario())


def test_the_same_key_again_answers_the_first_answer_and_plays_once(tmp_path: Path) -> None:
    """A client that retries a move after a lost answer (same Idempotency-Key) gets the
    first answer; the move is not played twice."""

    async def scenario() -> None:
        async with service_context(tmp_path) as ctx:
            ann, ben = user(ctx, "ann"), user(ctx, "ben")
            game = await started_game(ctx, ann, ben)
            mover = to_move(game, ann, ben)
            step = str(state_of(ctx, game["id"]).legal_steps()[0].to)
            first = await play.play(ctx, mover, game["id"], "move", step, key="retry-1")
            again = await play.play(ctx, mover, game["id"], "move", step, key="retry-1")
            assert again.status == first.status == 201 and again.body == first.body
            assert actions_of(ctx, game["id"]) == 1

    asyncio.run(scenario())
