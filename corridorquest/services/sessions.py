"""Login and logout: argon2id check, rate limits, one active session per user (SPEC §7).

Rate limits count failed logins in the ``login_attempt`` table, so they hold across
server processes sharing the database: per username (LOGIN_RATE_LIMIT_USER) and per
client address (LOGIN_RATE_LIMIT_ADDRESS) within LOGIN_RATE_WINDOW.

An attempt is counted BEFORE its password is checked: one transaction checks both limits
and, if the attempt is allowed, records it as a failure; only then does argon2 run (for
about 0.1 s, in the password pool). A correct password then marks that row succeeded.
So parallel attempts cannot all pass the check while the first ones are still being
verified: the ones beyond the limit get 429 at once. The transaction holds the username's
and the address's locks (`transaction_lock`: advisory locks on PostgreSQL, the event
loop's order on SQLite), so two processes cannot both take the last free attempt.

A refused attempt (429) is not counted, so waiting ``retry_after`` seconds always helps;
neither is one refused because password hashing is busy (503 ``password_hashing_busy``:
its row is removed again). A successful login clears the failures of that username.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timedelta

from corridorquest.security.passwords import check_login_password
from corridorquest.security.ratelimit import RateLimit
from corridorquest.security.tokens import hash_token, new_token
from corridorquest.services.auth import CurrentUser
from corridorquest.services.context import PasswordHashingBusy, ServiceContext
from corridorquest.services.errors import (
    Conflict,
    Forbidden,
    RateLimited,
    Unauthenticated,
)
from corridorquest.services.session_ends import SessionsEnded, announce, end_sessions, tell
from corridorquest.store import lock_for_update, transaction_lock
from corridorquest.store.models import LoginAttempt, Session, User, utcnow

ADDRESS_MAX = 64


@dataclass(frozen=True)
class _Admitted:
    """An attempt allowed by the rate limits and already counted as a failure."""

    attempt_id: int
    user_id: int | None
    password_hash: str | None


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


def _admit(
    username: str, address: str, per_user: RateLimit, per_address: RateLimit
) -> int | _Admitted:
    """Check both limits and, if the attempt is allowed, count it as a failure now.

    Returns the seconds to wait (over a limit; nothing recorded) or the admitted attempt.
    The locks serialise the check and the insert of concurrent attempts for the same
    username or address across processes (PostgreSQL); always username first, then
    address, so two attempts never wait for each other in a circle.
    """
    key = _key(username)
    transaction_lock(f"login_attempt:user:{key}")
    transaction_lock(f"login_attempt:address:{address}")
    now = utcnow()
    waits = [
        per_user.retry_after(_failures(per_user.window_start(now), username=key), now),
        per_address.retry_after(_failures(per_address.window_start(now), address=address), now),
    ]
    known = [w for w in waits if w is not None]
    if known:
        return max(known)
    attempt = LoginAttempt.create(username=key, address=address, succeeded=False, at=now)
    user = find_user(username)
    if user is None:
        return _Admitted(attempt.id, None, None)
    return _Admitted(attempt.id, user.id, user.password_hash)


def _forget(attempt_id: int) -> None:
    """Un-count an admitted attempt whose password was never checked."""
    LoginAttempt.delete().where(LoginAttempt.id == attempt_id).execute()


def _open_session(
    user_id: int, attempt_id: int, replace: bool, idle_timeout: int
) -> NewSession | str:
    """The password was right: mark the attempt so, and open the session if the account
    may have one."""
    user = lock_for_update(User.select().where(User.id == user_id)).first()
    if user is None:
        return "gone"
    LoginAttempt.update(succeeded=True).where(LoginAttempt.id == attempt_id).execute()
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
    return NewSession(token, user.username, expires_at)


async def login(
    ctx: ServiceContext, username: str, password: str, address: str, replace: bool = False
) -> NewSession:
    """Check the password and open the user's session (replacing an active one if asked)."""
    address = (address or "unknown")[:ADDRESS_MAX]
    per_user, per_address = _limits(ctx)
    admitted = await ctx.store.transaction(_admit, username, address, per_user, per_address)
    if not isinstance(admitted, _Admitted):
        raise RateLimited(
            "rate_limited",
            f"too many failed logins; try again in {admitted} seconds",
            retry_after=admitted,
        )
    try:
        # Unknown usernames are checked against a dummy hash: the same work, the same time.
        matches = await ctx.password_work(check_login_password, admitted.password_hash, password)
    except PasswordHashingBusy:  # 503: this attempt checked nothing, so it is not counted
        await ctx.store.transaction(_forget, admitted.attempt_id)
        raise
    if admitted.user_id is None or not matches:
        raise Unauthenticated("invalid_credentials", "unknown username or wrong password")
    result = await ctx.store.transaction(
        _open_session,
        admitted.user_id,
        admitted.attempt_id,
        replace,
        ctx.settings.session_idle_timeout,
    )
    if isinstance(result, NewSession):
        if replace:  # the streams of the sessions it replaced end
            await tell(ctx, SessionsEnded(admitted.user_id))
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


async def logout(ctx: ServiceContext, user: CurrentUser) -> None:
    """End the caller's session; its token stops working at once (its streams too)."""

    def end() -> SessionsEnded:
        ended = end_sessions(user.id, user.session_id)
        announce(ctx, ended)
        return ended

    ctx.bus.publish(await ctx.store.transaction(end))


def purge_expired(rate_window_seconds: int = 86400) -> int:
    """Delete expired sessions and login attempts older than the rate-limit window (at
    least a day); inside a transaction, for maintenance. Returns how many rows went."""
    now = utcnow()
    keep = timedelta(seconds=max(rate_window_seconds, 86400))
    removed = Session.delete().where(Session.expires_at <= now).execute()
    removed += LoginAttempt.delete().where(LoginAttempt.at <= now - keep).execute()
    return int(removed)
