"""Accounts: signup, show, change, password and e-mail change requests: /users."""

from __future__ import annotations

from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, StrictBool
from sanic import Blueprint, Request
from sanic.response import HTTPResponse, json

from corridorquest.api.auth import require_user, services
from corridorquest.api.docs import documented
from corridorquest.api.sessions import client_address
from corridorquest.api.validation import check_text, parse_body
from corridorquest.security.policy import (
    DESCRIPTION_MAX,
    PASSWORD_MAX,
    PASSWORD_MIN,
    USERNAME_MAX,
    VISIBLE_TEXT_PATTERN,
)
from corridorquest.services import account_changes, signups, users

bp = Blueprint("users", url_prefix="/users")

# What the services check (security/policy.py, 422 with the field's reason), declared in
# the OpenAPI document; the models' own bounds stay wider (beyond them: 400 bad_request).
USERNAME: dict[str, Any] = {
    "pattern": f"^[A-Za-z][A-Za-z0-9_-]{{0,{USERNAME_MAX - 1}}}$",
    "maxLength": USERNAME_MAX,
}
PASSWORD: dict[str, Any] = {"minLength": PASSWORD_MIN, "maxLength": PASSWORD_MAX}
DESCRIPTION: dict[str, Any] = {"pattern": VISIBLE_TEXT_PATTERN, "maxLength": DESCRIPTION_MAX}
NTFY_TOPIC: dict[str, Any] = {"pattern": f"^(|[A-Za-z0-9_-]{{{USERNAME_MAX + 1},64}})$"}


class SignupIn(BaseModel):
    model_config = ConfigDict(extra="forbid")
    username: str = Field(
        max_length=64,
        description="1-10: a letter, then letters/digits/_/-; not `me`, not `game_...`",
        json_schema_extra=USERNAME,
    )
    email: str = Field(max_length=320)
    password: str = Field(
        max_length=1024, description="8-256 characters, not the username",
        json_schema_extra=PASSWORD,
    )
    description: str | None = Field(
        None, max_length=1000, description="at most 50, one line without control characters",
        json_schema_extra=DESCRIPTION,
    )
    ntfy_dm_topic: str | None = Field(
        None, max_length=256,
        description="11-64 letters, digits, _ or -, not `game_...`; '' or null: none",
        json_schema_extra=NTFY_TOPIC,
    )


class VerificationStartedOut(BaseModel):
    verification_token: str
    purpose: str


class SignupOut(VerificationStartedOut):
    username: str


class PasswordIn(BaseModel):
    model_config = ConfigDict(extra="forbid")
    new_password: str = Field(
        max_length=1024, description="8-256 characters, not the username",
        json_schema_extra=PASSWORD,
    )


class EmailIn(BaseModel):
    model_config = ConfigDict(extra="forbid")
    email: str = Field(max_length=320)


class NotifyIn(BaseModel):
    model_config = ConfigDict(extra="forbid")
    turn: StrictBool | None = None
    action: StrictBool | None = None
    game: StrictBool | None = None
    digest: StrictBool | None = Field(
        None, description="true: one e-mail a day listing the games on your turn, "
        "instead of one e-mail per event"
    )


class UserPatchIn(BaseModel):
    model_config = ConfigDict(extra="forbid")
    description: str | None = Field(
        None, max_length=1000, description="at most 50, one line without control characters",
        json_schema_extra=DESCRIPTION,
    )
    username: str | None = Field(
        None, max_length=64, description="a new username, as at signup",
        json_schema_extra=USERNAME,
    )
    theme: Literal["dark", "light", "translucent"] | None = None
    ntfy_dm_topic: str | None = Field(
        None, max_length=256, description="as at signup; null or '' clears it",
        json_schema_extra=NTFY_TOPIC,
    )
    notify: NotifyIn | None = None


class NotifyOut(BaseModel):
    turn: bool
    action: bool
    game: bool
    digest: bool


class SessionInfoOut(BaseModel):
    expires_at: str


class BotMarkOut(BaseModel):
    level: int = Field(description="the bot's level, 1 (weakest) to 6")


class PublicUserOut(BaseModel):
    username: str
    description: str
    is_admin: bool
    bot: BotMarkOut | None = Field(None, description="set for a bot (SPEC §13): its level")
    guest: bool = Field(False, description="a guest account (GUESTS=on): no e-mail, no password")
    created_at: str


class UserOut(PublicUserOut):
    email: str
    theme: str
    notify: NotifyOut
    ntfy_dm_topic: str | None
    password_changed_at: str
    session: SessionInfoOut | None


@bp.post("")
@documented(
    "Sign up: a code is e-mailed; answers with the client-bound verification token "
    "(again with the same username and e-mail while unverified: a new code)",
    tag="users",
    ok=(201, SignupOut),
    body=SignupIn,
    errors=(409, 422, 429, 503),
    secured=False,
)
async def signup(request: Request) -> HTTPResponse:
    data = parse_body(request, SignupIn)
    result = await signups.signup(
        services(request),
        data.username,
        data.email,
        data.password,
        data.description,
        data.ntfy_dm_topic,
        client_address(request),
    )
    return json(SignupOut(**result).model_dump(), status=201)


@bp.get("/me")
@documented("Show yourself (every field)", tag="users", ok=(200, UserOut))
async def show_me(request: Request) -> HTTPResponse:
    user = await require_user(request)
    return json(UserOut(**await users.get_me(services(request), user)).model_dump())


@bp.patch("/me")
@documented(
    "Change description, username, theme, ntfy DM topic or notification toggles",
    tag="users",
    ok=(200, UserOut),
    body=UserPatchIn,
    errors=(409, 422),
)
async def change_me(request: Request) -> HTTPResponse:
    user = await require_user(request)
    changes = parse_body(request, UserPatchIn).model_dump(exclude_unset=True)
    if isinstance(changes.get("notify"), dict):
        changes["notify"] = {k: v for k, v in changes["notify"].items() if v is not None}
    result = await users.update_me(services(request), user, changes)
    return json(UserOut(**result).model_dump())


@bp.post("/me/email")
@documented(
    "Change your e-mail address: code to the new address, notice to the old",
    tag="users",
    ok=(202, VerificationStartedOut),
    body=EmailIn,
    errors=(403, 409, 422),
)
async def change_email(request: Request) -> HTTPResponse:
    user = await require_user(request)
    data = parse_body(request, EmailIn)
    result = await account_changes.request_email_change(services(request), user, data.email)
    return json(VerificationStartedOut(**result).model_dump(), status=202)


@bp.get("/<username:str>")
@documented(
    "Show a user's public fields",
    tag="users",
    ok=(200, PublicUserOut),
    errors=(404,),
    secured=False,
)
async def show_user(request: Request, username: str) -> HTTPResponse:
    check_text(username)
    return json(PublicUserOut(**await users.get_user(services(request), username)).model_dump())


@bp.post("/<username:str>/password")
@documented(
    "Change a password without login: code to the account's address, applied on verify",
    tag="users",
    ok=(202, VerificationStartedOut),
    body=PasswordIn,
    errors=(403, 404, 422, 429, 503),
    secured=False,
)
async def change_password(request: Request, username: str) -> HTTPResponse:
    check_text(username)
    data = parse_body(request, PasswordIn)
    result = await account_changes.request_password_change(
        services(request), username, data.new_password, client_address(request)
    )
    return json(VerificationStartedOut(**result).model_dump(), status=202)
