"""Who is calling: a session token -> the current user (idle expiry on every use).

A session is valid until `expires_at`; every authenticated request pushes `expires_at`
to now + SESSION_IDLE_TIMEOUT (written at most once a minute, or every quarter of the
timeout when that is shorter, so reads stay cheap). An
expired session is answered with 401 `session_expired` (maintenance purges it).
"""

from __future__ import annotations

import functools
from dataclasses import dataclass
from datetime import datetime, timedelta

from corridorquest.security.tokens import hash_token
from corridorquest.services.context import ServiceContext
from corridorquest.services.errors import Unauthenticated
from corridorquest.store.models import utcnow
from corridorquest.store.session_rows import session_user, touch_session

TOUCH_EVERY = timedelta(seconds=60)


@functools.cache  # one value per setting: asked on every authenticated request
def touch_interval(idle_timeout: int) -> timedelta:
    """How long a session's last write of its expiry may be old before a request renews
    it: once a minute, or a quarter of the idle timeout when that is shorter, so that a
    session in use never expires."""
    return min(TOUCH_EVERY, timedelta(seconds=idle_timeout / 4))


@dataclass(frozen=True)
class CurrentUser:
    id: int
    username: str
    email: str
    is_admin: bool
    session_id: int
    session_expires_at: datetime


def _authenticate(token: str, idle_timeout: int) -> CurrentUser:
    found = session_user(hash_token(token))
    if found is None:
        raise Unauthenticated("unauthenticated", "not logged in (unknown or ended session)")
    now = utcnow()
    if found.expires_at <= now:
        raise Unauthenticated("session_expired", "your session expired; log in again")
    if found.locked:
        raise Unauthenticated("unauthenticated", "this account is locked")
    expires_at = found.expires_at
    if now - found.last_seen_at >= touch_interval(idle_timeout):
        expires_at = now + timedelta(seconds=idle_timeout)
        touch_session(found.session_id, now, expires_at)
    return CurrentUser(
        id=found.user_id,
        username=found.username,
        email=found.email,
        is_admin=found.is_admin,
        session_id=found.session_id,
        session_expires_at=expires_at,
    )


async def authenticate(ctx: ServiceContext, token: str) -> CurrentUser:
    """The user of a session token; raises Unauthenticated (401)."""
    if not token:
        raise Unauthenticated("unauthenticated", "log in first (Authorization: Bearer <token>)")
    if not (token.isascii() and token.isprintable()):  # raw bytes arrive as surrogates
        raise Unauthenticated("unauthenticated", "not logged in (malformed session token)")
    return await ctx.store.autocommit(_authenticate, token, ctx.settings.session_idle_timeout)
