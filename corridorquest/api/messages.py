"""/api/v1/games/{id}/messages, /mutes and /admin/broadcasts: game messages (SPEC §8)."""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, ConfigDict, Field, StrictBool
from sanic import Blueprint, Request
from sanic.response import HTTPResponse, json

from corridorquest.api.auth import require_user, services
from corridorquest.api.docs import documented, query_parameters
from corridorquest.api.games import IDEMPOTENCY, checked_id, idempotency_key
from corridorquest.api.validation import parse_body, parse_query
from corridorquest.services import messages

bp = Blueprint("messages", url_prefix="/games")
TAG = "messages"


class MessageIn(BaseModel):
    model_config = ConfigDict(extra="forbid")
    text: str = Field(
        max_length=2000,
        json_schema_extra={"minLength": 1},  # "" is a 422, as every empty text
        description="1-500 characters once the spaces around are removed, one line "
        "without control or invisible characters (422 invalid_message)",
    )
    to: str | None = Field(None, max_length=64, description="a player: makes it a DM")


class MessageOut(BaseModel):
    id: int = Field(
        description="the message's number for the caller: 1, 2, 3, ... counting only the "
        "messages of the game the caller may read (a private message between others "
        "leaves no gap); the same message may have another number for another reader"
    )
    at: str | None
    kind: Literal["system", "broadcast", "dm"]
    sender: str | None = Field(None, alias="from")
    to: str | None
    other: str | None = Field(
        None,
        alias="with",
        description="of a DM or a private system message: the other one of its two readers",
    )
    text: str


class MessagesOut(BaseModel):
    messages: list[MessageOut]
    muted: list[str]


class MessagesQuery(BaseModel):
    model_config = ConfigDict(extra="forbid")
    after: int = Field(
        0, ge=0, le=2**62, description="only the messages numbered above it (their `id`)"
    )
    invitation_code: str | None = Field(
        None, max_length=64, description="to see a private game"
    )


class MuteIn(BaseModel):
    model_config = ConfigDict(extra="forbid")
    username: str = Field(max_length=64)
    muted: StrictBool = True


class MutesOut(BaseModel):
    muted: list[str]


class BroadcastIn(BaseModel):
    model_config = ConfigDict(extra="forbid")
    text: str = Field(
        max_length=2000,
        json_schema_extra={"minLength": 1},  # "" is a 422, as every empty text
        description="1-500 characters once the spaces around are removed, one line "
        "without control or invisible characters (422 invalid_message)",
    )


class BroadcastOut(BaseModel):
    games: list[int]
    text: str


@bp.get("/<game_id:int>/messages")
@documented(
    "The game's messages the caller may read, oldest first",
    tag=TAG,
    ok=(200, MessagesOut),
    errors=(404,),
)
@query_parameters(MessagesQuery)
async def list_messages(request: Request, game_id: int) -> HTTPResponse:
    user = await require_user(request)
    query = parse_query(request, MessagesQuery)
    found = await messages.list_messages(
        services(request), user, checked_id(game_id), query.after, query.invitation_code
    )
    return json(found)


@bp.post("/<game_id:int>/messages")
@documented(
    "Send a broadcast, or a DM to another player (players only; per-player limit)",
    tag=TAG,
    ok=(201, MessageOut),
    body=MessageIn,
    errors=(403, 404, 409, 422),
)
@IDEMPOTENCY
async def send(request: Request, game_id: int) -> HTTPResponse:
    user = await require_user(request)
    body = parse_body(request, MessageIn)
    sent = await messages.send_message(
        services(request), user, checked_id(game_id), body.text, body.to, idempotency_key(request)
    )
    return json(sent, status=201)


@bp.post("/<game_id:int>/mutes")
@documented(
    "Mute (or with muted false, unmute) another player's messages for yourself",
    tag=TAG,
    ok=(200, MutesOut),
    body=MuteIn,
    errors=(403, 404, 422),
)
async def mute(request: Request, game_id: int) -> HTTPResponse:
    user = await require_user(request)
    body = parse_body(request, MuteIn)
    muted = await messages.set_mute(
        services(request), user, checked_id(game_id), body.username, body.muted
    )
    return json(muted)
