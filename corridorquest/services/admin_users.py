"""What system administrators do to user accounts (SPEC §7): unlock a locked account."""

from __future__ import annotations

from typing import Any

from corridorquest.services.auth import CurrentUser
from corridorquest.services.context import ServiceContext
from corridorquest.services.errors import Forbidden, NotFound
from corridorquest.services.sessions import find_user
from corridorquest.services.users import public_view
from corridorquest.store.models import User


def require_admin(current: CurrentUser, what: str) -> None:
    if not current.is_admin:
        raise Forbidden("not_admin", f"only system administrators may {what}")


async def unlock(ctx: ServiceContext, current: CurrentUser, username: str) -> dict[str, Any]:
    """Unlock an account locked by three wrong verification codes; answers its public view."""
    require_admin(current, "unlock accounts")

    def write() -> dict[str, Any]:
        user = find_user(username)
        if user is None:
            raise NotFound("user_not_found", f"no user {username!r}")
        if user.locked:
            user.locked = False
            user.save(only=[User.locked])
        return {**public_view(user), "locked": False}

    return await ctx.store.transaction(write)
