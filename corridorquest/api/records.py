"""/api/v1/games/{id}/record: a game as a record in the common notation (docs/records.md)."""

from __future__ import annotations

from pydantic import BaseModel, ConfigDict, Field
from sanic import Blueprint, Request
from sanic.response import HTTPResponse, json, raw

from corridorquest.api.auth import require_user, services
from corridorquest.api.docs import documented, query_parameters
from corridorquest.api.game_schemas import ShowQuery
from corridorquest.api.games import TAG, checked_id
from corridorquest.api.validation import parse_body, parse_query
from corridorquest.records import MAX_RECORD_CHARS, format_json, format_text
from corridorquest.services import record_export, record_import

bp = Blueprint("records", url_prefix="/games")

TEXT = "text/plain; charset=utf-8"
HEADERS = {"Cache-Control": "private, no-cache", "X-Content-Type-Options": "nosniff"}


class RecordQuery(ShowQuery):
    format: str = Field(
        "text", pattern="^(text|json)?$", description="text (tag lines and movetext) or json"
    )


class RecordOut(BaseModel):
    tags: dict[str, str] = Field(..., description="the tags by name (docs/records.md)")
    actions: list[str | None] = Field(
        ..., description="the actions, the first mover on e1 (null: hidden from the caller)"
    )
    movetext: str


@bp.get("/<game_id:int>/record")
@documented(
    "The game as a record (tags and movetext; ?format=json), as the caller may see it",
    tag=TAG,
    ok=(200, RecordOut),
    errors=(404, 409, 422),
    media=("text/plain", "the record: tag lines and the movetext (?format=json: JSON)"),
)
@query_parameters(RecordQuery)
async def record(request: Request, game_id: int) -> HTTPResponse:
    user = await require_user(request)
    query = parse_query(request, RecordQuery)
    found = await record_export.export_game(
        services(request), user, checked_id(game_id), query.invitation_code
    )
    if query.format == "json":  # (an empty format: the text)
        return json(format_json(found), headers=HEADERS)
    return raw(format_text(found).encode(), content_type=TEXT, headers=HEADERS)


class ImportIn(BaseModel):
    model_config = ConfigDict(extra="forbid")
    record: str = Field(
        ...,
        description=f"one or several records (docs/records.md), at most {MAX_RECORD_CHARS:,} "
        "characters (422 too_long)",
    )


class ImportedOut(BaseModel):
    games: list[int] = Field(..., description="the ids of the imported games, in order")


@bp.post("/imported")
@documented(
    "Import finished games from records (all or none): finished games marked imported",
    tag=TAG,
    ok=(201, ImportedOut),
    body=ImportIn,
    errors=(403, 409, 413, 422, 429),
)
async def import_games(request: Request) -> HTTPResponse:
    user = await require_user(request)
    body = parse_body(request, ImportIn)
    ids = await record_import.import_records(services(request), user, body.record)
    return json({"games": ids}, status=201)
