"""Verification codes: signup, password change and e-mail change (SPEC §7).

A request that needs proof of an e-mail address creates one ``Verification`` row: the
code (6 digits, e-mailed) and the client-bound verification token (returned to the client
that asked) are stored only as digests. ``verify`` needs both. Wrong codes count per
account and survive new requests: the third wrong code (``MAX_WRONG_CODES``) locks the
account until an administrator unlocks it; a correct code resets the count.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from datetime import timedelta
from typing import Any

from corridorquest.security.tokens import code_matches, hash_code, hash_token, new_code, new_token
from corridorquest.services.context import ServiceContext
from corridorquest.services.errors import Conflict, Forbidden, NotFound, Unprocessable
from corridorquest.store import lock_for_update
from corridorquest.store.models import Session, User, Verification, utcnow

MAX_WRONG_CODES = 3
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


@dataclass(frozen=True)
class Issued:
    """A fresh verification: the token for the client, the code for the e-mail."""

    token: str
    code: str


def issue(user: User, purpose: str, ttl_seconds: int, new_value: str | None = None) -> Issued:
    """Create a verification for ``user`` (inside a transaction), replacing older ones of
    the same purpose; the wrong-code count of the account carries over."""
    previous = max(
        (row.attempts for row in Verification.select().where(Verification.user == user)),
        default=0,
    )
    Verification.delete().where(
        (Verification.user == user) & (Verification.purpose == purpose)
    ).execute()
    token, code = new_token(), new_code()
    Verification.create(
        token_hash=hash_token(token),
        user=user,
        purpose=purpose,
        code_hash=hash_code(code, token),
        new_value=new_value,
        attempts=int(previous or 0),
        expires_at=utcnow() + timedelta(seconds=ttl_seconds),
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


def send_code(ctx: ServiceContext, to: str, username: str, purpose: str, code: str) -> None:
    """Queue the e-mail carrying ``code`` (never blocks, never fails the request)."""
    minutes = max(1, ctx.settings.verification_code_ttl // 60)
    body = (
        f"Hello {username},\n\n"
        f"Your Corridor Quest verification code is: {code}\n\n"
        f"Enter it with `cq verify --code {code}` from the same computer to "
        f"{_ACTIONS[purpose]}. It is valid for {minutes} minutes.\n"
        f"A wrong code may be retried twice; the third wrong code locks the account.\n\n"
        "If you did not ask for this, ignore this message.\n"
    )
    ctx.outbox.send(to, _SUBJECTS[purpose], body)


@dataclass(frozen=True)
class _Outcome:
    kind: str  # ok | unknown | expired | wrong | locked | email_taken
    purpose: str = ""
    username: str = ""
    attempts_left: int = 0


def _check(token: str, code: str) -> _Outcome:
    row = lock_for_update(
        Verification.select(Verification, User)
        .join(User)
        .where(Verification.token_hash == hash_token(token))
    ).first()
    if row is None:
        return _Outcome("unknown")
    user: User = row.user
    if user.locked:
        return _Outcome("locked", row.purpose, user.username)
    now = utcnow()
    if row.expires_at <= now:
        row.delete_instance()
        return _Outcome("expired", row.purpose, user.username)
    if not code_matches(code, token, row.code_hash):
        attempts = row.attempts + 1
        Verification.update(attempts=attempts).where(Verification.user == user).execute()
        if attempts >= MAX_WRONG_CODES:
            user.locked = True
            user.save(only=[User.locked])
            Verification.delete().where(Verification.user == user).execute()
            Session.delete().where(Session.user == user).execute()
            return _Outcome("locked", row.purpose, user.username)
        return _Outcome("wrong", row.purpose, user.username, MAX_WRONG_CODES - attempts)
    purpose = row.purpose
    if purpose == "signup":
        user.verified = True
    elif purpose == "password":
        user.password_hash = row.new_value
        user.password_changed_at = now
        Session.delete().where(Session.user == user).execute()
    elif purpose == "email":
        new_email = str(row.new_value)
        holder = User.find_by_email(new_email)
        if holder is not None and holder.id != user.id:
            row.delete_instance()
            return _Outcome("email_taken", purpose, user.username)
        user.email = new_email
    user.save()
    row.delete_instance()
    Verification.update(attempts=0).where(Verification.user == user).execute()
    return _Outcome("ok", purpose, user.username)


async def verify(ctx: ServiceContext, token: str, code: str) -> dict[str, Any]:
    """Apply the change a verification guards, given its token and the e-mailed code.

    The wrong-code count is committed before the error is raised.
    """
    outcome = await ctx.store.transaction(_check, token, code)
    if outcome.kind == "ok":
        return {"purpose": outcome.purpose, "username": outcome.username}
    if outcome.kind == "unknown":
        raise NotFound(
            "verification_not_found",
            "unknown or already used verification token (ask for a new code)",
        )
    if outcome.kind == "expired":
        raise Unprocessable("code_expired", "the verification code expired; ask for a new one")
    if outcome.kind == "locked":
        raise Forbidden(
            "account_locked",
            f"account {outcome.username} is locked after {MAX_WRONG_CODES} wrong codes; "
            "ask a server administrator to unlock it",
        )
    if outcome.kind == "email_taken":
        raise Conflict("email_taken", "another account uses that e-mail address now")
    raise Unprocessable(
        "wrong_code",
        f"wrong verification code ({outcome.attempts_left} attempt"
        f"{'s' if outcome.attempts_left != 1 else ''} left before the account is locked)",
        attempts_left=outcome.attempts_left,
    )


def purge_expired() -> int:
    """Delete expired verifications and unverified accounts whose signup code expired
    (inside a transaction; for maintenance). Returns how many rows went."""
    now = utcnow()
    removed = Verification.delete().where(Verification.expires_at <= now).execute()
    pending = Verification.select(Verification.user).where(Verification.purpose == "signup")
    removed += (
        User.delete()
        .where((User.verified == False) & User.id.not_in(pending))  # noqa: E712
        .execute()
    )
    return int(removed)
