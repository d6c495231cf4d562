"""Signing up (SPEC §7): the checks of a new account's name and address (an expired
signup's hold is taken over), the signup limits per address, and the signup itself, its
code mailed. Also whether a username or address is taken, for the other account changes
(`users.update_me`, `account_changes`, `guests`)."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime, timedelta
from typing import Any

from corridorquest.security import policy
from corridorquest.security.passwords import hash_password_sync
from corridorquest.security.ratelimit import RateLimit
from corridorquest.services.context import ServiceContext
from corridorquest.services.errors import (
    Conflict,
    RateLimited,
    security_refusals_as_service_errors,
)
from corridorquest.services.limit_addresses import limit_address
from corridorquest.services.outbound import wake
from corridorquest.services.verification import (
    RESEND_COOLDOWN,
    cooldown_left,
    is_expired_signup,
    issue,
    queue_code_mail,
    signup_retention,
)
from corridorquest.settings import Settings
from corridorquest.store.models import (
    IntegrityError,
    SignupRequest,
    User,
    utcnow,
)


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


def username_taken(
    username: str, retention: int, except_id: int | None = None, free: bool = False
) -> bool:
    return _holder(User.find_by_name(username), except_id, retention, free) is not None


def email_taken(
    email: str, retention: int, except_id: int | None = None, free: bool = False
) -> bool:
    return _holder(User.find_by_email(email), except_id, retention, free) is not None


def taken_error(kind: str, value: str, pending: bool = False) -> Conflict:
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
        raise taken_error("username_taken", username, pending=not by_name.verified)
    assert by_email is not None
    raise taken_error("email_taken", email, pending=not by_email.verified)


def refuse_over(checks: Sequence[tuple[RateLimit, list[datetime], str]], now: datetime) -> None:
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
    refuse_over([(limit, [row.at for row in recent], "too many signups from your address")], now)


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
    address = limit_address(address, ctx.settings)  # the key its limits count under
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
        taken_email = await ctx.store.transaction(email_taken, email, retention)
        kind = "email_taken" if taken_email else "username_taken"
        raise taken_error(kind, email if taken_email else username) from None
    wake(ctx)
    return {"username": username, "verification_token": token, "purpose": "signup"}


# --- password and e-mail changes ---------------------------------------------------------
