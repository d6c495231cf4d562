"""/api/v1/admin/users: account management by system administrators."""

from __future__ import annotations

from pydantic import BaseModel, ConfigDict, Field
from sanic import Blueprint, Request
from sanic.response import HTTPResponse, json

from corridorquest.api.admin_access import TAG, require_admin_user
from corridorquest.api.auth import services
from corridorquest.api.docs import documented, query_parameters
from corridorquest.api.users import PublicUserOut
from corridorquest.api.validation import check_text, parse_body, parse_query
from corridorquest.services import admin_users, bot_admin, guests

bp = Blueprint("admin_users", url_prefix="/admin/users")


class AdminUserListQuery(BaseModel):
    model_config = ConfigDict(extra="forbid")
    locked: bool = Field(False, description="only locked accounts")
    unverified: bool = Field(False, description="only accounts whose signup is not verified")
    admins: bool = Field(False, description="only system administrators")
    search: str | None = Field(
        None, max_length=254, description="text in the username or e-mail address"
    )
    limit: int = Field(200, ge=1, le=admin_users.MAX_LIMIT)


class AdminBotMarkOut(BaseModel):
    level: int


class AdminUserOut(BaseModel):
    username: str
    description: str
    is_admin: bool
    bot: AdminBotMarkOut | None = None
    guest: bool = False
    created_at: str | None
    email: str
    verified: bool
    locked: bool


class AdminUserListOut(BaseModel):
    users: list[AdminUserOut]


class AdminSessionsOut(BaseModel):
    active: int
    last_seen_at: str | None


class AdminFailedLoginsOut(BaseModel):
    last_day: int = Field(description="failed logins in the last 24 hours")
    kept: int = Field(description="failed logins the server still keeps (rate-limit window)")
    last_at: str | None


class AdminUserDetailOut(AdminUserOut):
    password_changed_at: str | None
    sessions: AdminSessionsOut
    games: dict[str, int] = Field(description="the user's games by status")
    active_games: list[int] = Field(description="ids of its waiting and started games")
    failed_logins: AdminFailedLoginsOut


class AdminLogoutOut(BaseModel):
    username: str
    sessions_ended: int


class AdminDeletedOut(BaseModel):
    username: str = Field(description="the name the account had")
    deleted_as: str = Field(description="the anonymous name it keeps in finished games")
    games_left: list[int]
    games_cancelled: list[int]


@bp.get("")
@documented(
    "List accounts (filters combine) (system admins only)",
    tag=TAG,
    ok=(200, AdminUserListOut),
    errors=(403,),
)
@query_parameters(AdminUserListQuery)
async def list_users(request: Request) -> HTTPResponse:
    user = await require_admin_user(request, "list users")
    query = parse_query(request, AdminUserListQuery)
    found = await admin_users.list_users(
        services(request), user, admin_users.UserFilter(**query.model_dump())
    )
    return json({"users": found})


@bp.get("/<username:str>")
@documented(
    "An account: state, sessions, games, failed logins (system admins only)",
    tag=TAG,
    ok=(200, AdminUserDetailOut),
    errors=(403, 404),
)
async def show(request: Request, username: str) -> HTTPResponse:
    user = await require_admin_user(request, "inspect users")
    check_text(username)
    return json(await admin_users.show_user(services(request), user, username))


def _change(name: str, summary: str, errors: tuple[int, ...] = (403, 404)) -> None:
    """POST /admin/users/{username}/<name>: one change of the account."""
    service = getattr(admin_users, name)

    async def handler(request: Request, username: str) -> HTTPResponse:
        user = await require_admin_user(request, f"{name} users")
        check_text(username)
        return json(await service(services(request), user, username))

    handler.__name__ = name
    decorated = documented(
        summary + " (system admins only)", tag=TAG, ok=(200, AdminUserOut), errors=errors
    )(handler)
    bp.add_route(decorated, f"/<username:str>/{name}", methods=["POST"], name=name)


_change("lock", "Lock an account: its sessions end, it cannot log in", (403, 404, 409))
_change("unlock", "Unlock an account (locked by wrong verification codes or by an admin)")
_change("verify", "Verify an account whose signup code never arrived")
_change("promote", "Make the account a system administrator")
_change("demote", "Take the administrator flag away (never the last admin)", (403, 404, 409))


class RenameBotIn(BaseModel):
    model_config = ConfigDict(extra="forbid")
    username: str = Field(max_length=64, description="the bot's new username")


@bp.post("/<username:str>/rename")
@documented(
    "Rename a bot (SPEC §13; people choose their own names) (system admins only)",
    tag=TAG,
    ok=(200, PublicUserOut),
    body=RenameBotIn,
    errors=(403, 404, 409, 422),
)
async def rename(request: Request, username: str) -> HTTPResponse:
    user = await require_admin_user(request, "rename bots")
    check_text(username)
    body = parse_body(request, RenameBotIn)
    return json(await bot_admin.rename_bot(services(request), user, username, body.username))


@bp.post("/<username:str>/logout")
@documented(
    "End every session of the account (system admins only)",
    tag=TAG,
    ok=(200, AdminLogoutOut),
    errors=(403, 404),
)
async def logout(request: Request, username: str) -> HTTPResponse:
    user = await require_admin_user(request, "end sessions")
    check_text(username)
    return json(await admin_users.logout(services(request), user, username))


@bp.delete("/<username:str>")
@documented(
    "Delete (anonymise) an account; its waiting games are left, its started games "
    "cancelled (system admins only; the server's bots are never deleted: 409 bot_account)",
    tag=TAG,
    ok=(200, AdminDeletedOut),
    errors=(403, 404, 409),
)
async def delete(request: Request, username: str) -> HTTPResponse:
    user = await require_admin_user(request, "delete users")
    check_text(username)
    return json(await admin_users.delete(services(request), user, username))


class ConvertGuestIn(BaseModel):
    model_config = ConfigDict(extra="forbid")
    email: str = Field(max_length=320, description="the full account's e-mail address")


@bp.post("/<username:str>/convert")
@documented(
    "Turn a guest into a full account with this e-mail address (it sets a password with "
    "a forgotten-password code) (system admins only)",
    tag=TAG,
    ok=(200, AdminUserOut),
    body=ConvertGuestIn,
    errors=(403, 404, 409, 422),
)
async def convert(request: Request, username: str) -> HTTPResponse:
    user = await require_admin_user(request, "convert guests")
    check_text(username)
    body = parse_body(request, ConvertGuestIn)
    return json(await guests.convert(services(request), user, username, body.email))
