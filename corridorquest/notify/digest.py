"""The daily digest (`cq user notify --digest`): instead of one e-mail per event, at most
one e-mail a day listing the games where it is the user's turn.

A sweep of the scheduler (every SCHEDULER_INTERVAL): a user with the digest on, whose
last digest is a day old (or who never had one) and on whose move at least one started
game waits, gets one. The mail is queued in the durable outbox in the same transaction
that notes the day's digest as sent, so a restart neither loses nor repeats it.
"""

from __future__ import annotations

import asyncio
from datetime import timedelta

from corridorquest.notify import wording
from corridorquest.notify.address import ServerAddress, server_address
from corridorquest.services.context import ServiceContext
from corridorquest.services.outbound import queue_mail, wake
from corridorquest.store.models import Game, GamePlayer, User, utcnow

EVERY = timedelta(days=1)
BATCH = 50  # users per transaction


def _since(game: Game) -> str:
    return game.turn_since.isoformat() + "Z" if game.turn_since else "?"


def queue_due_digests(limit: int = BATCH, address: ServerAddress | None = None) -> int:
    """Inside a transaction: queue the digests due now (up to `limit` users); how many.
    (`address`: links each public game's page when PUBLIC_URL is set.)"""
    now = utcnow()
    waiting = Game.select(Game.turn_user).where(
        (Game.status == "started") & Game.turn_user.is_null(False)
    )
    users = list(
        User.select()
        .where(
            User.notify_digest
            & (User.digest_sent_at.is_null() | (User.digest_sent_at <= now - EVERY))
            & User.id.in_(waiting)
        )
        .order_by(User.id)
        .limit(limit)
    )
    for user in users:
        games = list(
            Game.select()
            .where((Game.status == "started") & (Game.turn_user == user.id))
            .order_by(Game.turn_since, Game.id)
        )
        others: dict[int, list[str]] = {game.id: [] for game in games}
        rows = (
            GamePlayer.select(GamePlayer.game, User.username)
            .join(User)
            .where(GamePlayer.game.in_(list(others)) & (GamePlayer.user != user.id))
            .order_by(GamePlayer.id)
            .tuples()
        )
        for game_id, name in rows:
            others[game_id].append(name)
        listed = [
            (game.id, ", ".join(others[game.id]), _since(game),
             address.game_page(game.id, not game.private) if address else None)
            for game in games
        ]
        subject, body = wording.digest_mail(user.username, listed)
        queue_mail(user.email, subject, body)
        user.digest_sent_at = now
        user.save(only=[User.digest_sent_at])
    return len(users)


async def send_digests(ctx: ServiceContext) -> int:
    """The scheduler's sweep: every digest due now; how many."""
    queued = 0
    while True:
        count = await ctx.store.transaction(
            queue_due_digests, BATCH, server_address(ctx.settings)
        )
        queued += count
        if count < BATCH:
            break
        await asyncio.sleep(0)
    if queued:
        wake(ctx)
    return queued
