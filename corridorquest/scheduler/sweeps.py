"""The sweeps the scheduler runs, each a call into its domain (SPEC §10).

- stalls: remove players whose turn lasted STALL_TIMEOUT (`services.stalls`); wakes at
  the next turn's deadline.
- reminders: remind players whose turn lasted STALL_REMIND_AFTER, again every
  STALL_REMIND_INTERVAL (`services.stalls`); wakes at the next reminder's moment.
- tournaments, every SCHEDULER_INTERVAL: settle ended games, make the next rounds
  (`services.tournament_rounds`); nudged at once when a game ends (`tournament_nudge`).
- digests, every SCHEDULER_INTERVAL: the daily digest mails due (`notify.digest`).
- maintenance, every SCHEDULER_INTERVAL: cancelled games past CANCELLED_RETENTION,
  expired verifications and signups, expired sessions and old login attempts, old
  idempotency keys, old invitation-mail records, delivered outbox rows past
  OUTBOX_RETENTION, guests without play for GUEST_PURGE_AFTER (`services.guests`).

A purge runs in transactions of at most `PURGE_BATCH` games (the store's transactions run
inline on SQLite: keep each one short).
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable
from datetime import datetime

from corridorquest.notify.digest import send_digests
from corridorquest.scheduler.leader import leadership_for
from corridorquest.scheduler.loop import Scheduler, Sweep
from corridorquest.scheduler.tournament_nudge import follow_tournament_games
from corridorquest.services import games, idempotency, invitations, sessions, verification
from corridorquest.services.context import ServiceContext
from corridorquest.services.guests import purge_idle_guests
from corridorquest.services.stalls import (
    remove_stalled,
    send_reminders,
    sweep_reminders,
    sweep_stalls,
)
from corridorquest.services.tournament_rounds import sweep_tournaments
from corridorquest.store import outbox


async def purge_cancelled_games(ctx: ServiceContext) -> int:
    total = 0
    while True:
        removed = await ctx.store.transaction(
            games.purge_cancelled, ctx.settings.cancelled_retention, games.PURGE_BATCH
        )
        total += removed
        if removed < games.PURGE_BATCH:
            return total
        await asyncio.sleep(0)  # let requests in between two batches


async def purge_accounts(ctx: ServiceContext) -> int:
    settings = ctx.settings
    codes = await ctx.store.transaction(
        verification.purge_expired,
        verification.signup_retention(settings),
        settings.password_request_window,
        settings.signup_window,
    )
    return codes + await ctx.store.transaction(sessions.purge_expired, settings.login_rate_window)


async def purge_records(ctx: ServiceContext) -> int:
    keys = await ctx.store.transaction(idempotency.purge_expired)
    return keys + await ctx.store.transaction(invitations.purge_expired)


async def purge_outbox(ctx: ServiceContext) -> int:
    return await ctx.store.transaction(outbox.purge_done, ctx.settings.outbox_retention)


Step = Callable[[ServiceContext], Awaitable[int]]

# What `maintain_now` runs, and what each step's count means (`cq-admin server maintenance`).
STEPS: list[tuple[str, Step]] = [
    ("stalled players removed", remove_stalled),
    ("stall reminders sent", send_reminders),
    ("daily digests queued", send_digests),
    ("cancelled games purged", purge_cancelled_games),
    ("expired codes, signups, sessions and login records purged", purge_accounts),
    ("old idempotency keys and invitation-mail records purged", purge_records),
    ("guests without play removed", purge_idle_guests),
    ("delivered or given-up outbox rows purged", purge_outbox),
]


def every_interval(step: Step) -> Sweep:
    """A sweep that runs `step` every SCHEDULER_INTERVAL."""

    async def run(ctx: ServiceContext) -> datetime | None:
        await step(ctx)
        return None

    return Sweep(step.__name__, run)


SWEEPS: list[Sweep] = [
    Sweep("stalls", sweep_stalls),
    Sweep("reminders", sweep_reminders),
    Sweep("tournaments", sweep_tournaments),
    every_interval(send_digests),
    every_interval(purge_cancelled_games),
    every_interval(purge_accounts),
    every_interval(purge_records),
    every_interval(purge_idle_guests),
    every_interval(purge_outbox),
]


async def maintain_now(ctx: ServiceContext) -> list[tuple[str, int]]:
    """Run every step of the sweeps now (an administrator asked); what each did. Every
    step is idempotent, so running it beside the scheduler (or on a process that does
    not lead) does no harm."""
    return [(what, await step(ctx)) for what, step in STEPS]


def start_scheduler(ctx: ServiceContext) -> Scheduler:
    """Start the scheduler of this server process (it runs the sweeps while it leads)."""
    scheduler = Scheduler(ctx, SWEEPS, leadership_for(ctx))
    follow_tournament_games(ctx)
    scheduler.start()
    return scheduler
