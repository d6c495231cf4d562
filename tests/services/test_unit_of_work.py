"""services/unit_of_work.py owns a game write end to end (issue 26): the key under a
scope that names the use case, one transaction, system messages and events, publishing
after the commit, and remembering the committed game (`last_commit`) only when the
write moved its revision on. Services on a real SQLite file, no server process."""

from __future__ import annotations

import asyncio
import json
from datetime import timedelta
from pathlib import Path
from typing import Any

import pytest

from corridorquest.engine import GameState
from corridorquest.events import ActionPlayed, Event
from corridorquest.services import games, last_commit, messages, play
from corridorquest.services.auth import CurrentUser
from corridorquest.services.context import ServiceContext
from corridorquest.services.errors import Conflict
from corridorquest.services.unit_of_work import GameWrite, write_game
from corridorquest.settings import Settings
from corridorquest.store.models import Game, GameMessage, IdempotentResponse, User, utcnow

pytestmark = pytest.mark.backend_neutral  # SQLite (Settings' default) whatever the URL says


def _user(ctx: ServiceContext, name: str) -> CurrentUser:
    def create() -> User:
        return User.create(
            username=name, email=f"{name}@example.test", password_hash="x", verified=True
        )

    user = ctx.store.run(create)
    return CurrentUser(user.id, name, user.email, False, 0, utcnow() + timedelta(days=1))


def _scenario(tmp_path: Path, body: Any) -> None:
    settings = Settings(data_dir=str(tmp_path), email_backend="file")

    async def run() -> None:
        last_commit.forget_all()
        ctx = ServiceContext.open(settings)
        try:
            ann, ben = _user(ctx, "ann"), _user(ctx, "ben")
            created = await games.create_game(ctx, ann, games.GameOptions(players=2))
            await games.join_game(ctx, ben, created.body["id"])
            game = ctx.store.run(Game.get_by_id, created.body["id"])
            mover = ann if game.turn_user_id == ann.id else ben
            await body(ctx, game, mover)
        finally:
            await ctx.close()
            last_commit.forget_all()

    asyncio.run(run())


def _first_step(game: Game) -> str:
    """A pawn move of the seat to move in `game`."""
    state = GameState.from_dict(json.loads(game.state))
    return str(next(a for a in state.legal_steps() if not a.jump).to)


def test_a_move_is_published_after_its_commit_and_remembered(tmp_path: Path) -> None:
    async def body(ctx: ServiceContext, game: Game, mover: CurrentUser) -> None:
        published: list[Event] = []
        ctx.bus.subscribe(ActionPlayed, published.append)
        to = _first_step(game)
        result = await play.play(ctx, mover, game.id, "move", to, game.revision, key="k-1")
        assert result.status == 201 and result.body["revision"] == game.revision + 1
        assert [type(e) for e in published] == [ActionPlayed]
        # the move's system message is read with the game's messages; it is made from the
        # action, stored in the same transaction: no message row of its own
        listed = await messages.list_messages(ctx, mover, game.id)
        last = listed["messages"][-1]["text"]
        assert last.startswith(f"{mover.username} (") and last.endswith(f") moved to {to}")
        texts = ctx.store.run(
            lambda: [m.text for m in GameMessage.select().where(GameMessage.game == game.id)]
        )
        assert not any("moved to" in text for text in texts)
        # the key's scope names the use case and its game, not an HTTP route
        scope = ctx.store.run(lambda: IdempotentResponse.get().scope)
        assert scope.startswith(f"play game {game.id}")
        # what was committed is remembered: the view at the new revision
        after = ctx.store.run(Game.get_by_id, game.id)
        remembered = last_commit.extras(after)
        assert remembered is not None and remembered.made == after.revision
        # the same key again: the stored answer, no new event, nothing written
        again = await play.play(ctx, mover, game.id, "move", to, game.revision, key="k-1")
        assert again.body == result.body and len(published) == 1
        assert ctx.store.run(Game.get_by_id, game.id).revision == after.revision

    _scenario(tmp_path, body)


def test_a_refused_write_publishes_and_remembers_nothing(tmp_path: Path) -> None:
    async def body(ctx: ServiceContext, game: Game, mover: CurrentUser) -> None:
        published: list[Event] = []
        ctx.bus.subscribe(Event, published.append)

        def rule(work: GameWrite) -> tuple[int, dict[str, Any]]:
            work.game.revision += 1
            work.loaded.save_game("revision")
            work.emit(ActionPlayed(game.id, work.game.revision, 1, mover.id, "north", "move", "e2"))
            raise Conflict("refused", "the rule says no")

        with pytest.raises(Conflict):
            await write_game(ctx, mover, None, "test", game.id, rule)
        assert published == []
        stored = ctx.store.run(Game.get_by_id, game.id)
        assert stored.revision == game.revision  # rolled back
        assert last_commit.extras(stored) is None

    _scenario(tmp_path, body)


def test_a_write_that_did_not_move_the_revision_is_not_remembered(tmp_path: Path) -> None:
    async def body(ctx: ServiceContext, game: Game, mover: CurrentUser) -> None:
        seen: list[GameWrite] = []

        def rule(work: GameWrite) -> tuple[int, dict[str, Any]]:
            seen.append(work)
            return 200, {}

        await write_game(ctx, mover, None, "test", game.id, rule)
        assert seen and seen[0].committed() is None
        # asking the room to remember it anyway fails loudly
        committed = last_commit.Committed(
            seen[0].game, seen[0].players, seen[0].loaded_revision, 0
        )
        with pytest.raises(last_commit.RevisionNotMoved):
            last_commit.remember(committed)

    _scenario(tmp_path, body)
