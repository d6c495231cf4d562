"""Invitation e-mails: a subscriber of `PlayersInvited` that queues one mail per invitee,
and the hourly limit of invitation mails per user (INVITATION_MAILS_PER_HOUR).

The games service only publishes the event; this module knows the mail wording and
uses the context's outbox (which never blocks or fails the request that invited).
`reserve` counts the mails of an invitation inside the inviting write's transaction, so
an invitation beyond the limit is refused (429) before anything changed.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from datetime import timedelta

from corridorquest.events import PlayersInvited
from corridorquest.services.context import ServiceContext
from corridorquest.services.errors import RateLimited
from corridorquest.store import transaction_lock
from corridorquest.store.models import Game, InvitationMail, User, utcnow

WINDOW = timedelta(hours=1)


@dataclass(frozen=True)
class Invitation:
    to: str
    subject: str
    body: str


def _invitations(event: PlayersInvited) -> list[Invitation]:
    game = Game.get_or_none(Game.id == event.game_id)
    inviter = User.get_or_none(User.id == event.inviter_id)
    if game is None or inviter is None:
        return []
    variant = f"{game.players} players, {game.size}x{game.size}"
    modes = [name for name in ("masked", "invisible", "private") if getattr(game, name)]
    if modes:
        variant += ", " + ", ".join(modes)
    mails = []
    for invitee in User.select().where(User.id.in_(list(event.invitee_ids))):
        body = (
            f"Hello {invitee.username},\n\n"
            f"{inviter.username} invites you to Corridor Quest game {game.id} ({variant}).\n\n"
            f"Invitation code: {event.invitation_code}\n\n"
            f"Join with:\n  cq game join --game-id {game.id} "
            f"--invitation-code {event.invitation_code}\n"
        )
        mails.append(
            Invitation(
                to=invitee.email,
                subject=f"Corridor Quest: {inviter.username} invites you to game {game.id}",
                body=body,
            )
        )
    return mails


def reserve(inviter_id: int, mails: int, limit: int) -> None:
    """Inside the inviting write's transaction: count `mails` invitation mails against the
    inviter's hourly `limit`, or raise RateLimited (429, retry_after) when they would pass it."""
    transaction_lock(f"invitation-mails:{inviter_id}")
    now = utcnow()
    recent = list(
        InvitationMail.select(InvitationMail.mails, InvitationMail.at)
        .where((InvitationMail.user == inviter_id) & (InvitationMail.at > now - WINDOW))
        .order_by(InvitationMail.at)
    )
    sent = sum(row.mails for row in recent)
    if sent + mails > limit:
        # The time until enough of this hour's mails leave the window (never, if this
        # invitation alone is over the limit: then an hour, and the message says why).
        freed, wait = 0, WINDOW
        for row in recent:
            freed += row.mails
            if sent - freed + mails <= limit:
                wait = row.at + WINDOW - now
                break
        raise RateLimited(
            "invitation_limit",
            f"you may send {limit} invitation e-mails per hour; "
            f"{sent} went out in the last hour and this invitation needs {mails}",
            retry_after=max(1, math.ceil(wait.total_seconds())),
        )
    InvitationMail.create(user=inviter_id, mails=mails, at=now)


def purge_expired() -> int:
    """Delete the records of invitation mails older than the window (maintenance)."""
    return int(InvitationMail.delete().where(InvitationMail.at <= utcnow() - WINDOW).execute())


def register(ctx: ServiceContext) -> None:
    async def send_invitations(event: PlayersInvited) -> None:
        for mail in await ctx.store.transaction(_invitations, event):
            ctx.outbox.send(mail.to, mail.subject, mail.body)

    ctx.bus.subscribe(PlayersInvited, send_invitations)
