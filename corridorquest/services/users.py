"""Accounts: their views, the profile (show, change) and the initial administrator
(SPEC §7). Signing up is in ``signups.py``, the changes that need a code mailed first in
``account_changes.py``, codes are checked in ``verification.py``."""

from __future__ import annotations

import logging
from datetime import datetime
from typing import Any

from corridorquest.events import Event, UsernameChanged
from corridorquest.security import policy
from corridorquest.security.errors import InvalidValue
from corridorquest.security.passwords import hash_password_sync
from corridorquest.security.tokens import new_password
from corridorquest.services.auth import CurrentUser
from corridorquest.services.context import ServiceContext
from corridorquest.services.errors import (
    NotFound,
    Unprocessable,
    security_refusals_as_service_errors,
)
from corridorquest.services.sessions import find_user
from corridorquest.services.signups import taken_error, username_taken
from corridorquest.services.unit_of_work import run_system_write
from corridorquest.services.verification import (
    signup_retention,
)
from corridorquest.store import Store
from corridorquest.store.models import (
    IntegrityError,
    Session,
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
        if new is not None and new != old and username_taken(new, retention, user.id, True):
            raise taken_error("username_taken", new)
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
        raise taken_error("username_taken", str(values.get("username"))) from None
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
