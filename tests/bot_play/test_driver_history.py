"""The bot driver reads a game's history once (SPEC §13): before each bot move it reads
only the actions it has not read yet, and what it holds is the history the bot's seat
sees, the hidden parts hidden (a masked game's walls without their owners)."""

from __future__ import annotations

import asyncio
from pathlib import Path

from corridorquest.bot_play.driver import BotDriver
from corridorquest.engine import PlaceWall, format_action
from corridorquest.services import games, play
from tests.support.services import service_context, started_game, state_of, to_move, user


def test_the_drivers_history_is_the_seats_history_after_every_move(tmp_path: Path) -> None:
    async def scenario() -> None:
        async with service_context(tmp_path) as ctx:
            ann, ben = user(ctx, "ann"), user(ctx, "ben")
            game_id = (await started_game(ctx, ann, ben, size=5, masked=True))["id"]
            driver = BotDriver(ctx, workers=1)
            try:
                for ply in range(1, 9):
                    mover = to_move(await games.show_game(ctx, ann, game_id), ann, ben)
                    actions = state_of(ctx, game_id).legal_actions()
                    walls = [a for a in actions if isinstance(a, PlaceWall)]
                    steps = [a for a in actions if not isinstance(a, PlaceWall)]
                    action = walls[0] if ply % 3 == 1 else steps[0]  # walls at plies 1, 4, 7
                    kind = "wall" if action in walls else "move"
                    await play.play(ctx, mover, game_id, kind, format_action(action))
                    for seat in (ann, ben):  # what the driver holds is what a full read shows
                        assert await driver._history(seat, game_id) == await play.history(
                            ctx, seat, game_id
                        )
                held = await driver._history(ben, game_id)
                assert [entry["n"] for entry in held] == list(range(1, 9))
                assert [entry["seat"] for entry in held if entry["type"] == "wall"] == [None] * 3
                assert await play.history(ctx, ben, game_id, after=5) == held[5:]
            finally:
                driver.slots.close()

    asyncio.run(scenario())
