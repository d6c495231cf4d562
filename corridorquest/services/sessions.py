"""Login and logout: argon2id check, rate limits, one active session per user (SPEC §7).

Rate limits count failed logins in the ``login_attempt`` table, so they hold across
server processes sharing the database: per username (LOGIN_RATE_LIMIT_USER) and per
client address (LOGIN_RATE_LIMIT_ADDRESS) within LOGIN_RATE_WINDOW. Failures count,
successes do not: 25 friends behind one address all log in at once.

An attempt takes its slot BEFORE its password is checked: one transaction checks both
limits and, if the attempt is allowed, records it as ``checking``; only then does argon2
run (for about 0.1 s, in the password pool, off the event loop). A wrong password turns
the row into a failure; a correct one marks it succeeded, which gives the slot back. So
parallel attempts cannot all pass the check while the first ones are still being
verified: of 40 parallel wrong guesses against a limit of 5, 5 are checked and 35 refused.

An attempt that finds the limit full only because of attempts still being checked does
not get a 429: it waits (polling, at most LOGIN_WAIT_LIMIT seconds) until those checks
end. If they failed it is refused (429 with the real wait); if they succeeded it takes a
freed slot. Past LOGIN_WAIT_LIMIT it is answered 503 ``password_hashing_busy`` with a
short ``retry_after`` (the clients send it again). A row left ``checking`` by a process
that died counts as a failure after CHECK_STALE.

The admission transaction holds the username's and the address's locks
(`transaction_lock`: advisory locks on PostgreSQL, the event loop's order on SQLite), so
two processes cannot both take the last free attempt.

A refused attempt (429) is not counted, so waiting ``retry_after`` seconds always helps;
neither is one refused because password hashing is busy (503 ``password_hashing_busy``:
its row is removed again). A successful login clears the failures of that username.

One active session per user: a login while another session of the user is active is
refused (409 ``session_active``, "logged in elsewhere") unless it asks to ``replace`` it
or it holds that session itself (the client sends the token it has: a second
``cq login`` in the same profile replaces its own session, and only a session held
somewhere else is "elsewhere").
"""

from __future__ import annotations

import asyncio
import contextlib
import time
from dataclasses import dataclass
from datetime import datetime, timedelta

from corridorquest.events import SessionsEnded
from corridorquest.security.passwords import check_login_password
from corridorquest.security.ratelimit import RateLimit
from corridorquest.security.tokens import hash_token, new_token
from corridorquest.services.auth import CurrentUser
from corridorquest.services.bot_users import is_bot_name
from corridorquest.services.context import PasswordHashingBusy, ServiceContext
from corridorquest.services.errors import (
    Conflict,
    Forbidden,
    RateLimited,
    Unauthenticated,
)
from corridorquest.services.limit_addresses import limit_address
from corridorquest.services.session_ends import announce, end_sessions, tell
from corridorquest.store import lock_for_update, transaction_lock
from corridorquest.store.models import LoginAttempt, Session, User, utcnow

# A password check still `checking` after this long died with its process: a failure.
CHECK_STALE = timedelta(seconds=60)
# How long an attempt waits for the checks under way that fill the limit (seconds).
LOGIN_WAIT_LIMIT = 20.0
WAIT_FIRST, WAIT_MAX = 0.02, 0.25  # its polls: the first pause, doubled up to this
BUSY_RETRY_AFTER = 2  # seconds, when the checks under way outlast LOGIN_WAIT_LIMIT


@dataclass(frozen=True)
class _Admitted:
    """An attempt allowed by the rate limits, holding its slot while it is checked."""

    attempt_id: int
    user_id: int | None
    password_hash: str | None


class _ChecksUnderWay:
    """The limits are full only because of attempts still being checked: wait for them."""


_UNDER_WAY = _ChecksUnderWay()


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


def _unsettled(
    since: datetime, username: str | None = None, address: str | None = None
) -> list[tuple[datetime, bool]]:
    """(time, still being checked) of the failed and the checking logins since ``since``
    for the username or for the address."""
    query = LoginAttempt.select(LoginAttempt.at, LoginAttempt.checking).where(
        (LoginAttempt.succeeded == False) & (LoginAttempt.at > since)  # noqa: E712
    )
    if username is not None:
        query = query.where(LoginAttempt.username == username)
    else:
        query = query.where(LoginAttempt.address == address)
    return [(row.at, bool(row.checking)) for row in query]


def _verdict(
    limit: RateLimit, rows: list[tuple[datetime, bool]], now: datetime
) -> int | None | _ChecksUnderWay:
    """Seconds to wait (over the limit with failures alone), _UNDER_WAY (full only with
    the checks under way), or None (a slot is free)."""
    fresh = now - CHECK_STALE
    failures = [at for at, checking in rows if not checking or at <= fresh]
    wait = limit.retry_after(failures, now)
    if wait is not None:
        return wait
    if limit.retry_after([at for at, _ in rows], now) is not None:
        return _UNDER_WAY
    return None


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
) -> int | _ChecksUnderWay | _Admitted:
    """Check both limits and, if the attempt is allowed, record it as being checked.

    Returns the seconds to wait (over a limit; nothing recorded), _UNDER_WAY (nothing
    recorded) or the admitted attempt. The locks serialise the check and the insert of
    concurrent attempts for the same username or address across processes (PostgreSQL);
    always username first, then address, so two attempts never wait for each other in a
    circle.
    """
    key = _key(username)
    transaction_lock(f"login_attempt:user:{key}")
    transaction_lock(f"login_attempt:address:{address}")
    now = utcnow()
    verdicts = [
        _verdict(per_user, _unsettled(per_user.window_start(now), username=key), now),
        _verdict(per_address, _unsettled(per_address.window_start(now), address=address), now),
    ]
    waits = [v for v in verdicts if isinstance(v, int)]
    if waits:
        return max(waits)
    if any(v is _UNDER_WAY for v in verdicts):
        return _UNDER_WAY
    attempt = LoginAttempt.create(
        username=key, address=address, succeeded=False, checking=True, at=now
    )
    user = find_user(username)
    if user is None:
        return _Admitted(attempt.id, None, None)
    return _Admitted(attempt.id, user.id, user.password_hash)


def _forget(attempt_id: int) -> None:
    """Un-count an admitted attempt whose password was never checked."""
    LoginAttempt.delete().where(LoginAttempt.id == attempt_id).execute()


def _failed(attempt_id: int) -> None:
    """The password was wrong (or its check was abandoned): the attempt is a failure."""
    LoginAttempt.update(checking=False).where(LoginAttempt.id == attempt_id).execute()


def _open_session(
    user_id: int, attempt_id: int, replace: bool, idle_timeout: int, held: str | None
) -> NewSession | str:
    """The password was right: mark the attempt so (its slot is free again), and open the
    session if the account may have one. ``held``: the hash of the session token the
    caller holds; a session of this user with it is the caller's own and is replaced."""
    user = lock_for_update(User.select().where(User.id == user_id)).first()
    if user is None:
        return "gone"
    LoginAttempt.update(succeeded=True, checking=False).where(
        LoginAttempt.id == attempt_id
    ).execute()
    if user.locked:
        return "locked"
    if not user.verified:
        return "unverified"
    now = utcnow()
    Session.delete().where((Session.user == user) & (Session.expires_at <= now)).execute()
    others = Session.select().where(Session.user == user)
    if held is not None:
        others = others.where(Session.token_hash != held)
    if others.exists() and not replace:
        return "active"
    Session.delete().where(Session.user == user).execute()
    token = new_token()
    expires_at = now + timedelta(seconds=idle_timeout)
    Session.create(token_hash=hash_token(token), user=user, last_seen_at=now, expires_at=expires_at)
    LoginAttempt.delete().where(
        (LoginAttempt.username == _key(user.username)) & (LoginAttempt.succeeded == False)  # noqa: E712
    ).execute()
    return NewSession(token, user.username, expires_at)


async def _take_slot(ctx: ServiceContext, username: str, address: str) -> _Admitted:
    """Admit the attempt, waiting for the checks under way that fill a limit."""
    per_user, per_address = _limits(ctx)
    deadline = time.monotonic() + LOGIN_WAIT_LIMIT
    pause = WAIT_FIRST
    while True:
        admitted = await ctx.store.transaction(_admit, username, address, per_user, per_address)
        if isinstance(admitted, _Admitted):
            return admitted
        if isinstance(admitted, int):
            raise RateLimited(
                "rate_limited",
                f"too many failed logins; try again in {admitted} seconds",
                retry_after=admitted,
            )
        if time.monotonic() + pause > deadline:
            raise PasswordHashingBusy(
                "password_hashing_busy",
                "the server is busy checking other logins; try again in "
                f"{BUSY_RETRY_AFTER} seconds",
                retry_after=BUSY_RETRY_AFTER,
            )
        await asyncio.sleep(pause)
        pause = min(pause * 2, WAIT_MAX)


async def login(
    ctx: ServiceContext,
    username: str,
    password: str,
    address: str,
    replace: bool = False,
    held_token: str | None = None,
) -> NewSession:
    """Check the password and open the user's session, replacing an active one if asked
    or if it is the one ``held_token`` (the caller's current session token) names."""
    address = limit_address(address, ctx.settings)  # the key its limits count under
    if await ctx.store.autocommit(is_bot_name, username):  # SPEC §13: no password login
        raise Forbidden(
            "bot_account",
            f"{username} is a bot: bots are played by the server and have no password login",
        )
    admitted = await _take_slot(ctx, username, address)
    try:
        # Unknown usernames are checked against a dummy hash: the same work, the same time.
        matches = await ctx.password_work(check_login_password, admitted.password_hash, password)
    except PasswordHashingBusy:  # 503: this attempt checked nothing, so it is not counted
        await ctx.store.transaction(_forget, admitted.attempt_id)
        raise
    except BaseException:  # cancelled (the client went away) or broken: a failure
        await asyncio.shield(ctx.store.transaction(_failed, admitted.attempt_id))
        raise
    if admitted.user_id is None or not matches:  # (shielded: even if the client hangs up)
        await asyncio.shield(ctx.store.transaction(_failed, admitted.attempt_id))
        raise Unauthenticated("invalid_credentials", "unknown username or wrong password")
    held = hash_token(held_token) if held_token else None
    try:
        result = await ctx.store.transaction(
            _open_session,
            admitted.user_id,
            admitted.attempt_id,
            replace,
            ctx.settings.session_idle_timeout,
            held,
        )
    except BaseException:  # the right password, no session (the database busy): no failure
        with contextlib.suppress(Exception):
            await asyncio.shield(ctx.store.transaction(_forget, admitted.attempt_id))
        raise
    if isinstance(result, NewSession):
        if replace or held is not None:  # the streams of the sessions it replaced end
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
