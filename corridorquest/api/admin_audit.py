"""/api/v1/admin/audit: the log of every administrator's action."""

from __future__ import annotations

from pydantic import BaseModel, ConfigDict, Field
from sanic import Blueprint, Request
from sanic.response import HTTPResponse, json

from corridorquest.api.admin_access import TAG, require_admin_user
from corridorquest.api.auth import services
from corridorquest.api.docs import documented, query_parameters
from corridorquest.api.validation import parse_query
from corridorquest.services import admin_audit

bp = Blueprint("admin_audit", url_prefix="/admin/audit")


class AdminAuditQuery(BaseModel):
    model_config = ConfigDict(extra="forbid")
    user: str | None = Field(None, max_length=64, description="only this administrator's")
    since: str | None = Field(
        None, max_length=64, description="only from this ISO 8601 moment on (UTC if no zone)"
    )
    limit: int = Field(200, ge=1, le=admin_audit.MAX_LIMIT)


class AdminAuditEntryOut(BaseModel):
    id: int
    at: str | None
    admin: str = Field(description="the administrator (its name now, or then if gone)")
    action: str = Field(description="user.lock, game.cancel, server.motd, ...")
    target: str | None = Field(description="user NAME, game ID or server")
    detail: str | None


class AdminAuditOut(BaseModel):
    entries: list[AdminAuditEntryOut]


@bp.get("")
@documented(
    "The administrators' actions, newest first (system admins only)",
    tag=TAG,
    ok=(200, AdminAuditOut),
    errors=(403, 422),
)
@query_parameters(AdminAuditQuery)
async def audit(request: Request) -> HTTPResponse:
    user = await require_admin_user(request, "read the audit log")
    query = parse_query(request, AdminAuditQuery)
    entries = await admin_audit.list_audit(
        services(request), user, query.user, query.since, query.limit
    )
    return json({"entries": entries})
