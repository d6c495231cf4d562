"""The hourly limit of invitation mails per user (INVITATION_MAILS_PER_HOUR).

The games service keeps a `PlayersInvited` event with the invitation; the notifications
(corridorquest/notify) word and send the mails. `reserve` counts the mails of an
invitation inside the inviting write's transaction, so an invitation beyond the limit is
refused (429) before anything changed.
"""

from __future__ import annotations

import math
from datetime import timedelta

from corridorquest.services.errors import RateLimited
from corridorquest.store import transaction_lock
from corridorquest.store.models import InvitationMail, utcnow

WINDOW = timedelta(hours=1)


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
