"""Changes of an account that need a code mailed first: a new password (forgotten or
not) and a new e-mail address (SPEC §7). The code is checked in ``verification.py``."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

from corridorquest.security import policy
from corridorquest.security.passwords import hash_password_sync
from corridorquest.security.ratelimit import RateLimit
from corridorquest.services.auth import CurrentUser
from corridorquest.services.context import ServiceContext
from corridorquest.services.errors import (
    Forbidden,
    NotFound,
    Unprocessable,
    security_refusals_as_service_errors,
)
from corridorquest.services.limit_addresses import limit_address
from corridorquest.services.outbound import queue_mail, wake
from corridorquest.services.sessions import find_user
from corridorquest.services.signups import email_taken, refuse_over, taken_error
from corridorquest.services.verification import (
    RESEND_COOLDOWN,
    issue,
    queue_code_mail,
    signup_retention,
)
from corridorquest.settings import Settings
from corridorquest.store.models import (
    PasswordRequest,
    User,
    utcnow,
)


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
    refuse_over(checks, now)



async def request_password_change(
    ctx: ServiceContext, username: str, new_password_text: str, address: str = "unknown"
) -> dict[str, Any]:
    """E-mail a code to the account's address; the password changes on verify (no login).

    Anyone may ask for any username (that is the point: the owner forgot the password), so
    requests are rate limited per account and per client ``address`` (only requests that
    send a code count). Wrong codes for such a request void it and nothing else.
    """
    address = limit_address(address, ctx.settings)  # the key its limits count under
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
        if email_taken(email, retention, except_id=user.id, free=True):
            raise taken_error("email_taken", email)
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
