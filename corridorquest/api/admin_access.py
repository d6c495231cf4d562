"""What every /api/v1/admin route does first: the caller must be logged in (401) and a
system administrator (403 `not_admin`), before its body or query is even read."""

from __future__ import annotations

from sanic import Request

from corridorquest.api.auth import require_user
from corridorquest.services.admin_audit import require_admin
from corridorquest.services.auth import CurrentUser

TAG = "admin"
ADMIN_ERRORS = (403,)  # with 400 and 401, which `documented` adds to every secured route


async def require_admin_user(request: Request, what: str = "do this") -> CurrentUser:
    """The caller, a system administrator; 401 without a session, 403 for anybody else."""
    user = await require_user(request)
    require_admin(user, what)
    return user
