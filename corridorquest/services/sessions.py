"""Login and logout: argon2id check, rate limits, one active session per user (SPEC §7).

Rate limits count failed logins in the ``login_attempt`` table, so they hold across
server processes sharing the database: per username (LOGIN_RATE_LIMIT_USER) and per
client address (LOGIN_RATE_LIMIT_ADDRESS) within LOGIN_RATE_WINDOW. A refused attempt
(429) is not counted, so waiting ``retry_after`` seconds always helps; a successful login
clears the failures of that username.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timedelta

from corridorquest.security.passwords import dummy_hash, verify_password_sync
from corridorquest.security.ratelimit import RateLimit
from corridorquest.security.tokens import hash_token, new_token
from corridorquest.services.auth import CurrentUser
from corridorquest.services.context import ServiceContext
from corridorquest.services.errors import (
    Conflict,
    Forbidden,
    RateLimited,
    Unauthenticated,
)
from corridorquest.store import lock_for_update
from corridorquest.store.models import LoginAttempt, Session, User, utcnow

ADDRESS_MAX = 64


@dataclass(frozen=True)
class _Candidate:
    user_id: int | None
    password_hash: str


@dataclass(frozen=True)
class NewSession:
    token: str
    username: str
    expires_at: datetime


def _limits(ctx: ServiceContext) -> tuple[RateLimit, RateLimit]:
    window = float(ctx.settings.login_rate_window)
    return (
        RateLimit(ctx.settings.login_rate_limit_user, window),
        RateLimit(ctx.settings.login_rate_limit_address, window),
    )


def _failures(
    since: datetime, username: str | None = None, address: str | None = None
) -> list[datetime]:
    """Times of failed logins since ``since`` for the username or for the address."""
    query = LoginAttempt.select(LoginAttempt.at).where(
        (LoginAttempt.succeeded == False) & (LoginAttempt.at > since)  # noqa: E712
    )
    if username is not None:
        query = query.where(LoginAttempt.username == username)
    else:
        query = query.where(LoginAttempt.address == address)
    return [row.at for row in query]


def _key(username: str) -> str:
    """How a login name is stored in ``login_attempt`` (lower case, no NUL, bounded)."""
    return username.lower().replace("\x00", "?")[:64]


def find_user(username: str) -> User | None:
    """The user with this username, compared without regard to case (inside a transaction)."""
    if "\x00" in username:  # PostgreSQL refuses NUL in text; no username has one
        return None
    return User.find_by_name(username)


def _check_limits(
    username: str, address: str, per_user: RateLimit, per_address: RateLimit
) -> tuple[int | None, _Candidate]:
    now = utcnow()
    waits = [
        per_user.retry_after(_failures(per_user.window_start(now), username=_key(username)), now),
        per_address.retry_after(_failures(per_address.window_start(now), address=address), now),
    ]
    user = find_user(username)
    candidate = _Candidate(None, "") if user is None else _Candidate(user.id, user.password_hash)
    known = [w for w in waits if w is not None]
    return (max(known) if known else None), candidate


def _record_failure(username: str, address: str) -> None:
    LoginAttempt.create(username=_key(username), address=address, succeeded=False)


def _open_session(user_id: int, address: str, replace: bool, idle_timeout: int) -> NewSession | str:
    user = lock_for_update(User.select().where(User.id == user_id)).first()
    if user is None:
        return "gone"
    if user.locked:
        return "locked"
    if not user.verified:
        return "unverified"
    now = utcnow()
    Session.delete().where((Session.user == user) & (Session.expires_at <= now)).execute()
    active = Session.select().where(Session.user == user).exists()
    if active and not replace:
        return "active"
    Session.delete().where(Session.user == user).execute()
    token = new_token()
    expires_at = now + timedelta(seconds=idle_timeout)
    Session.create(token_hash=hash_token(token), user=user, last_seen_at=now, expires_at=expires_at)
    LoginAttempt.delete().where(
        (LoginAttempt.username == _key(user.username)) & (LoginAttempt.succeeded == False)  # noqa: E712
    ).execute()
    LoginAttempt.create(username=_key(user.username), address=address, succeeded=True)
    return NewSession(token, user.username, expires_at)


async def login(
    ctx: ServiceContext, username: str, password: str, address: str, replace: bool = False
) -> NewSession:
    """Check the password and open the user's session (replacing an active one if asked)."""
    address = (address or "unknown")[:ADDRESS_MAX]
    per_user, per_address = _limits(ctx)
    wait, candidate = await ctx.store.transaction(
        _check_limits, username, address, per_user, per_address
    )
    if wait is not None:
        raise RateLimited(
            "rate_limited",
            f"too many failed logins; try again in {wait} seconds",
            retry_after=wait,
        )
    stored = candidate.password_hash or dummy_hash()
    matches = await ctx.run_blocking(verify_password_sync, stored, password)
    if candidate.user_id is None or not matches:
        await ctx.store.transaction(_record_failure, username, address)
        raise Unauthenticated("invalid_credentials", "unknown username or wrong password")
    result = await ctx.store.transaction(
        _open_session, candidate.user_id, address, replace, ctx.settings.session_idle_timeout
    )
    if isinstance(result, NewSession):
        return result
    if result == "locked":
        raise Forbidden(
            "account_locked", "this account is locked; ask a server administrator to unlock it"
        )
    if result == "unverified":
        raise Forbidden(
            "account_unverified",
            "this account is not verified yet: enter the e-mailed code with `cq verify`",
        )
    if result == "active":
        raise Conflict(
            "session_active",
            "you are already logged in elsewhere; log in with replace to end that session",
        )
    raise Unauthenticated("invalid_credentials", "unknown username or wrong password")


def _end(session_id: int) -> None:
    Session.delete().where(Session.id == session_id).execute()


async def logout(ctx: ServiceContext, user: CurrentUser) -> None:
    """End the caller's session; its token stops working at once."""
    await ctx.store.transaction(_end, user.session_id)


def purge_expired(rate_window_seconds: int = 86400) -> int:
    """Delete expired sessions and login attempts older than the rate-limit window (at
    least a day); inside a transaction, for maintenance. Returns how many rows went."""
    now = utcnow()
    keep = timedelta(seconds=max(rate_window_seconds, 86400))
    removed = Session.delete().where(Session.expires_at <= now).execute()
    removed += LoginAttempt.delete().where(LoginAttempt.at <= now - keep).execute()
    return int(removed)
