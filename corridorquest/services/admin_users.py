"""What system administrators do to user accounts (SPEC §7): list, show, lock, unlock,
verify, promote, demote, end the sessions of, and delete an account.

Every change is recorded in the audit log (`admin_audit.record`) in its transaction.

Deleting anonymises the account rather than deleting its row (docs/administration-users.md,
"Deleting a user"): the foreign keys cascade, so deleting the row would delete its moves
and seats from finished games, which must keep replaying and scoring. The row stays as
`deleted-user-<id>`: no e-mail address, an unusable password, locked, not an admin, no
sessions; its waiting games are left (or cancelled, where it was the game admin) and its
started games cancelled with a system message. Finished games and scores show the
`deleted-user-<id>` name. A bot is never deleted (409 `bot_account`): the server keeps a
bot of each level; an administrator renames it instead.
"""

from __future__ import annotations

import secrets
from dataclasses import dataclass
from datetime import timedelta
from typing import Any

from corridorquest.events import AdminRightsChanged, Event, SessionsEnded
from corridorquest.security.passwords import hash_password_sync
from corridorquest.security.tokens import new_password
from corridorquest.services.admin_audit import record, require_admin
from corridorquest.services.admin_games import remove_in_transaction
from corridorquest.services.auth import CurrentUser
from corridorquest.services.context import ServiceContext
from corridorquest.services.errors import BadRequest, Conflict, NotFound
from corridorquest.services.game_access import load_game
from corridorquest.services.session_ends import announce, end_sessions
from corridorquest.services.sessions import find_user
from corridorquest.services.unit_of_work import run_system_write
from corridorquest.services.user_refs import literal
from corridorquest.services.users import iso, public_view
from corridorquest.store import transaction_lock
from corridorquest.store.models import (
    Game,
    GamePlayer,
    IdempotentResponse,
    InvitationMail,
    LoginAttempt,
    MessageMute,
    PasswordRequest,
    Session,
    User,
    Verification,
    utcnow,
)

MAX_LIMIT = 1000
DELETED_PREFIX = "deleted-user-"
STATUSES = ("waiting", "started", "finished", "cancelled")


@dataclass
class UserFilter:
    locked: bool = False
    unverified: bool = False
    admins: bool = False
    search: str | None = None
    limit: int = 200


def _user(username: str) -> User:
    user = find_user(username)
    if user is None:
        raise NotFound("user_not_found", f"no user {username!r}")
    return user


def row_view(user: User) -> dict[str, Any]:
    """A user as administrators list it."""
    return {
        **public_view(user),
        "email": user.email,
        "verified": user.verified,
        "locked": user.locked,
    }


# --- reading --------------------------------------------------------------------------------


def _list(filters: UserFilter) -> list[dict[str, Any]]:
    query = User.select()
    if filters.locked:
        query = query.where(User.locked == True)  # noqa: E712
    if filters.unverified:
        query = query.where(User.verified == False)  # noqa: E712
    if filters.admins:
        query = query.where(User.is_admin == True)  # noqa: E712
    if filters.search:
        text = filters.search.strip()
        query = query.where(User.username.contains(text) | User.email.contains(text))
    return [row_view(user) for user in query.order_by(User.username).limit(filters.limit)]


async def list_users(
    ctx: ServiceContext, current: CurrentUser, filters: UserFilter
) -> list[dict[str, Any]]:
    """Accounts matching every filter given, by username."""
    require_admin(current, "list users")
    if not 1 <= filters.limit <= MAX_LIMIT:
        raise BadRequest("bad_request", f"limit must be between 1 and {MAX_LIMIT}")
    return await ctx.store.transaction(_list, filters)


def _show(username: str) -> dict[str, Any]:
    user = _user(username)
    now = utcnow()
    sessions = list(
        Session.select(Session.last_seen_at)
        .where((Session.user == user.id) & (Session.expires_at > now))
    )
    rows = list(
        Game.select(Game.id, Game.status)
        .join(GamePlayer, on=(GamePlayer.game == Game.id))
        .where(GamePlayer.user == user.id)
        .order_by(Game.id)
    )
    counts = {status: 0 for status in STATUSES}
    for game in rows:
        counts[game.status] = counts.get(game.status, 0) + 1
    day_ago = now - timedelta(days=1)
    failed = list(
        LoginAttempt.select(LoginAttempt.at)
        .where(
            (LoginAttempt.username == user.username.lower())
            & (LoginAttempt.succeeded == False)  # noqa: E712
            & (LoginAttempt.checking == False)  # noqa: E712  (being checked: not failed yet)
        )
        .order_by(LoginAttempt.at.desc())
    )
    return {
        **row_view(user),
        "password_changed_at": iso(user.password_changed_at),
        "sessions": {
            "active": len(sessions),
            "last_seen_at": iso(max((s.last_seen_at for s in sessions), default=None)),
        },
        "games": counts,
        "active_games": [g.id for g in rows if g.status in ("waiting", "started")],
        "failed_logins": {
            "last_day": sum(1 for attempt in failed if attempt.at >= day_ago),
            "kept": len(failed),
            "last_at": iso(failed[0].at) if failed else None,
        },
    }


async def show_user(ctx: ServiceContext, current: CurrentUser, username: str) -> dict[str, Any]:
    """Everything an administrator may see of an account."""
    require_admin(current, "inspect users")
    return await ctx.store.transaction(_show, username)


# --- small changes --------------------------------------------------------------------------


def _not_yourself(current: CurrentUser, user: User, what: str) -> None:
    if user.id == current.id:
        raise Conflict("own_account", f"you cannot {what} your own account")


def _other_admins(user: User) -> int:
    """Administrators besides `user` who can log in: as `services.sessions.login` decides,
    verified and not locked (a deleted account is locked and no administrator)."""
    transaction_lock("admins")
    return (
        User.select()
        .where(
            (User.is_admin == True)  # noqa: E712
            & (User.verified == True)  # noqa: E712
            & (User.locked == False)  # noqa: E712
            & (User.id != user.id)
        )
        .count()
    )


def _last_admin(user: User, what: str) -> None:
    if user.is_admin and _other_admins(user) == 0:
        raise Conflict("last_admin", f"{user.username} is the last administrator: cannot {what}")


async def _change(
    ctx: ServiceContext, current: CurrentUser, username: str, action: str, change: Any
) -> dict[str, Any]:
    """Apply `change(user, events) -> detail` to the account and record `action`; answers
    the account's row view. The events `change` adds are published after the commit."""

    events: list[Event] = []  # for the live streams (services/session_ends.py)

    def write() -> dict[str, Any]:
        events.clear()
        user = _user(username)
        detail = change(user, events)
        user.save()
        record(current, action, f"user {user.username}", detail)
        for event in events:
            announce(ctx, event)
        return row_view(user)

    answer = await ctx.store.transaction(write)
    for event in events:
        ctx.bus.publish(event)
    return answer


async def unlock(ctx: ServiceContext, current: CurrentUser, username: str) -> dict[str, Any]:
    """Unlock an account (locked by three wrong verification codes, or by an admin)."""
    require_admin(current, "unlock accounts")

    def change(user: User, events: list[Event]) -> str:
        was = user.locked
        user.locked = False
        return "unlocked" if was else "was not locked"

    return await _change(ctx, current, username, "user.unlock", change)


def _sessions_ended(count: int) -> str:
    """The audit log's words: "1 session ended", "2 sessions ended"."""
    return f"{count} session{'' if count == 1 else 's'} ended"


async def lock(ctx: ServiceContext, current: CurrentUser, username: str) -> dict[str, Any]:
    """Lock an account: its sessions end and it cannot log in until unlocked."""
    require_admin(current, "lock accounts")

    def change(user: User, events: list[Event]) -> str:
        _not_yourself(current, user, "lock")
        _last_admin(user, "lock it")
        ended = end_sessions(user.id)
        events.append(ended)
        user.locked = True
        return _sessions_ended(len(ended.keys))

    return await _change(ctx, current, username, "user.lock", change)


async def verify(ctx: ServiceContext, current: CurrentUser, username: str) -> dict[str, Any]:
    """Finish a signup whose code never arrived: the account is verified and may log in."""
    require_admin(current, "verify accounts")

    def change(user: User, events: list[Event]) -> str:
        was = user.verified
        user.verified = True
        Verification.delete().where(
            (Verification.user == user.id) & (Verification.purpose == "signup")
        ).execute()
        return "verified" if not was else "was verified already"

    return await _change(ctx, current, username, "user.verify", change)


async def promote(ctx: ServiceContext, current: CurrentUser, username: str) -> dict[str, Any]:
    """Make the account a system administrator."""
    require_admin(current, "promote users")

    def change(user: User, events: list[Event]) -> str:
        was = user.is_admin
        user.is_admin = True
        if not was:
            events.append(AdminRightsChanged(user.id, True))
        return "was an administrator already" if was else "now an administrator"

    return await _change(ctx, current, username, "user.promote", change)


async def demote(ctx: ServiceContext, current: CurrentUser, username: str) -> dict[str, Any]:
    """Take the administrator flag away (never from the last administrator: 409)."""
    require_admin(current, "demote administrators")

    def change(user: User, events: list[Event]) -> str:
        was = user.is_admin
        _last_admin(user, "demote it")
        user.is_admin = False
        if was:
            events.append(AdminRightsChanged(user.id, False))
        return "no longer an administrator" if was else "was not an administrator"

    return await _change(ctx, current, username, "user.demote", change)


async def logout(ctx: ServiceContext, current: CurrentUser, username: str) -> dict[str, Any]:
    """End every session of the account (its tokens stop working at once)."""
    require_admin(current, "end sessions")

    def write() -> tuple[dict[str, Any], SessionsEnded]:
        user = _user(username)
        ended = end_sessions(user.id)
        announce(ctx, ended)
        count = len(ended.keys)
        record(current, "user.logout", f"user {user.username}", _sessions_ended(count))
        return {"username": user.username, "sessions_ended": count}, ended

    answer, ended = await ctx.store.transaction(write)
    ctx.bus.publish(ended)  # its streams end
    return answer


# --- deleting -------------------------------------------------------------------------------


def _free_name(user_id: int) -> str:
    name = f"{DELETED_PREFIX}{user_id}"
    if find_user(name) is not None:  # somebody took that name: add a random part
        name = f"{DELETED_PREFIX}{user_id}-{secrets.token_hex(3)}"
    return name


def _not_a_bot(user: User) -> None:
    """A bot is never deleted: the server keeps a bot of each level (deleted, it would
    play on under its deleted name and no other bot would take its level)."""
    if user.bot_level is not None:
        raise Conflict(
            "bot_account",
            f"{user.username} is the server's bot of level {user.bot_level}: bots cannot be "
            "deleted (the server keeps one of each level); rename it instead "
            "(cq-admin user rename)",
        )


async def delete(ctx: ServiceContext, current: CurrentUser, username: str) -> dict[str, Any]:
    """Delete (anonymise) an account; its waiting and started games as described above."""
    require_admin(current, "delete users")
    unusable = await ctx.password_work(hash_password_sync, new_password())

    def write(events: list[Event]) -> dict[str, Any]:
        user = _user(username)
        _not_yourself(current, user, "delete")
        _not_a_bot(user)
        _last_admin(user, "delete it")
        old = user.username
        reason = f"an administrator deleted the account of {literal(old)}"
        left, cancelled = anonymise(user, current, reason, unusable, events)
        record(
            current,
            "user.delete",
            f"user {old}",
            f"now {user.username}; games left: {left or 'none'}; "
            f"games cancelled: {cancelled or 'none'}",
        )
        return {
            "username": old,
            "deleted_as": user.username,
            "games_left": left,
            "games_cancelled": cancelled,
        }

    return await run_system_write(ctx, write)


def anonymise(
    user: User, by: CurrentUser | None, reason: str, unusable: str, events: list[Event]
) -> tuple[list[int], list[int]]:
    """Delete (anonymise) `user` inside a transaction, as described above: its waiting
    games left (or cancelled with `reason`), its started games cancelled; `by`: the
    administrator, None for the server (a guest's purge). `unusable`: the password hash
    it keeps. Answers the games (left, cancelled)."""
    active = [
        game.id
        for game in Game.select(Game.id)
        .join(GamePlayer, on=(GamePlayer.game == Game.id))
        .where((GamePlayer.user == user.id) & Game.status.in_(["waiting", "started"]))
        .order_by(Game.id)
    ]
    left: list[int] = []
    cancelled: list[int] = []
    for game_id in active:
        loaded = load_game(game_id, lock=True)
        outcome = remove_in_transaction(loaded, by, user.id, reason, events)
        (left if outcome == "left" else cancelled).append(game_id)
    events.append(end_sessions(user.id))  # its streams end
    for model in (Verification, IdempotentResponse, PasswordRequest, InvitationMail):
        model.delete().where(model.user == user.id).execute()
    MessageMute.delete().where(
        (MessageMute.user == user.id) | (MessageMute.muted == user.id)
    ).execute()
    user.username = _free_name(user.id)
    user.email = f"{user.username}@deleted.invalid"
    user.password_hash = unusable
    user.password_changed_at = utcnow()
    user.description = ""
    user.ntfy_dm_topic = None
    user.notify_turn = user.notify_action = user.notify_game = user.notify_digest = False
    user.is_admin = False
    # a guest keeps its mark: its games stay unrated when they are rated again (rerate)
    user.verified = True  # never an "expired signup" that a new signup could remove
    user.locked = True
    user.save()
    return left, cancelled
