"""The scheduler's stall sweep (services/stalls.py) against a real store, no server
process: a player whose turn lasted STALL_TIMEOUT is removed, which cancels the game with
a reason every player reads; a player reminded first is reminded once per interval; a
game whose turn is younger is left alone and the sweep says when to look again.

Short settings (STALL_TIMEOUT of 3 s, STALL_REMIND_AFTER of 1 s) and real waits just
past them; the fresh game of the first test has the whole STALL_TIMEOUT between its
start and the sweep (a loaded machine may take a second or more there).
On the database `fresh_database` gives (SQLite, or PostgreSQL in CI's second pass).
tests/services/test_stalls.py: the removal is idempotent and never follows a move."""

from __future__ import annotations

import asyncio
import time
from datetime import timedelta
from pathlib import Path

import pytest

from corridorquest.events import GameCancelled, StallReminder
from corridorquest.services import games, play, stalls
from corridorquest.services.errors import ServiceError
from corridorquest.store.models import utcnow
from tests.support.services import refusal, service_context, started_game, to_move, user

TIMEOUT = 3  # STALL_TIMEOUT of the first test, seconds


def test_the_sweep_removes_the_player_who_did_not_move_and_tells_everybody(
    tmp_path: Path,
) -> None:
    async def scenario() -> None:
        async with service_context(tmp_path, stall_timeout=TIMEOUT) as ctx:
            ann, ben, cid, dan = (user(ctx, name) for name in ("ann", "ben", "cid", "dan"))
            cancelled: list[GameCancelled] = []
            ctx.bus.subscribe(GameCancelled, cancelled.append)
            stalled = await started_game(ctx, ann, ben)
            staller = to_move(stalled, ann, ben)
            other = ben if staller is ann else ann
            await asyncio.sleep(TIMEOUT + 0.2)
            fresh = await started_game(ctx, cid, dan)  # its turn began just now

            started = utcnow()
            wake = await stalls.sweep_stalls(ctx)

            seen = await games.show_game(ctx, other, stalled["id"])
            assert seen["status"] == "cancelled"
            assert seen["revision"] == stalled["revision"] + 1
            assert seen["cancel_reason"] == (
                f"{staller.username} did not move for {TIMEOUT} seconds and was removed"
            )
            assert [(e.game_id, e.by_user_id) for e in cancelled] == [(stalled["id"], None)]
            with pytest.raises(ServiceError) as refused:  # nobody plays on
                await play.play(ctx, other, stalled["id"], "move", "e2")
            assert refusal(refused.value) == (409, "game_cancelled")

            untouched = await games.show_game(ctx, cid, fresh["id"])
            assert untouched["status"] == "started"
            assert untouched["revision"] == fresh["revision"]
            # the scheduler wakes when the fresh game's turn can have lasted the timeout
            assert wake is not None and wake <= started + timedelta(seconds=TIMEOUT)

            again = await stalls.sweep_stalls(ctx)  # a second sweep finds nothing more
            assert again is not None and len(cancelled) == 1

    asyncio.run(scenario())


def test_a_stalling_player_is_reminded_once_per_interval_before_removal(
    tmp_path: Path,
) -> None:
    async def scenario() -> None:
        async with service_context(
            tmp_path, stall_remind_after=1, stall_remind_interval=60, stall_timeout=30
        ) as ctx:
            ann, ben = user(ctx, "ann"), user(ctx, "ben")
            reminders: list[StallReminder] = []
            ctx.bus.subscribe(StallReminder, reminders.append)
            game = await started_game(ctx, ann, ben)
            staller = to_move(game, ann, ben)
            assert await stalls.send_reminders(ctx) == 0  # too early
            deadline = time.monotonic() + 10
            while not await stalls.send_reminders(ctx):
                assert time.monotonic() < deadline
                await asyncio.sleep(0.05)
            assert [(r.game_id, r.user_id) for r in reminders] == [(game["id"], staller.id)]
            assert await stalls.send_reminders(ctx) == 0  # not again within the interval
            # reminded, not removed: the game goes on
            shown = await games.show_game(ctx, staller, game["id"])
            assert shown["status"] == "started" and shown["turn_username"] == staller.username

    asyncio.run(scenario())
