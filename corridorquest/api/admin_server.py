"""/api/v1/admin/server: MOTD, message limit, statistics, settings; and
/api/v1/admin/broadcasts: a system message to every running game."""

from __future__ import annotations

from typing import Any

from pydantic import BaseModel, ConfigDict, Field, StrictInt
from sanic import Blueprint, Request
from sanic.response import HTTPResponse, json

from corridorquest.api.admin_access import TAG, require_admin_user
from corridorquest.api.auth import services
from corridorquest.api.docs import documented
from corridorquest.api.messages import BroadcastIn, BroadcastOut
from corridorquest.api.validation import parse_body
from corridorquest.scheduler.sweeps import maintain_now
from corridorquest.services import admin_server

bp = Blueprint("admin_server", url_prefix="/admin/server")
# POST /admin/broadcasts (served since before the other admin routes; it replaces
# `messages.admin_bp`: the admin check comes before the body, and the audit row is written)
broadcasts_bp = Blueprint("admin_broadcasts", url_prefix="/admin")


class AdminMotdIn(BaseModel):
    model_config = ConfigDict(extra="forbid")
    text: str = Field(
        max_length=2000,
        json_schema_extra={"minLength": 1},  # "" is a 422, as every empty text
        description="1-500 characters once the spaces around are removed, one line "
        "without control or invisible characters (422 invalid_motd)",
    )


class AdminMotdOut(BaseModel):
    motd: str | None = Field(description="the message of the day `server info` shows now")


class AdminMessageLimitIn(BaseModel):
    model_config = ConfigDict(extra="forbid")
    limit: StrictInt = Field(ge=0, le=admin_server.MAX_MESSAGE_LIMIT)


class AdminMessageLimitOut(BaseModel):
    message_limit: int


class AdminVariantCountOut(BaseModel):
    size: int
    players: int
    masked: bool
    invisible: bool
    status: str
    games: int


class AdminStatsOut(BaseModel):
    users: dict[str, int] = Field(description="total, verified, unverified, locked, admins")
    games: dict[str, int] = Field(description="games by status")
    variants: list[AdminVariantCountOut]
    actions_last_day: int
    active_sessions: int
    outbox_pending: dict[str, int] = Field(
        description="undelivered outbox rows by kind (event, mail, ntfy)"
    )
    motd: str | None
    message_limit: int


class AdminSettingsOut(BaseModel):
    settings: dict[str, Any] = Field(
        description="every setting by name; secrets that are set show as \"(hidden)\""
    )


@bp.put("/motd")
@documented(
    "Set the message of the day (system admins only)",
    tag=TAG,
    ok=(200, AdminMotdOut),
    body=AdminMotdIn,
    errors=(403, 422),
)
async def set_motd(request: Request) -> HTTPResponse:
    user = await require_admin_user(request, "change the message of the day")
    body = parse_body(request, AdminMotdIn)
    return json(await admin_server.set_motd(services(request), user, body.text))


@bp.delete("/motd")
@documented(
    "Clear the message of the day (the MOTD setting applies again) (system admins only)",
    tag=TAG,
    ok=(200, AdminMotdOut),
    errors=(403,),
)
async def clear_motd(request: Request) -> HTTPResponse:
    user = await require_admin_user(request, "change the message of the day")
    return json(await admin_server.set_motd(services(request), user, None))


@bp.put("/message-limit")
@documented(
    "Set the messages a player may write per game (system admins only)",
    tag=TAG,
    ok=(200, AdminMessageLimitOut),
    body=AdminMessageLimitIn,
    errors=(403, 422),
)
async def set_message_limit(request: Request) -> HTTPResponse:
    user = await require_admin_user(request, "change the message limit")
    body = parse_body(request, AdminMessageLimitIn)
    return json(await admin_server.set_message_limit(services(request), user, body.limit))


@broadcasts_bp.post("/broadcasts")
@documented(
    "Post a system message to every Waiting and Started game (system admins only)",
    tag="messages",
    ok=(201, BroadcastOut),
    body=BroadcastIn,
    errors=(403, 422),
)
async def broadcast(request: Request) -> HTTPResponse:
    user = await require_admin_user(request, "broadcast")
    body = parse_body(request, BroadcastIn)
    return json(await admin_server.broadcast(services(request), user, body.text), status=201)


@bp.get("/stats")
@documented(
    "Users, games, actions of the last day, sessions, pending outbox (system admins only)",
    tag=TAG,
    ok=(200, AdminStatsOut),
    errors=(403,),
)
async def stats(request: Request) -> HTTPResponse:
    user = await require_admin_user(request, "read the server statistics")
    return json(await admin_server.stats(services(request), user))


class AdminMaintenanceStepOut(BaseModel):
    what: str
    count: int


class AdminMaintenanceOut(BaseModel):
    steps: list[AdminMaintenanceStepOut]


@bp.post("/maintenance")
@documented(
    "Run the scheduler's sweeps now (stalled players, reminders, digests, purges) and say "
    "what each did (system admins only)",
    tag=TAG,
    ok=(200, AdminMaintenanceOut),
    errors=(403,),
)
async def maintenance(request: Request) -> HTTPResponse:
    user = await require_admin_user(request, "run the maintenance")
    return json(await admin_server.maintenance(services(request), user, maintain_now))


@bp.get("/settings")
@documented(
    "The effective settings, secrets hidden (system admins only)",
    tag=TAG,
    ok=(200, AdminSettingsOut),
    errors=(403,),
)
async def settings(request: Request) -> HTTPResponse:
    user = await require_admin_user(request, "read the server settings")
    return json(await admin_server.show_settings(services(request), user))
