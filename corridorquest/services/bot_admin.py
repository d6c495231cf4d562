"""A system administrator renames a bot (SPEC §13: the bots are renamable by an admin).

Only bots: a person chooses their own name (`PATCH /users/me`), never one kept for bots
(`policy.looks_like_a_bot`); a bot may take such a name if it announces its own level
(`bot-4` and `bot-4x` for level 4, not for level 1). The bot keeps its level
(the mark is on the account, not in the name); the rename is recorded in the audit log and
told like any username change (`UsernameChanged`: streams, and the ntfy topics follow).
"""

from __future__ import annotations

from typing import Any

from corridorquest.events import UsernameChanged
from corridorquest.security import policy
from corridorquest.services.admin_audit import record, require_admin
from corridorquest.services.auth import CurrentUser
from corridorquest.services.context import ServiceContext
from corridorquest.services.errors import (
    Conflict,
    NotFound,
    Unprocessable,
    security_refusals_as_service_errors,
)
from corridorquest.services.outbound import keep_events, wake
from corridorquest.services.users import public_view
from corridorquest.store.models import IntegrityError, User


async def rename_bot(
    ctx: ServiceContext, current: CurrentUser, username: str, new_username: Any
) -> dict[str, Any]:
    """Rename the bot `username` to `new_username`; the bot's public view."""
    require_admin(current, "rename bots")
    if not isinstance(new_username, str):
        raise Unprocessable("invalid_username", "give the new username as text")
    with security_refusals_as_service_errors():
        new = policy.check_username(new_username, for_bot=True)

    def apply() -> tuple[dict[str, Any], int, str]:
        bot = User.find_by_name(username)
        if bot is None:
            raise NotFound("user_not_found", f"no user {username!r}")
        if bot.bot_level is None:
            raise Unprocessable(
                "not_a_bot", f"{bot.username} is not a bot: people choose their own names"
            )
        announced = policy.bot_name_level(new)
        if announced is not None and announced != bot.bot_level:
            raise Unprocessable(
                "bot_name_level",
                f"{new!r} names a bot of level {announced}; {bot.username} is level "
                f"{bot.bot_level}: a bot's name may carry its own level only",
            )
        old = bot.username
        if new != old:
            holder = User.find_by_name(new)
            if holder is not None and holder.id != bot.id:
                raise Conflict("username_taken", f"the username {new!r} is taken")
            bot.username = new
            bot.save()
            record(current, "bot.rename", f"user {old}", f"renamed to {new}")
            keep_events(ctx, [UsernameChanged(bot.id, old, new)])
        return public_view(bot), int(bot.id), old

    try:
        view, bot_id, old = await ctx.store.transaction(apply)
    except IntegrityError:
        raise Conflict("username_taken", f"the username {new!r} is taken") from None
    if view["username"] != old:
        ctx.bus.publish(UsernameChanged(bot_id, old, view["username"]))
        wake(ctx)
    return view
