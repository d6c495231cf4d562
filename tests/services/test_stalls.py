"""Removing a stalled player (services/stalls.py) is idempotent: the scheduler may run it
twice (two sweeps, a restart mid-way) or after the player moved, and it removes the
player once, and only for the turn it saw. Services on a real SQLite file."""

from __future__ import annotations

import asyncio
import json
from datetime import timedelta
from pathlib import Path

import pytest

from corridorquest.engine import GameState
from corridorquest.services import games, play, stalls
from corridorquest.services.auth import CurrentUser
from corridorquest.services.context import ServiceContext
from corridorquest.settings import Settings
from corridorquest.store.models import Game, GameMessage, User, utcnow

pytestmark = pytest.mark.backend_neutral  # SQLite (Settings' default) whatever the URL says


def _user(ctx: ServiceContext, name: str) -> CurrentUser:
    def create() -> User:
        return User.create(
            username=name, email=f"{name}@example.test", password_hash="x", verified=True
        )

    user = ctx.store.run(create)
    return CurrentUser(user.id, name, user.email, False, 0, utcnow() + timedelta(days=1))


async def _started(ctx: ServiceContext, a: CurrentUser, b: CurrentUser) -> Game:
    created = await games.create_game(ctx, a, games.GameOptions(players=2))
    await games.join_game(ctx, b, created.body["id"])
    return ctx.store.run(Game.get_by_id, created.body["id"])


def _cancel_messages(ctx: ServiceContext, game_id: int) -> int:
    return ctx.store.run(
        lambda: (
            GameMessage.select()
            .where((GameMessage.game == game_id) & GameMessage.text.contains("did not move"))
            .count()
        )
    )


def test_a_stalled_player_is_removed_once_and_never_after_a_move(tmp_path: Path) -> None:
    settings = Settings(data_dir=str(tmp_path), email_backend="file", stall_timeout=1)

    async def scenario() -> None:
        ctx = ServiceContext.open(settings)
        try:
            a, b = _user(ctx, "ann"), _user(ctx, "ben")
            users = {a.id: a, b.id: b}
            stalled = await _started(ctx, a, b)
            moving = await _started(ctx, a, b)
            early = await stalls.remove_stalled_player(
                ctx, stalled.id, stalled.turn_user_id, stalled.turn_since
            )
            assert not early  # the turn has not lasted the timeout yet
            await asyncio.sleep(2.1)  # pacing: past STALL_TIMEOUT on the clock
            # a move ends the turn the sweep saw: nothing to remove
            to = _any_step(moving)
            await play.play(ctx, users[moving.turn_user_id], moving.id, "move", to)
            assert not await stalls.remove_stalled_player(
                ctx, moving.id, moving.turn_user_id, moving.turn_since
            )
            assert ctx.store.run(Game.get_by_id, moving.id).status == "started"
            for _ in range(2):  # twice, as two sweeps would
                await stalls.remove_stalled_player(
                    ctx, stalled.id, stalled.turn_user_id, stalled.turn_since
                )
            after = ctx.store.run(Game.get_by_id, stalled.id)
            assert after.status == "cancelled"
            assert after.revision == stalled.revision + 1
            assert _cancel_messages(ctx, stalled.id) == 1
        finally:
            await ctx.close()

    asyncio.run(scenario())


def _any_step(game: Game) -> str:
    """A pawn move of the seat to move in `game`."""
    state = GameState.from_dict(json.loads(game.state))
    return str(next(a for a in state.legal_steps() if not a.jump).to)
