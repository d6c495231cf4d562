"""A move's system message is made from its action when read (migration step 24): a game
played across the upgrade reads its stored move messages, then the made ones, in the
order they happened, numbered without a gap or a repeat, in the listing and in a live
stream's catch-up alike; a new move writes no message row."""

from __future__ import annotations

import asyncio
from pathlib import Path

from corridorquest.engine import Seat
from corridorquest.services import last_commit, live_views, messages, play
from corridorquest.services.auth import CurrentUser
from corridorquest.services.context import ServiceContext
from corridorquest.services.game_access import load_game
from corridorquest.services.user_refs import ref
from corridorquest.store.migrations import migrate_database
from corridorquest.store.models import Game, GameAction, GameMessage
from tests.support.services import service_context, started_game, state_of, user


async def _move(ctx: ServiceContext, players: dict[int, CurrentUser], game_id: int) -> str:
    """The player to move steps its pawn (never onto its goal); what it played."""
    game = ctx.store.run(Game.get_by_id, game_id)
    state = state_of(ctx, game_id)
    to = str(next(a for a in state.legal_steps() if not a.jump).to)
    mover = players[game.turn_user_id]
    result = await play.play(ctx, mover, game_id, "move", to, game.revision)
    assert result.status == 201
    return f"{mover.username} ({Seat(state.turn).title}) moved to {to}"


def _as_before_step_24(ctx: ServiceContext, game_id: int) -> None:
    """The database as the server left it before migration step 24: the moves so far
    stored their messages, and neither new column exists."""
    db = ctx.store.db

    def rewrite() -> None:
        for action in GameAction.select().where(GameAction.game == game_id).order_by(GameAction.n):
            text = f"{ref(action.user_id)} ({Seat(action.seat).title}) moved to {action.notation}"
            GameMessage.insert(
                game=game_id, kind="system", text=text, at=action.at, revision=None
            ).execute()
        GameMessage.update(revision=None).execute()
        db.execute_sql('ALTER TABLE "game_action" DROP COLUMN "message_derived"')
        db.execute_sql('ALTER TABLE "game_message" DROP COLUMN "revision"')
        db.execute_sql("DELETE FROM schema_version WHERE version = 24")

    ctx.store.run(rewrite)
    assert migrate_database(db) == [24]
    last_commit.forget_all()  # what this process remembered predates the rewrite


def test_a_game_played_across_the_upgrade_reads_every_move_message_once_in_order(
    tmp_path: Path,
) -> None:
    async def scenario() -> None:
        async with service_context(tmp_path) as ctx:
            ann, ben = user(ctx, "ann"), user(ctx, "ben")
            players = {ann.id: ann, ben.id: ben}
            game_id = (await started_game(ctx, ann, ben))["id"]
            before = [await _move(ctx, players, game_id) for _ in range(2)]
            _as_before_step_24(ctx, game_id)

            await messages.send_message(ctx, ann, game_id, "good luck")
            stream_at = ctx.store.run(
                lambda: live_views.first_update(load_game(game_id), ben.id, None).cursor
            )
            after = [await _move(ctx, players, game_id) for _ in range(2)]

            listed = (await messages.list_messages(ctx, ben, game_id))["messages"]
            texts = [message["text"] for message in listed]
            assert texts[3:] == [*before, "good luck", *after]  # after created, joined, started
            assert [message["id"] for message in listed] == list(range(1, len(listed) + 1))
            assert sum("moved to" in text for text in texts) == 4  # none twice

            # a live stream that stood after the chat message gets the two new moves' messages
            caught = ctx.store.run(
                lambda: live_views.catch_up(load_game(game_id), ben.id, stream_at)
            )
            sent = [data for event, _, data in caught.items if event == "message"]
            assert sent == listed[-2:]
            assert caught.cursor.messages == len(listed)
            # ... and a stream resumed from the event id it was given reads the same
            resumed = live_views.parse_cursor(str(stream_at))
            again = ctx.store.run(
                lambda: live_views.catch_up(load_game(game_id), ben.id, resumed)
            )
            assert [data for event, _, data in again.items if event == "message"] == sent

            # the new moves wrote no message row: theirs are made from their actions
            stored = ctx.store.run(
                lambda: [m.text for m in GameMessage.select().where(GameMessage.game == game_id)]
            )
            assert sum("moved to" in text for text in stored) == 2
            # a message posted now is numbered after them, for its writer as for the listing
            posted = await messages.send_message(ctx, ben, game_id, "thanks")
            assert posted["id"] == len(listed) + 1

    asyncio.run(scenario())
