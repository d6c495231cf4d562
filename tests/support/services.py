"""The use cases without a server (tests/services): a `ServiceContext` on a fresh database.

The database is `fresh_database`'s: an SQLite file in tmp_path, or a new PostgreSQL
database when CQ_TEST_DATABASE_URL is set (CI's PostgreSQL pass), opened and migrated by
`ServiceContext.open` as the server opens it. The tests read and write rows through the
store (`ctx.store.run`), never by opening the file themselves.
"""

from __future__ import annotations

import json
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from datetime import timedelta
from pathlib import Path
from typing import Any

from corridorquest.engine import GameState
from corridorquest.services import games, last_commit
from corridorquest.services.auth import CurrentUser
from corridorquest.services.context import ServiceContext
from corridorquest.services.errors import ServiceError
from corridorquest.settings import Settings
from corridorquest.store.models import Game, GameAction, User, utcnow
from tests.support.server import TEST_PASSWORD_HASHING, fresh_database


@asynccontextmanager
async def service_context(tmp_path: Path, **settings: Any) -> AsyncIterator[ServiceContext]:
    """A ServiceContext on a database nobody has used; `settings` as Settings fields."""
    with fresh_database(tmp_path) as database_url:
        # the rooms of the last commit are per process, keyed by game id: start empty
        last_commit.forget_all()
        ctx = ServiceContext.open(
            Settings(
                data_dir=str(tmp_path / "data"),
                database_url=database_url,
                email_backend="file",
                **{**TEST_PASSWORD_HASHING, **settings},
            )
        )
        try:
            yield ctx
        finally:
            await ctx.close()
            last_commit.forget_all()


def user(ctx: ServiceContext, name: str, is_admin: bool = False) -> CurrentUser:
    """A verified user, logged in (as the API's authentication hands it to a service)."""

    def create() -> User:
        return User.create(
            username=name,
            email=f"{name}@example.test",
            password_hash="x",
            verified=True,
            is_admin=is_admin,
        )

    row = ctx.store.run(create)
    return CurrentUser(row.id, name, row.email, is_admin, 0, utcnow() + timedelta(days=1))


async def started_game(
    ctx: ServiceContext, admin: CurrentUser, *others: CurrentUser, **options: Any
) -> dict[str, Any]:
    """A game of `admin` and `others`, started (full); the admin's view of it."""
    created = await games.create_game(
        ctx, admin, games.GameOptions(players=1 + len(others), **options)
    )
    for other in others:
        await games.join_game(ctx, other, created.body["id"])
    view = await games.show_game(ctx, admin, created.body["id"])
    assert view["status"] == "started"
    return view


def to_move(view: dict[str, Any], *users: CurrentUser) -> CurrentUser:
    """Of `users`, the one whose turn it is in `view`."""
    return next(u for u in users if u.username == view["turn_username"])


def state_of(ctx: ServiceContext, game_id: int) -> GameState:
    """The stored position of a game (its full truth, not a player's view)."""
    return GameState.from_dict(json.loads(ctx.store.run(Game.get_by_id, game_id).state))


def actions_of(ctx: ServiceContext, game_id: int) -> int:
    """How many actions the game has stored."""
    return ctx.store.run(lambda: GameAction.select().where(GameAction.game == game_id).count())


def refusal(error: ServiceError) -> tuple[int, str]:
    """What the API answers for a refused write: its status and machine-readable reason."""
    return error.status, error.reason
