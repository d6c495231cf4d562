"""Stalling players (SPEC §10): a player whose turn has lasted STALL_TIMEOUT is removed,
which cancels the game like a withdrawal, with a system message saying why.

The scheduler calls `sweep_stalls`; it knows nothing of games. The deadlines come from
the database (each started game's `turn_since`), so a restart loses nothing and a late
start catches up. Each removal is a write of its own, made like every other game write
(`games.run_system_write`: one transaction, the revision moved on, system messages in the
same transaction, events published after the commit), and is idempotent: it removes the
player only while the game is still started, it is still that player's turn, and the
turn began at the moment the sweep saw. A move in between, or another sweep that came
first, leaves nothing to do.
"""

from __future__ import annotations

from datetime import datetime, timedelta

from corridorquest.events import Event
from corridorquest.services.context import ServiceContext
from corridorquest.services.errors import NotFound
from corridorquest.services.game_access import load_game
from corridorquest.services.games import cancel_game, run_system_write
from corridorquest.services.user_refs import ref
from corridorquest.store.models import Game, utcnow

BATCH = 20  # stalled games read per transaction; each removal is a transaction of its own


def describe(seconds: int) -> str:
    """A duration for a message: "14 days", "5 minutes", "2 seconds"."""
    for unit, size in (("day", 86400), ("hour", 3600), ("minute", 60)):
        if seconds >= size and seconds % size == 0:
            count = seconds // size
            return f"{count} {unit}{'s' if count != 1 else ''}"
    return f"{seconds} second{'s' if seconds != 1 else ''}"


def stalled_turns(timeout_seconds: int, limit: int = BATCH) -> list[tuple[int, int, datetime]]:
    """(game id, user to move, turn since) of started games whose turn lasted the timeout,
    the longest first (inside a transaction)."""
    cutoff = utcnow() - timedelta(seconds=timeout_seconds)
    query = (
        Game.select(Game.id, Game.turn_user, Game.turn_since)
        .where(
            (Game.status == "started") & Game.turn_user.is_null(False) & (Game.turn_since <= cutoff)
        )
        .order_by(Game.turn_since, Game.id)
        .limit(limit)
        .tuples()
    )
    rows: list[tuple[int, int, datetime]] = [tuple(row) for row in query]  # type: ignore[misc]
    return rows


def earliest_turn_since() -> datetime | None:
    """When the longest-running turn of a started game began (inside a transaction)."""
    row = (
        Game.select(Game.turn_since)
        .where((Game.status == "started") & Game.turn_since.is_null(False))
        .order_by(Game.turn_since)
        .limit(1)
        .tuples()
        .first()
    )
    return None if row is None else row[0]  # type: ignore[index]


async def remove_stalled_player(
    ctx: ServiceContext, game_id: int, user_id: int, turn_since: datetime
) -> bool:
    """Remove `user_id` from game `game_id` for stalling since `turn_since`, which cancels
    the game; False (nothing written) when that turn is over or the game is no longer
    started."""
    timeout = ctx.settings.stall_timeout

    def write(events: list[Event]) -> bool:
        try:
            loaded = load_game(game_id, lock=True)
        except NotFound:  # the game is gone (purged): nothing to do
            return False
        game = loaded.game
        due = game.turn_since is not None and game.turn_since <= utcnow() - timedelta(
            seconds=timeout
        )
        if (
            game.status != "started"
            or game.turn_user_id != user_id
            or game.turn_since != turn_since
            or not due
        ):
            return False
        game.revision += 1
        reason = f"{ref(user_id)} did not move for {describe(timeout)} and was removed"
        events.append(cancel_game(loaded, None, reason))
        game.save()
        return True

    return await run_system_write(ctx, write)


async def sweep_stalls(ctx: ServiceContext) -> datetime | None:
    """Remove every player whose turn has lasted STALL_TIMEOUT; the next moment a turn
    can reach it (the scheduler wakes then).

    A game that starts or moves after this sweep reaches the timeout STALL_TIMEOUT from now
    at the earliest, so the answer is never later than that.
    """
    timeout = ctx.settings.stall_timeout
    while True:
        stalled = await ctx.store.transaction(stalled_turns, timeout)
        removed = 0
        for game_id, user_id, since in stalled:
            removed += await remove_stalled_player(ctx, game_id, user_id, since)
        if len(stalled) < BATCH or not removed:
            break
    horizon = utcnow() + timedelta(seconds=timeout)
    earliest = await ctx.store.transaction(earliest_turn_since)
    if earliest is None:
        return horizon
    return min(horizon, earliest + timedelta(seconds=timeout))
