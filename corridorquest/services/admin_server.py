"""What system administrators do to the server: the MOTD, the message limit, a broadcast
to every running game, the statistics, the effective settings (secrets hidden).

The MOTD and the message limit are server values (`ServerValue`) that win over the
MOTD and MESSAGE_LIMIT settings; clearing the MOTD removes the value (the MOTD setting,
if any, applies again). Every change is recorded in the audit log in its transaction.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Awaitable, Callable
from datetime import timedelta
from typing import Any

from corridorquest.events import AdminBroadcast, Event
from corridorquest.security.policy import has_control_characters
from corridorquest.services.admin_audit import record, require_admin
from corridorquest.services.auth import CurrentUser
from corridorquest.services.context import ServiceContext
from corridorquest.services.errors import Unprocessable
from corridorquest.services.messages import (
    ADMIN_PREFIX,
    checked_text,
    message_limit,
)
from corridorquest.services.server import get_value
from corridorquest.services.system_messages import add_system
from corridorquest.services.unit_of_work import run_system_write
from corridorquest.services.user_refs import literal
from corridorquest.settings import Settings
from corridorquest.store import outbox
from corridorquest.store.models import Game, GameAction, ServerValue, Session, User, utcnow

MAX_MOTD = 500
MAX_MESSAGE_LIMIT = 100_000
HIDDEN = "(hidden)"


def _set_value(key: str, value: str | None) -> None:
    ServerValue.delete().where(ServerValue.key == key).execute()
    if value is not None:
        ServerValue.create(key=key, value=value)


def _effective_motd(settings: Settings) -> str | None:
    value = get_value("motd")
    return value if value is not None else settings.motd


async def set_motd(ctx: ServiceContext, current: CurrentUser, text: str | None) -> dict[str, Any]:
    """Set the message of the day (`None`: clear the value; the MOTD setting applies)."""
    require_admin(current, "change the message of the day")
    if text is not None:
        text = text.strip()
        if not text or len(text) > MAX_MOTD or has_control_characters(text):
            raise Unprocessable(
                "invalid_motd",
                f"the message of the day is one line of 1-{MAX_MOTD} characters "
                "without control or invisible characters",
            )

    def write() -> dict[str, Any]:
        _set_value("motd", text)
        record(current, "server.motd", "server", text if text is not None else "cleared")
        return {"motd": _effective_motd(ctx.settings)}

    return await ctx.store.transaction(write)


async def set_message_limit(
    ctx: ServiceContext, current: CurrentUser, limit: int
) -> dict[str, Any]:
    """Messages a player may write per game, from now on (wins over MESSAGE_LIMIT)."""
    require_admin(current, "change the message limit")
    if not 0 <= limit <= MAX_MESSAGE_LIMIT:
        raise Unprocessable(
            "invalid_message_limit", f"the message limit is between 0 and {MAX_MESSAGE_LIMIT}"
        )

    def write() -> dict[str, Any]:
        _set_value("message_limit", str(limit))
        record(current, "server.message_limit", "server", str(limit))
        return {"message_limit": message_limit(ctx.settings.message_limit)}

    return await ctx.store.transaction(write)


async def broadcast(ctx: ServiceContext, current: CurrentUser, text: str) -> dict[str, Any]:
    """A system message from the administrators to every waiting and started game (as
    `messages.admin_broadcast`, with its audit row)."""
    require_admin(current, "broadcast")
    text = checked_text(text)

    def write(events: list[Event]) -> list[int]:
        games = list(
            Game.select(Game.id, Game.revision)
            .where(Game.status.in_(["waiting", "started"]))
            .order_by(Game.id)
        )
        ids = [game.id for game in games]
        for game in games:
            add_system(game.id, game.revision, ADMIN_PREFIX + literal(text))
        events.append(AdminBroadcast(game_ids=tuple(ids), text=text))
        record(current, "server.broadcast", "server", f"{text} (to {len(ids)} games)")
        return ids

    game_ids = await run_system_write(ctx, write)
    return {"games": game_ids, "text": ADMIN_PREFIX + text}


def _stats(default_limit: int, settings: Settings) -> dict[str, Any]:
    now = utcnow()
    users = {
        "total": User.select().count(),
        "verified": User.select().where(User.verified == True).count(),  # noqa: E712
        "unverified": User.select().where(User.verified == False).count(),  # noqa: E712
        "locked": User.select().where(User.locked == True).count(),  # noqa: E712
        "admins": User.select().where(User.is_admin == True).count(),  # noqa: E712
    }
    # Counted here rather than grouped in SQL: the services never build SQL functions
    # (only the store imports peewee), and a server's games are few enough.
    by_status: Counter[str] = Counter()
    by_variant: Counter[tuple[int, int, bool, bool, str]] = Counter()
    rows = Game.select(Game.status, Game.size, Game.players, Game.masked, Game.invisible)
    for game in rows:
        by_status[game.status] += 1
        variant = (game.size, game.players, bool(game.masked), bool(game.invisible))
        by_variant[(*variant, game.status)] += 1
    return {
        "users": users,
        "games": {status: by_status.get(status, 0) for status in
                  ("waiting", "started", "finished", "cancelled")},
        "variants": [
            {"size": size, "players": players, "masked": masked, "invisible": invisible,
             "status": status, "games": count}
            for (size, players, masked, invisible, status), count in sorted(by_variant.items())
        ],
        "actions_last_day": GameAction.select()
        .where(GameAction.at >= now - timedelta(days=1))
        .count(),
        "active_sessions": Session.select().where(Session.expires_at > now).count(),
        "outbox_pending": outbox.pending(),
        "motd": _effective_motd(settings),
        "message_limit": message_limit(default_limit),
    }


Maintenance = Callable[[ServiceContext], Awaitable[list[tuple[str, int]]]]


async def maintenance(
    ctx: ServiceContext, current: CurrentUser, run: Maintenance
) -> dict[str, Any]:
    """Run the scheduler's steps now (`run`: `scheduler.sweeps.maintain_now`, handed in by
    the API, which knows the scheduler) and say what each did; audited."""
    require_admin(current, "run the maintenance")
    done = await run(ctx)
    summary = ", ".join(f"{what}: {count}" for what, count in done)

    def audit() -> None:
        record(current, "server.maintenance", "server", summary)

    await ctx.store.transaction(audit)
    return {"steps": [{"what": what, "count": count} for what, count in done]}


async def stats(ctx: ServiceContext, current: CurrentUser) -> dict[str, Any]:
    require_admin(current, "read the server statistics")
    return await ctx.store.transaction(_stats, ctx.settings.message_limit, ctx.settings)


def _redacted_url(url: str) -> str:
    if "@" in url and "://" in url:
        scheme, rest = url.split("://", 1)
        credentials, host = rest.rsplit("@", 1)
        if ":" in credentials:
            return f"{scheme}://{credentials.split(':', 1)[0]}:{HIDDEN}@{host}"
    return url


def effective_settings(settings: Settings) -> dict[str, Any]:
    """Every setting by name with its value; secrets (fields with repr=False, passwords
    in the database URL) hidden: a secret that is set shows as "(hidden)"."""
    values = settings.model_dump(mode="json")
    shown: dict[str, Any] = {}
    for name, field in Settings.model_fields.items():
        value = values.get(name)
        if not field.repr:
            value = HIDDEN if value not in (None, "") else value
        elif name == "database_url" and isinstance(value, str):
            value = _redacted_url(value)
        shown[name] = value
    return shown


async def show_settings(ctx: ServiceContext, current: CurrentUser) -> dict[str, Any]:
    require_admin(current, "read the server settings")
    return {"settings": effective_settings(ctx.settings)}
