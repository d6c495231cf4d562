"""Login, logout and verification codes: /sessions and /verifications."""

from __future__ import annotations

from pydantic import BaseModel, ConfigDict, Field, StrictBool
from sanic import Blueprint, Request
from sanic.response import HTTPResponse, empty, json

from corridorquest.api.auth import bearer_token, require_user, services
from corridorquest.api.docs import documented
from corridorquest.api.validation import parse_body
from corridorquest.callers import client_address
from corridorquest.services import sessions, verification
from corridorquest.services.users import iso

bp = Blueprint("sessions", url_prefix="/sessions")
verifications_bp = Blueprint("verifications", url_prefix="/verifications")


class LoginIn(BaseModel):
    model_config = ConfigDict(extra="forbid")
    username: str = Field(max_length=64)
    password: str = Field(max_length=1024)
    replace: StrictBool = Field(
        False,
        description="End an active session of this user held elsewhere. Without it, the "
        "login still replaces the session whose token it sends (Authorization: Bearer): "
        "the caller's own.",
    )


class SessionOut(BaseModel):
    token: str
    username: str
    expires_at: str


class VerifyIn(BaseModel):
    model_config = ConfigDict(extra="forbid")
    verification_token: str = Field(max_length=256)
    code: str = Field(max_length=32)


class VerifiedOut(BaseModel):
    purpose: str = Field(description="signup, password or email")
    username: str


@bp.post("")
@documented(
    "Log in (one active session per user; replace=true ends the old one, and so does a "
    "login that sends the old one's token)",
    tag="users",
    ok=(201, SessionOut),
    body=LoginIn,
    errors=(401, 403, 409, 429, 503),
    secured=False,
)
async def login(request: Request) -> HTTPResponse:
    data = parse_body(request, LoginIn)
    session = await sessions.login(
        services(request),
        data.username,
        data.password,
        client_address(request),
        data.replace,
        held_token=bearer_token(request) or None,
    )
    out = SessionOut(
        token=session.token, username=session.username, expires_at=iso(session.expires_at) or ""
    )
    return json(out.model_dump(), status=201)


@bp.delete("/current")
@documented("Log out (end the current session)", tag="users", ok=(204, None))
async def logout(request: Request) -> HTTPResponse:
    user = await require_user(request)
    await sessions.logout(services(request), user)
    return empty(status=204)


@verifications_bp.post("")
@documented(
    "Enter a verification code with its client-bound token (signup, password, e-mail)",
    tag="users",
    ok=(200, VerifiedOut),
    body=VerifyIn,
    errors=(403, 404, 409, 422),
    secured=False,
)
async def verify(request: Request) -> HTTPResponse:
    data = parse_body(request, VerifyIn)
    result = await verification.verify(services(request), data.verification_token, data.code)
    return json(VerifiedOut(**result).model_dump())
