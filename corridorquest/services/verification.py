"""Verification codes: signup, password change and e-mail change (SPEC §7).

A request that needs proof of an e-mail address creates one ``Verification`` row: the
code (6 digits, e-mailed) and the client-bound verification token (returned to the client
that asked) are stored only as digests. ``verify`` needs both.

Wrong codes count per request (per row), never across purposes. Two wrong codes may be
retried; what the third (``MAX_WRONG_CODES``) does depends on who could have asked:

- e-mail change (asked by a logged-in user): the account is locked until an administrator
  unlocks it, its sessions end, its other pending codes go. A new e-mail change request
  carries the count of the one it replaces, so asking again does not reset it.
- password change (anyone who knows a username may ask): that request is void, nothing
  else happens. Requests do not replace each other (a stranger's request cannot cancel
  the owner's) and each has its own count; they are rate limited in ``users.py``.
- signup: the pending signup is void; the account stays unverified and holds its
  username and e-mail address, and a signup with the same username and address renews
  it with a new code (``signups.signup``).

A void or expired row stays (so a retry hears which case it is) until ``purge_expired``
removes it once its code's lifetime is over. An unverified account whose last signup is
older than the signup retention (``signup_retention``) is an *expired signup*: whoever
next needs its username or address takes them (``is_expired_signup``), and maintenance
deletes it.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any

from corridorquest.events import AccountChanged, SessionsEnded
from corridorquest.security.tokens import code_matches, hash_code, hash_token, new_code, new_token
from corridorquest.services.context import ServiceContext
from corridorquest.services.errors import Conflict, Forbidden, NotFound, Unprocessable
from corridorquest.services.outbound import queue_mail
from corridorquest.services.session_ends import announce, end_sessions
from corridorquest.settings import Settings
from corridorquest.store import lock_for_update
from corridorquest.store.models import (
    PasswordRequest,
    SignupRequest,
    User,
    Verification,
    utcnow,
)

MAX_WRONG_CODES = 3
RESEND_COOLDOWN = 60  # seconds between two codes of one kind for one account
PURPOSES = ("signup", "password", "email")

_SUBJECTS = {
    "signup": "Your Corridor Quest verification code",
    "password": "Confirm your new Corridor Quest password",
    "email": "Confirm your new Corridor Quest e-mail address",
}
_ACTIONS = {
    "signup": "complete your signup",
    "password": "change your password",
    "email": "change your e-mail address to this one",
}
_THIRD_WRONG = {
    "signup": "the third voids this signup (sign up again with the same username and "
    "e-mail address for a new code)",
    "password": "the third voids this request (your account and password stay as they are)",
    "email": "the third locks the account",
}
_IGNORE = {
    "signup": "If you did not ask for this, ignore this message: without the code the "
    "signup is never completed.",
    "password": "If you did not ask for this, ignore this message: your password stays as it is.",
    "email": "If you did not ask for this, ignore this message.",
}
_REQUESTS = {
    "signup": "this signup",
    "password": "this password change request",
    "email": "this e-mail change request",
}
_ASK_AGAIN = {
    "signup": "sign up again with the same username and e-mail address for a new code",
    "password": "ask for a new code (cq user password)",
    "email": "ask for a new code (cq user email-address)",
}


def signup_retention(settings: Settings) -> int:
    """Seconds an unverified signup holds its username and address after its last code
    (SIGNUP_RETENTION, never shorter than the code's lifetime)."""
    return max(settings.signup_retention, settings.verification_code_ttl)


def is_expired_signup(user: User, retention_seconds: int, now: datetime | None = None) -> bool:
    """Whether ``user`` is a signup nobody verified within the retention (its username and
    e-mail address are free). ``created_at`` of an unverified account is its last signup."""
    moment = now or utcnow()
    return not user.verified and user.created_at <= moment - timedelta(seconds=retention_seconds)


@dataclass(frozen=True)
class Issued:
    """A fresh verification: the token for the client, the code for the e-mail."""

    token: str
    code: str


def issue(user: User, purpose: str, ttl_seconds: int, new_value: str | None = None) -> Issued:
    """Create a verification for ``user`` (inside a transaction).

    A signup or e-mail change replaces the previous one of its kind (an e-mail change
    keeps its wrong-code count unless that request was void); password-change requests
    coexist, each with its own count (expired ones are dropped here).
    """
    now = utcnow()
    same = (Verification.user == user) & (Verification.purpose == purpose)
    attempts = 0
    if purpose == "password":
        Verification.delete().where(same & (Verification.expires_at <= now)).execute()
    else:
        if purpose == "email":
            previous = max(
                (row.attempts for row in Verification.select(Verification.attempts).where(same)),
                default=0,
            )
            attempts = previous if previous < MAX_WRONG_CODES else 0
        Verification.delete().where(same).execute()
    token, code = new_token(), new_code()
    Verification.create(
        token_hash=hash_token(token),
        user=user,
        purpose=purpose,
        code_hash=hash_code(code, token),
        new_value=new_value,
        attempts=attempts,
        created_at=now,
        expires_at=now + timedelta(seconds=ttl_seconds),
    )
    return Issued(token, code)


def cooldown_left(user: User, purpose: str, cooldown_seconds: int) -> int | None:
    """Seconds until ``user`` may ask for another ``purpose`` code, or None if it may now
    (inside a transaction)."""
    last = (
        Verification.select(Verification.created_at)
        .where((Verification.user == user) & (Verification.purpose == purpose))
        .order_by(Verification.created_at.desc())
        .first()
    )
    if last is None:
        return None
    left = cooldown_seconds - (utcnow() - last.created_at).total_seconds()
    return math.ceil(left) if left > 0 else None


def queue_code_mail(
    settings: Settings, to: str, username: str, purpose: str, code: str
) -> None:
    """Inside the transaction that issued `code`: queue the e-mail carrying it (durable;
    delivered after the commit, never in the request)."""
    minutes = max(1, settings.verification_code_ttl // 60)
    body = (
        f"Hello {username},\n\n"
        f"Your Corridor Quest verification code is: {code}\n\n"
        f"Enter it on the web page that asked for it, or with `cq verify --code {code}` "
        "from the same computer, to "
        f"{_ACTIONS[purpose]}. It is valid for {minutes} minutes.\n"
        f"A wrong code may be retried twice; {_THIRD_WRONG[purpose]}.\n\n"
        f"{_IGNORE[purpose]}\n"
    )
    queue_mail(to, _SUBJECTS[purpose], body)


@dataclass(frozen=True)
class _Outcome:
    kind: str  # ok | unknown | expired | wrong | void | locked | email_taken
    purpose: str = ""
    username: str = ""
    attempts_left: int = 0
    ended: SessionsEnded | None = None  # the sessions it ended (their streams end too)
    changed: AccountChanged | None = None  # a new e-mail address (what its sessions say)


def _check(token: str, code: str, retention_seconds: int) -> _Outcome:
    row = lock_for_update(
        Verification.select(Verification, User)
        .join(User)
        .where(Verification.token_hash == hash_token(token))
    ).first()
    if row is None:
        return _Outcome("unknown")
    user: User = row.user
    purpose = row.purpose
    if user.locked:
        return _Outcome("locked", purpose, user.username)
    if row.attempts >= MAX_WRONG_CODES:
        return _Outcome("void", purpose, user.username)
    now = utcnow()
    if row.expires_at <= now:
        return _Outcome("expired", purpose, user.username)
    if not code_matches(code, token, row.code_hash):
        row.attempts += 1
        row.save(only=[Verification.attempts])
        if row.attempts < MAX_WRONG_CODES:
            return _Outcome("wrong", purpose, user.username, MAX_WRONG_CODES - row.attempts)
        if purpose != "email":  # asked without proof of who asked: void that request only
            return _Outcome("void", purpose, user.username)
        user.locked = True
        user.save(only=[User.locked])
        Verification.delete().where(
            (Verification.user == user) & (Verification.id != row.id)
        ).execute()
        return _Outcome("locked", purpose, user.username, ended=end_sessions(user.id))
    ended = changed = None
    if purpose == "signup":
        user.verified = True
    elif purpose == "password":
        user.password_hash = row.new_value
        user.password_changed_at = now
        ended = end_sessions(user.id)
        Verification.delete().where(
            (Verification.user == user) & (Verification.purpose == "password")
        ).execute()
    elif purpose == "email":
        new_email = str(row.new_value)
        holder = User.find_by_email(new_email)
        if holder is not None and holder.id != user.id:
            if not is_expired_signup(holder, retention_seconds, now):
                row.delete_instance()
                return _Outcome("email_taken", purpose, user.username)
            holder.delete_instance()
        user.email = new_email
        changed = AccountChanged(user.id)
    user.save()
    Verification.delete().where(Verification.id == row.id).execute()
    return _Outcome("ok", purpose, user.username, ended=ended, changed=changed)


async def verify(ctx: ServiceContext, token: str, code: str) -> dict[str, Any]:
    """Apply the change a verification guards, given its token and the e-mailed code.

    The wrong-code count (and a lock or a void request) is committed before the error is
    raised. Every refusal names its case in ``reason`` and, once the token is known,
    carries the ``purpose``.
    """
    def check() -> _Outcome:
        outcome = _check(token, code, signup_retention(ctx.settings))
        if outcome.ended is not None:
            announce(ctx, outcome.ended)
        return outcome

    outcome = await ctx.store.transaction(check)
    if outcome.ended is not None:
        ctx.bus.publish(outcome.ended)
    if outcome.changed is not None:
        ctx.bus.publish(outcome.changed)
    purpose = outcome.purpose
    if outcome.kind == "ok":
        return {"purpose": purpose, "username": outcome.username}
    if outcome.kind == "unknown":
        raise NotFound(
            "verification_not_found",
            "unknown or already used verification token (ask for a new code)",
        )
    if outcome.kind == "locked":
        raise Forbidden(
            "account_locked",
            f"account {outcome.username} is locked after {MAX_WRONG_CODES} wrong codes; "
            "ask a server administrator to unlock it",
            purpose=purpose,
        )
    if outcome.kind == "void":
        reason = "signup_void" if purpose == "signup" else "request_void"
        raise Forbidden(
            reason,
            f"{_REQUESTS[purpose]} is void after {MAX_WRONG_CODES} wrong codes: "
            f"{_ASK_AGAIN[purpose]}",
            purpose=purpose,
        )
    if outcome.kind == "expired":
        raise Unprocessable(
            "code_expired",
            f"the verification code of {_REQUESTS[purpose]} expired: {_ASK_AGAIN[purpose]}",
            purpose=purpose,
        )
    if outcome.kind == "email_taken":
        raise Conflict(
            "email_taken", "another account uses that e-mail address now", purpose=purpose
        )
    left = outcome.attempts_left
    attempts = f"{left} attempt{'s' if left != 1 else ''} left"
    then = {
        "signup": f"{attempts}; then the signup is void",
        "password": f"{attempts}; then this request is void",
        "email": f"{attempts} before the account is locked",
    }[purpose]
    raise Unprocessable(
        "wrong_code", f"wrong verification code ({then})", attempts_left=left, purpose=purpose
    )


def purge_expired(
    retention_seconds: int = 86400,
    request_window_seconds: int = 3600,
    signup_window_seconds: int = 3600,
) -> int:
    """Delete what no longer matters (inside a transaction; for maintenance): verifications
    whose code expired (void ones included), expired signups (unverified accounts whose
    last signup is older than ``retention_seconds``, see ``signup_retention``; never one
    with a live code), password-change requests older than their rate-limit window and
    signup requests older than theirs.
    Returns how many rows went."""
    now = utcnow()
    removed = Verification.delete().where(Verification.expires_at <= now).execute()
    live = Verification.select(Verification.user).where(Verification.purpose == "signup")
    removed += (
        User.delete()
        .where(
            (User.verified == False)  # noqa: E712
            & (User.created_at <= now - timedelta(seconds=retention_seconds))
            & User.id.not_in(live)
        )
        .execute()
    )
    keep = timedelta(seconds=max(request_window_seconds, RESEND_COOLDOWN))
    removed += PasswordRequest.delete().where(PasswordRequest.at <= now - keep).execute()
    signups = timedelta(seconds=signup_window_seconds)
    removed += SignupRequest.delete().where(SignupRequest.at <= now - signups).execute()
    return int(removed)
