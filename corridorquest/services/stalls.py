"""Stalling players (SPEC §10): a player whose turn has lasted STALL_REMIND_AFTER is
reminded (`StallReminder`, a kept event: the notifications tell the player), again every
STALL_REMIND_INTERVAL; a player whose turn has lasted STALL_TIMEOUT is removed, which
cancels the game like a withdrawal, with a system message saying why.

The scheduler calls `sweep_stalls`; it knows nothing of games. The deadlines come from
the database (each started game's `turn_since`), so a restart loses nothing and a late
start catches up. Each removal is a write of its own, made like every other game write
(`unit_of_work.system_write_game`: one transaction, the revision moved on, system messages in the
same transaction, events published after the commit), and is idempotent: it removes the
player only while the game is still started, it is still that player's turn, and the
turn began at the moment the sweep saw. A move in between, or another sweep that came
first, leaves nothing to do.
"""

from __future__ import annotations

from datetime import datetime, timedelta
from typing import Any

from corridorquest.events import Event, StallReminder
from corridorquest.services.context import ServiceContext
from corridorquest.services.games import cancel_game
from corridorquest.services.unit_of_work import GameWrite, run_system_write, system_write_game
from corridorquest.services.user_refs import ref
from corridorquest.store.models import Game, User, utcnow

BATCH = 20  # stalled games read per transaction; each removal is a transaction of its own


def describe(seconds: int) -> str:
    """A duration for a message: "14 days", "5 minutes", "2 seconds"."""
    for unit, size in (("day", 86400), ("hour", 3600), ("minute", 60)):
        if seconds >= size and seconds % size == 0:
            count = seconds // size
            return f"{count} {unit}{'s' if count != 1 else ''}"
    return f"{seconds} second{'s' if seconds != 1 else ''}"


def _bots() -> Any:
    """The ids of the bot users (a subquery): bots are never reminded nor removed."""
    return User.select(User.id).where(User.bot_level.is_null(False))


def stalled_turns(timeout_seconds: int, limit: int = BATCH) -> list[tuple[int, int, datetime]]:
    """(game id, user to move, turn since) of started games whose turn lasted the timeout,
    the longest first (inside a transaction)."""
    cutoff = utcnow() - timedelta(seconds=timeout_seconds)
    query = (
        Game.select(Game.id, Game.turn_user, Game.turn_since)
        .where(
            (Game.status == "started")
            & Game.turn_user.is_null(False)
            & (Game.turn_since <= cutoff)
            & Game.turn_user.not_in(_bots())  # a bot is never stalled (SPEC §13)
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

    def remove(work: GameWrite) -> bool:
        loaded = work.loaded
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
        work.emit(cancel_game(loaded, None, reason))
        game.save()
        return True

    # the game gone (purged): nothing to do
    return await system_write_game(ctx, game_id, remove, if_missing=False)


async def remove_stalled(ctx: ServiceContext) -> int:
    """Remove every player whose turn has lasted STALL_TIMEOUT; how many were removed."""
    timeout = ctx.settings.stall_timeout
    total = 0
    while True:
        stalled = await ctx.store.transaction(stalled_turns, timeout)
        removed = 0
        for game_id, user_id, since in stalled:
            removed += await remove_stalled_player(ctx, game_id, user_id, since)
        total += removed
        if len(stalled) < BATCH or not removed:
            return total


async def sweep_stalls(ctx: ServiceContext) -> datetime | None:
    """`remove_stalled`, then the next moment a turn can reach STALL_TIMEOUT (the
    scheduler wakes then).

    A game that starts or moves after this sweep reaches the timeout STALL_TIMEOUT from now
    at the earliest, so the answer is never later than that.
    """
    timeout = ctx.settings.stall_timeout
    await remove_stalled(ctx)
    horizon = utcnow() + timedelta(seconds=timeout)
    earliest = await ctx.store.transaction(earliest_turn_since)
    if earliest is None:
        return horizon
    return min(horizon, earliest + timedelta(seconds=timeout))


# --- reminders ----------------------------------------------------------------------------


def remind_due(
    after_seconds: int, interval_seconds: int, timeout_seconds: int
) -> list[StallReminder]:
    """Inside a transaction: mark up to BATCH turns whose reminder is due as reminded now;
    a `StallReminder` for each. Due: the turn has lasted
    `after_seconds`, the last reminder of that turn (if any) is `interval_seconds` old, and
    the player is not already due for removal."""
    now = utcnow()
    first = now - timedelta(seconds=after_seconds)
    again = now - timedelta(seconds=interval_seconds)
    removal = now - timedelta(seconds=timeout_seconds)
    rows = list(
        Game.select(Game.id, Game.revision, Game.turn_user, Game.turn_since)
        .where(
            (Game.status == "started")
            & Game.turn_user.is_null(False)
            & (Game.turn_since <= first)
            & (Game.turn_since > removal)
            & (Game.reminded_at.is_null() | (Game.reminded_at <= again))
            & Game.turn_user.not_in(_bots())  # nor reminded
        )
        .order_by(Game.turn_since, Game.id)
        .limit(BATCH)
    )
    if not rows:
        return []
    Game.update(reminded_at=now).where(Game.id.in_([row.id for row in rows])).execute()
    timeout = timedelta(seconds=timeout_seconds)
    return [
        StallReminder(
            game_id=row.id,
            revision=row.revision,
            user_id=row.turn_user_id,
            turn_since=row.turn_since.isoformat() + "Z",
            removal_at=(row.turn_since + timeout).isoformat() + "Z",
        )
        for row in rows
    ]


def next_reminder(after_seconds: int, interval_seconds: int) -> datetime | None:
    """Inside a transaction: the next moment a reminder falls due (None: no started game)."""
    started = (Game.status == "started") & Game.turn_since.is_null(False)
    unreminded = (
        Game.select(Game.turn_since)
        .where(started & Game.reminded_at.is_null())
        .order_by(Game.turn_since)
        .first()
    )
    reminded = (
        Game.select(Game.reminded_at)
        .where(started & Game.reminded_at.is_null(False))
        .order_by(Game.reminded_at)
        .first()
    )
    moments = []
    if unreminded is not None:
        moments.append(unreminded.turn_since + timedelta(seconds=after_seconds))
    if reminded is not None:
        moments.append(reminded.reminded_at + timedelta(seconds=interval_seconds))
    return min(moments) if moments else None


async def send_reminders(ctx: ServiceContext) -> int:
    """Remind every player whose turn has lasted STALL_REMIND_AFTER (again every
    STALL_REMIND_INTERVAL); how many reminders went out."""
    settings = ctx.settings
    after, interval = settings.stall_remind_after, settings.stall_remind_interval

    def remind(events: list[Event]) -> list[StallReminder]:
        reminders = remind_due(after, interval, settings.stall_timeout)
        events.extend(reminders)
        return reminders

    total = 0
    while True:
        reminders = await run_system_write(ctx, remind)
        total += len(reminders)
        if len(reminders) < BATCH:
            return total


async def sweep_reminders(ctx: ServiceContext) -> datetime | None:
    """`send_reminders`, then the next moment a reminder can fall due."""
    settings = ctx.settings
    after, interval = settings.stall_remind_after, settings.stall_remind_interval
    await send_reminders(ctx)
    horizon = utcnow() + timedelta(seconds=min(after, interval))
    found = await ctx.store.transaction(next_reminder, after, interval)
    return horizon if found is None else min(horizon, found)
