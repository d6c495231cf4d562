"""Who is calling: a session token -> the current user (idle expiry on every use).

A session is valid until `expires_at`; every authenticated request pushes `expires_at`
to now + SESSION_IDLE_TIMEOUT (written at most once a minute, or every quarter of the
timeout when that is shorter, so reads stay cheap). An
expired session is answered with 401 `session_expired` (maintenance purges it).

On SQLite a session read is kept until its next touch is due
(services/known_sessions.py: what ends it or changes its user drops it at once), so most
requests do not read it at all.
"""

from __future__ import annotations

import functools
from dataclasses import dataclass
from datetime import datetime, timedelta

from corridorquest.security.tokens import hash_token
from corridorquest.services.context import ServiceContext
from corridorquest.services.errors import Unauthenticated
from corridorquest.services.known_sessions import KnownSessions
from corridorquest.store.models import utcnow
from corridorquest.store.session_rows import data_version, session_user, touch_session

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


def _authenticate(token: str, idle_timeout: int, known: KnownSessions | None) -> CurrentUser:
    token_hash = hash_token(token)
    now = utcnow()
    version = 0
    if known is not None:
        version = data_version()
        user = known.get(token_hash, now, version)
        if user is not None:
            return user  # type: ignore[no-any-return]
    found = session_user(token_hash)
    if found is None:
        raise Unauthenticated("unauthenticated", "not logged in (unknown or ended session)")
    if found.expires_at <= now:
        raise Unauthenticated("session_expired", "your session expired; log in again")
    if found.locked:
        raise Unauthenticated("unauthenticated", "this account is locked")
    expires_at, last_seen_at = found.expires_at, found.last_seen_at
    interval = touch_interval(idle_timeout)
    if now - last_seen_at >= interval:
        expires_at = now + timedelta(seconds=idle_timeout)
        if touch_session(found.session_id, now, expires_at):
            last_seen_at = now
    user = CurrentUser(
        id=found.user_id,
        username=found.username,
        email=found.email,
        is_admin=found.is_admin,
        session_id=found.session_id,
        session_expires_at=expires_at,
    )
    if known is not None:
        known.keep(token_hash, user, min(expires_at, last_seen_at + interval), version)
    return user


async def authenticate(ctx: ServiceContext, token: str) -> CurrentUser:
    """The user of a session token; raises Unauthenticated (401)."""
    if not token:
        raise Unauthenticated("unauthenticated", "log in first (Authorization: Bearer <token>)")
    if not (token.isascii() and token.isprintable()):  # raw bytes arrive as surrogates
        raise Unauthenticated("unauthenticated", "not logged in (malformed session token)")
    idle_timeout = ctx.settings.session_idle_timeout
    return await ctx.store.autocommit(_authenticate, token, idle_timeout, ctx.known_sessions)
