"""/api/v1/admin/users: account management by system administrators."""

from __future__ import annotations

from pydantic import BaseModel
from sanic import Blueprint, Request
from sanic.response import HTTPResponse, json

from corridorquest.api.auth import require_user, services
from corridorquest.api.docs import documented
from corridorquest.api.validation import check_text
from corridorquest.services import admin_users

bp = Blueprint("admin_users", url_prefix="/admin/users")


class UnlockedOut(BaseModel):
    username: str
    description: str
    is_admin: bool
    created_at: str
    locked: bool


@bp.post("/<username:str>/unlock")
@documented(
    "Unlock an account locked by wrong verification codes (system admins only)",
    tag="admin",
    ok=(200, UnlockedOut),
    errors=(403, 404),
)
async def unlock(request: Request, username: str) -> HTTPResponse:
    user = await require_user(request)
    check_text(username)
    return json(await admin_users.unlock(services(request), user, username))
