"""The system administrators' audit log: who did what, to what, when.

Every admin service calls `require_admin` first (403 `not_admin` for everybody else) and
`record` inside the transaction of its change, so an action and its audit row commit or
roll back together. `list_audit` reads the log, newest first.
"""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

from corridorquest.services.auth import CurrentUser
from corridorquest.services.context import ServiceContext
from corridorquest.services.errors import BadRequest, Forbidden, Unprocessable
from corridorquest.services.users import iso
from corridorquest.store.models import AdminAction, User

MAX_LIMIT = 1000
MAX_DETAIL = 2000


def require_admin(current: CurrentUser, what: str = "do this") -> None:
    """403 `not_admin` unless the caller is a system administrator."""
    if not current.is_admin:
        raise Forbidden("not_admin", f"only system administrators may {what}")


def record(
    admin: CurrentUser, action: str, target: str | None = None, detail: str | None = None
) -> None:
    """One audit row for `admin`'s `action` (inside the action's transaction)."""
    AdminAction.create(
        admin=admin.id,
        admin_name=admin.username[:32],
        action=action[:32],
        target=None if target is None else target[:128],
        detail=None if detail is None else detail[:MAX_DETAIL],
    )


def parse_since(text: str | None) -> datetime | None:
    """An ISO 8601 moment (a date, or a date and time; without a zone: UTC) as the naive
    UTC datetime the tables store; 422 `invalid_since` for anything else (a text the
    query's declared shape allows, but not a moment)."""
    if text is None or not text.strip():
        return None
    value = text.strip()
    if value.endswith(("Z", "z")):
        value = value[:-1] + "+00:00"
    try:
        moment = datetime.fromisoformat(value)
    except ValueError:
        raise Unprocessable(
            "invalid_since", f"since {text!r}: use an ISO 8601 date or time (2026-05-01T12:00Z)"
        ) from None
    if moment.tzinfo is not None:
        moment = moment.astimezone(UTC).replace(tzinfo=None)
    return moment


def _view(row: AdminAction, names: dict[int, str]) -> dict[str, Any]:
    admin_id = row.admin_id
    return {
        "id": row.id,
        "at": iso(row.at),
        "admin": names.get(admin_id, row.admin_name) if admin_id is not None else row.admin_name,
        "action": row.action,
        "target": row.target,
        "detail": row.detail,
    }


def _list(username: str | None, since: datetime | None, limit: int) -> list[dict[str, Any]]:
    query = AdminAction.select()
    if username:
        user = User.find_by_name(username)
        if user is not None:
            query = query.where(AdminAction.admin == user.id)
        else:  # an admin that no longer exists under that name: the name it had then
            query = query.where(AdminAction.admin_name == username)
    if since is not None:
        query = query.where(AdminAction.at >= since)
    rows = list(query.order_by(AdminAction.id.desc()).limit(limit))
    ids = {row.admin_id for row in rows if row.admin_id is not None}
    names = (
        {u.id: u.username for u in User.select(User.id, User.username).where(User.id.in_(ids))}
        if ids
        else {}
    )
    return [_view(row, names) for row in rows]


async def list_audit(
    ctx: ServiceContext,
    current: CurrentUser,
    username: str | None = None,
    since: str | None = None,
    limit: int = 200,
) -> list[dict[str, Any]]:
    """The audit log, newest first: by one admin (`username`), from `since` on."""
    require_admin(current, "read the audit log")
    if not 1 <= limit <= MAX_LIMIT:
        raise BadRequest("bad_request", f"limit must be between 1 and {MAX_LIMIT}")
    moment = parse_since(since)
    return await ctx.store.transaction(_list, username, moment, limit)
