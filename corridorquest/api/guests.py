"""Guest accounts (GUESTS=on): /guests. A name only; the answer is the guest's session."""

from __future__ import annotations

from pydantic import BaseModel, ConfigDict, Field
from sanic import Blueprint, Request
from sanic.response import HTTPResponse, json

from corridorquest.api.auth import services
from corridorquest.api.docs import documented
from corridorquest.api.users import USERNAME
from corridorquest.api.validation import parse_body
from corridorquest.callers import client_address
from corridorquest.services import guests
from corridorquest.services.users import iso

bp = Blueprint("guests", url_prefix="/guests")


class GuestIn(BaseModel):
    model_config = ConfigDict(extra="forbid")
    username: str = Field(
        max_length=64,
        description="the guest's name, as a username: 1-10, a letter, then letters/digits/_/-",
        json_schema_extra=USERNAME,
    )


class GuestSessionOut(BaseModel):
    token: str = Field(description="the guest's session token: its only way in")
    username: str
    expires_at: str
    guest: bool = True


@bp.post("")
@documented(
    "Create a guest account (GUESTS=on): a name only, no e-mail, no password; answers its "
    "session (the only one it will have)",
    tag="users",
    ok=(201, GuestSessionOut),
    body=GuestIn,
    errors=(403, 409, 422, 429),
    secured=False,
)
async def create(request: Request) -> HTTPResponse:
    data = parse_body(request, GuestIn)
    session = await guests.create_guest(services(request), data.username, client_address(request))
    out = GuestSessionOut(
        token=session.token, username=session.username, expires_at=iso(session.expires_at) or ""
    )
    return json(out.model_dump(), status=201)
