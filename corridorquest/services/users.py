"""Accounts: signup, profile (show, change), password and e-mail change requests, and the
initial administrator (SPEC §7). Codes are checked in ``verification.py``."""

from __future__ import annotations

import logging
from collections.abc import Sequence
from datetime import datetime, timedelta
from typing import Any

from corridorquest.events import Event, UsernameChanged
from corridorquest.security import policy
from corridorquest.security.errors import InvalidValue
from corridorquest.security.passwords import hash_password_sync
from corridorquest.security.ratelimit import RateLimit
from corridorquest.security.tokens import new_password
from corridorquest.services.auth import CurrentUser
from corridorquest.services.context import ServiceContext
from corridorquest.services.errors import (
    Conflict,
    Forbidden,
    NotFound,
    RateLimited,
    Unprocessable,
    security_refusals_as_service_errors,
)
from corridorquest.services.outbound import queue_mail, wake
from corridorquest.services.sessions import ADDRESS_MAX, find_user
from corridorquest.services.unit_of_work import run_system_write
from corridorquest.services.verification import (
    RESEND_COOLDOWN,
    cooldown_left,
    is_expired_signup,
    issue,
    queue_code_mail,
    signup_retention,
)
from corridorquest.settings import Settings
from corridorquest.store import Store
from corridorquest.store.models import (
    IntegrityError,
    PasswordRequest,
    Session,
    SignupRequest,
    User,
    utcnow,
)

log = logging.getLogger("corridorquest.users")

NOTIFY_KINDS = ("turn", "action", "game", "digest")


def iso(moment: datetime | None) -> str | None:
    """A stored naive UTC datetime as ISO 8601 with a Z."""
    return None if moment is None else moment.replace(microsecond=0).isoformat() + "Z"


def public_view(user: User) -> dict[str, Any]:
    return {
        "username": user.username,
        "description": user.description,
        "is_admin": user.is_admin,
        "bot": None if user.bot_level is None else {"level": user.bot_level},
        "guest": bool(user.guest),
        "created_at": iso(user.created_at),
    }


def private_view(user: User, session_expires_at: datetime | None) -> dict[str, Any]:
    return {
        **public_view(user),
        "email": user.email,
        "theme": user.theme,
        "notify": {
            "turn": user.notify_turn,
            "action": user.notify_action,
            "game": user.notify_game,
            "digest": user.notify_digest,
        },
        "ntfy_dm_topic": user.ntfy_dm_topic,
        "password_changed_at": iso(user.password_changed_at),
        "session": None if session_expires_at is None else {"expires_at": iso(session_expires_at)},
    }


def _holder(found: User | None, except_id: int | None, retention: int, free: bool) -> User | None:
    """``found`` unless it is ``except_id`` or an expired signup (which ``free`` deletes:
    whoever needs its username or address takes them; inside a transaction)."""
    if found is None or found.id == except_id:
        return None
    if is_expired_signup(found, retention):
        if free:
            found.delete_instance()
        return None
    return found


def _username_taken(
    username: str, retention: int, except_id: int | None = None, free: bool = False
) -> bool:
    return _holder(User.find_by_name(username), except_id, retention, free) is not None


def _email_taken(
    email: str, retention: int, except_id: int | None = None, free: bool = False
) -> bool:
    return _holder(User.find_by_email(email), except_id, retention, free) is not None


def _taken_error(kind: str, value: str, pending: bool = False) -> Conflict:
    held = " by a signup not verified yet" if pending else ""
    if kind == "username_taken":
        return Conflict("username_taken", f"the username {value!r} is taken{held}")
    return Conflict("email_taken", f"the e-mail address {value!r} is already used{held}")


# --- signup ----------------------------------------------------------------------------


def _signup_holder(username: str, email: str, retention: int, free: bool) -> User | None:
    """Who holds ``username`` and ``email`` for a new signup (inside a transaction).

    None: both are free (expired signups holding them are deleted when ``free``). The
    pending signup of this very username and address: the caller renews it (a new code;
    also after a void signup). Anything else raises: 409 taken, 429 when the pending
    signup got a code moments ago.
    """
    by_name = _holder(User.find_by_name(username), None, retention, free)
    by_email = _holder(User.find_by_email(email), None, retention, free)
    if by_name is None and by_email is None:
        return None
    if by_name is not None and by_email is not None and by_name.id == by_email.id:
        if not by_name.verified:
            wait = cooldown_left(by_name, "signup", RESEND_COOLDOWN)
            if wait is not None:
                raise RateLimited(
                    "rate_limited",
                    f"a signup code was sent to {email} moments ago; ask again in {wait} seconds",
                    retry_after=wait,
                )
            return by_name
    if by_name is not None:
        raise _taken_error("username_taken", username, pending=not by_name.verified)
    assert by_email is not None
    raise _taken_error("email_taken", email, pending=not by_email.verified)


def _refuse_over(checks: Sequence[tuple[RateLimit, list[datetime], str]], now: datetime) -> None:
    """429 `rate_limited` when a limit of `checks` (limit, its requests' times, why) is
    reached, with the longest wait of those reached."""
    refusals = [
        (wait, why)
        for limit, times, why in checks
        if (wait := limit.retry_after(times, now)) is not None
    ]
    if refusals:
        wait, why = max(refusals)
        raise RateLimited("rate_limited", f"{why}; ask again in {wait} seconds", retry_after=wait)


def _check_signup_requests(address: str, settings: Settings) -> None:
    """Refuse (429) a signup from a client address that asked for SIGNUP_LIMIT_ADDRESS
    signups within SIGNUP_WINDOW (inside a transaction): each one e-mails a code to an
    address of the caller's choosing."""
    now = utcnow()
    window = float(settings.signup_window)
    recent = SignupRequest.select(SignupRequest.at).where(
        (SignupRequest.address == address) & (SignupRequest.at > now - timedelta(seconds=window))
    )
    limit = RateLimit(settings.signup_limit_address, window)
    _refuse_over([(limit, [row.at for row in recent], "too many signups from your address")], now)


async def signup(
    ctx: ServiceContext,
    username: str,
    email: str,
    password: str,
    description: str | None = None,
    ntfy_dm_topic: str | None = None,
    address: str = "unknown",
) -> dict[str, Any]:
    """Create an unverified account and e-mail its code; returns the verification token.

    Signing up again with the username and e-mail address of a signup not verified yet
    (pending, void or with an expired code) renews it: the new password, description and
    topic, a new code, the old token void. The username and the address are checked
    before the password is hashed: a taken one costs no argon2 work. At most
    SIGNUP_LIMIT_ADDRESS signups that sent a code come from one client `address` within
    SIGNUP_WINDOW (429 beyond, before any other check).
    """
    address = (address or "unknown")[:ADDRESS_MAX]
    with security_refusals_as_service_errors():
        username = policy.check_username(username)
        email = policy.check_email(email)
        policy.check_password(password, username)
        description = policy.check_description(description or "")
        topic = policy.check_ntfy_topic(ntfy_dm_topic)
    retention = signup_retention(ctx.settings)

    def check() -> None:
        _check_signup_requests(address, ctx.settings)
        _signup_holder(username, email, retention, False)

    await ctx.store.transaction(check)
    password_hash = await ctx.password_work(hash_password_sync, password)
    ttl = ctx.settings.verification_code_ttl

    def create() -> tuple[str, str]:
        _check_signup_requests(address, ctx.settings)  # again: others may have come since
        user = _signup_holder(username, email, retention, True)
        if user is None:
            user = User.create(
                username=username,
                email=email,
                password_hash=password_hash,
                description=description,
                ntfy_dm_topic=topic,
            )
        else:  # renew: the retention starts again; a signup lock of old versions ends
            user.username, user.email, user.password_hash = username, email, password_hash
            user.description, user.ntfy_dm_topic = description, topic
            user.created_at = user.password_changed_at = utcnow()
            user.locked = False
            user.save()
        issued = issue(user, "signup", ttl)
        queue_code_mail(ctx.settings, email, username, "signup", issued.code)
        SignupRequest.create(address=address)
        return issued.token, issued.code

    try:
        token, _ = await ctx.store.transaction(create)
    except IntegrityError:  # a concurrent signup won the race: say which value it took
        taken_email = await ctx.store.transaction(_email_taken, email, retention)
        kind = "email_taken" if taken_email else "username_taken"
        raise _taken_error(kind, email if taken_email else username) from None
    wake(ctx)
    return {"username": username, "verification_token": token, "purpose": "signup"}


# --- password and e-mail changes ---------------------------------------------------------


def _usable(user: User | None, username: str) -> User:
    if user is None:
        raise NotFound("user_not_found", f"no user {username!r}")
    if user.locked:
        raise Forbidden(
            "account_locked", "this account is locked; ask a server administrator to unlock it"
        )
    if not user.verified:
        raise Forbidden(
            "account_unverified", "this account is not verified yet: verify the signup code first"
        )
    if user.guest:  # no e-mail, no password (services/guests.py) until an admin converts it
        raise Forbidden(
            "guest_account",
            f"{user.username} is a guest: it has no e-mail address or password; a server "
            "administrator can make it a full account (cq-admin user convert)",
        )
    return user


def _check_password_requests(user: User, address: str, settings: Settings) -> None:
    """Refuse (429) a password-change request over a limit (inside a transaction): one
    code a minute per account, PASSWORD_REQUEST_LIMIT_USER per account and
    PASSWORD_REQUEST_LIMIT_ADDRESS per client address within PASSWORD_REQUEST_WINDOW."""
    now = utcnow()
    window = float(settings.password_request_window)
    since = now - timedelta(seconds=max(window, RESEND_COOLDOWN))
    recent = PasswordRequest.select(PasswordRequest.at).where(PasswordRequest.at > since)
    for_user = [row.at for row in recent.where(PasswordRequest.user == user)]
    from_address = [row.at for row in recent.where(PasswordRequest.address == address)]
    checks = (
        (RateLimit(1, RESEND_COOLDOWN), for_user, "a code was sent to this account moments ago"),
        (
            RateLimit(settings.password_request_limit_user, window),
            for_user,
            "too many password-change codes for this account",
        ),
        (
            RateLimit(settings.password_request_limit_address, window),
            from_address,
            "too many password-change requests from your address",
        ),
    )
    _refuse_over(checks, now)



async def request_password_change(
    ctx: ServiceContext, username: str, new_password_text: str, address: str = "unknown"
) -> dict[str, Any]:
    """E-mail a code to the account's address; the password changes on verify (no login).

    Anyone may ask for any username (that is the point: the owner forgot the password), so
    requests are rate limited per account and per client ``address`` (only requests that
    send a code count). Wrong codes for such a request void it and nothing else.
    """
    address = (address or "unknown")[:ADDRESS_MAX]
    settings = ctx.settings

    def find() -> User:
        found = _usable(find_user(username), username)
        _check_password_requests(found, address, settings)
        return found

    user = await ctx.store.transaction(find)
    with security_refusals_as_service_errors():
        policy.check_password(new_password_text, user.username)
    password_hash = await ctx.password_work(hash_password_sync, new_password_text)
    ttl = settings.verification_code_ttl

    def create() -> tuple[User, str, str]:
        fresh = _usable(User.get_or_none(User.id == user.id), username)
        _check_password_requests(fresh, address, settings)
        now = utcnow()
        keep = timedelta(seconds=max(settings.password_request_window, RESEND_COOLDOWN))
        PasswordRequest.delete().where(PasswordRequest.at <= now - keep).execute()
        PasswordRequest.create(user=fresh, address=address, at=now)
        issued = issue(fresh, "password", ttl, new_value=password_hash)
        queue_code_mail(settings, fresh.email, fresh.username, "password", issued.code)
        return fresh, issued.token, issued.code

    _, token, _ = await ctx.store.transaction(create)
    wake(ctx)
    return {"verification_token": token, "purpose": "password"}


async def request_email_change(
    ctx: ServiceContext, current: CurrentUser, email: str
) -> dict[str, Any]:
    """E-mail a code to the NEW address and a notice to the old; applied on verify. An
    address held by an expired signup is taken over."""
    with security_refusals_as_service_errors():
        email = policy.check_email(email)
    ttl = ctx.settings.verification_code_ttl
    retention = signup_retention(ctx.settings)

    def create() -> str:
        user = _usable(User.get_or_none(User.id == current.id), current.username)
        if user.email.lower() == email.lower():
            raise Unprocessable("invalid_email", "that is already your e-mail address")
        if _email_taken(email, retention, except_id=user.id, free=True):
            raise _taken_error("email_taken", email)
        issued = issue(user, "email", ttl, new_value=email)
        queue_code_mail(ctx.settings, email, user.username, "email", issued.code)
        queue_mail(
            user.email,
            "Corridor Quest: e-mail address change requested",
            f"Hello {user.username},\n\nSomeone logged in as you asked to change the e-mail "
            f"address of your Corridor Quest account to {email}. A code was sent to that "
            "address; the change happens only when that code is entered.\n\nIf this was "
            "not you, change your password and contact the server administrator.\n",
        )
        return issued.token

    token = await ctx.store.transaction(create)
    wake(ctx)
    return {"verification_token": token, "purpose": "email"}


# --- show and change ----------------------------------------------------------------------


async def get_me(ctx: ServiceContext, current: CurrentUser) -> dict[str, Any]:
    user = await ctx.store.transaction(User.get_or_none, User.id == current.id)
    if user is None:
        raise NotFound("user_not_found", "your account no longer exists")
    return private_view(user, current.session_expires_at)


async def get_user(ctx: ServiceContext, username: str) -> dict[str, Any]:
    user = await ctx.store.transaction(find_user, username)
    if user is None:
        raise NotFound("user_not_found", f"no user {username!r}")
    return public_view(user)


async def update_me(
    ctx: ServiceContext, current: CurrentUser, changes: dict[str, Any]
) -> dict[str, Any]:
    """Apply any of description, username, theme, ntfy_dm_topic, notify; all or nothing."""
    values: dict[str, Any] = {}
    with security_refusals_as_service_errors():
        if "description" in changes:
            values["description"] = policy.check_description(changes["description"] or "")
        if "username" in changes:
            values["username"] = policy.check_username(changes["username"] or "")
        if "theme" in changes:
            values["theme"] = policy.check_theme(changes["theme"] or "")
        if "ntfy_dm_topic" in changes:
            values["ntfy_dm_topic"] = policy.check_ntfy_topic(changes["ntfy_dm_topic"])
    for kind, enabled in (changes.get("notify") or {}).items():
        if kind not in NOTIFY_KINDS or not isinstance(enabled, bool):
            raise Unprocessable(
                "invalid_notify", "notify takes turn, action, game, digest: true|false"
            )
        values[f"notify_{kind}"] = enabled

    retention = signup_retention(ctx.settings)

    def apply(events: list[Event]) -> tuple[User, str]:
        user = User.get_or_none(User.id == current.id)
        if user is None:
            raise NotFound("user_not_found", "your account no longer exists")
        old = user.username
        new = values.get("username")
        if new is not None and new != old and _username_taken(new, retention, user.id, True):
            raise _taken_error("username_taken", new)
        for name, value in values.items():
            setattr(user, name, value)
        if values:
            user.save()
        if user.username != old:
            events.append(UsernameChanged(user.id, old, user.username))
        return user, old

    try:
        user, old = await run_system_write(ctx, apply)
    except IntegrityError:
        raise _taken_error("username_taken", str(values.get("username"))) from None
    return private_view(user, current.session_expires_at)


# --- the initial administrator ------------------------------------------------------------


def ensure_initial_admin(store: Store, username: str, email: str, force: bool) -> str | None:
    """(Re)create the administrator on an empty database, or always when ``force`` (INIT).

    Returns the new random password (already logged once), or None when nothing was done.
    Raises ValueError when ADMIN_USERNAME / ADMIN_EMAIL cannot be used.
    """
    if not force and store.run(lambda: User.select().exists()):
        return None
    try:
        policy.check_username(username)
        policy.check_email(email)
    except InvalidValue as error:
        raise ValueError(f"ADMIN_USERNAME / ADMIN_EMAIL: {error.message}") from None
    password = new_password()
    password_hash = hash_password_sync(password)

    def upsert() -> None:
        user = find_user(username)
        other = User.find_by_email(email)
        if other is not None and (user is None or other.id != user.id):
            raise ValueError(
                f"ADMIN_EMAIL {email!r} belongs to user {other.username!r}; choose another"
            )
        if user is None:
            user = User(username=username)
        user.email = email
        user.password_hash = password_hash
        user.password_changed_at = utcnow()
        user.is_admin = True
        user.verified = True
        user.locked = False
        user.save()
        Session.delete().where(Session.user == user).execute()

    store.run(upsert)
    log.warning(
        "initial administrator %r (re)created; its password, shown only this once: %s",
        username,
        password,
    )
    return password
