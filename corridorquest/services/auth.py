"""Who is calling: a session token -> the current user (idle expiry on every use).

A session is valid until `expires_at`; every authenticated request pushes `expires_at`
to now + SESSION_IDLE_TIMEOUT (written at most once a minute, so reads stay cheap). An
expired session is answered with 401 `session_expired` (maintenance purges it).
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timedelta

from corridorquest.security.tokens import hash_token
from corridorquest.services.context import ServiceContext
from corridorquest.services.errors import Unauthenticated
from corridorquest.store import fast
from corridorquest.store.models import Session, User, utcnow

TOUCH_EVERY = timedelta(seconds=60)


@dataclass(frozen=True)
class CurrentUser:
    id: int
    username: str
    email: str
    is_admin: bool
    session_id: int
    session_expires_at: datetime


def _authenticate(token: str, idle_timeout: int) -> CurrentUser:
    found = fast.select_with(
        Session,
        User,
        'r."id" = t."user_id"',
        't."token_hash" = ?',
        (hash_token(token),),
        related_fields=("id", "username", "email", "is_admin", "locked"),
    )
    if not found:
        raise Unauthenticated("unauthenticated", "not logged in (unknown or ended session)")
    row, user = found[0]
    now = utcnow()
    if row.expires_at <= now:
        raise Unauthenticated("session_expired", "your session expired; log in again")
    if user.locked:
        raise Unauthenticated("unauthenticated", "this account is locked")
    if now - row.last_seen_at >= TOUCH_EVERY:
        row.last_seen_at = now
        row.expires_at = now + timedelta(seconds=idle_timeout)
        fast.update(row, "last_seen_at", "expires_at")
    return CurrentUser(
        id=user.id,
        username=user.username,
        email=user.email,
        is_admin=user.is_admin,
        session_id=row.id,
        session_expires_at=row.expires_at,
    )


async def authenticate(ctx: ServiceContext, token: str) -> CurrentUser:
    """The user of a session token; raises Unauthenticated (401)."""
    if not token:
        raise Unauthenticated("unauthenticated", "log in first (Authorization: Bearer <token>)")
    return await ctx.store.transaction(_authenticate, token, ctx.settings.session_idle_timeout)
