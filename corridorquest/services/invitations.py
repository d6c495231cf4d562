"""Invitation e-mails: a subscriber of `PlayersInvited` that queues one mail per invitee.

The games service only publishes the event; this module knows the mail wording and
uses the context's outbox (which never blocks or fails the request that invited).
"""

from __future__ import annotations

from dataclasses import dataclass

from corridorquest.events import PlayersInvited
from corridorquest.services.context import ServiceContext
from corridorquest.store.models import Game, User


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


def register(ctx: ServiceContext) -> None:
    async def send_invitations(event: PlayersInvited) -> None:
        for mail in await ctx.store.transaction(_invitations, event):
            ctx.outbox.send(mail.to, mail.subject, mail.body)

    ctx.bus.subscribe(PlayersInvited, send_invitations)
