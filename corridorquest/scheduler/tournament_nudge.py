"""The nudge of the tournaments (SPEC §15): when a game ends in this process, advance its
tournament at once (the next round need not wait for the scheduler's sweep, which remains
the safety net after a restart or a lost event). Runs in every process, leader or not:
making a round is exactly-once by itself (`services.tournament_rounds`)."""

from __future__ import annotations

import logging

from corridorquest.events import GameCancelled, GameFinished
from corridorquest.services.context import ServiceContext
from corridorquest.services.tournament_rounds import advance_for_game

log = logging.getLogger("corridorquest.scheduler")


def follow_tournament_games(ctx: ServiceContext) -> None:
    async def ended(event: GameFinished | GameCancelled) -> None:
        try:
            await advance_for_game(ctx, event.game_id)
        except Exception:  # the sweep tries again
            log.exception("tournament of game %d: could not advance", event.game_id)

    ctx.bus.subscribe(GameFinished, ended)
    ctx.bus.subscribe(GameCancelled, ended)
