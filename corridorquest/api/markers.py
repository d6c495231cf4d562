"""/api/v1/games/{id}/markers and /legal-actions: markers and what a player may do.

Thin handlers; the rules of hidden information live in `services.visibility`.
"""

from __future__ import annotations

from pydantic import BaseModel, ConfigDict, Field
from sanic import Blueprint, Request
from sanic.response import HTTPResponse, json

from corridorquest.api.auth import require_user, services
from corridorquest.api.docs import documented, query_parameters
from corridorquest.api.game_schemas import GameOut, MarkerOut, ShowQuery
from corridorquest.api.games import checked_id
from corridorquest.api.validation import check_text, parse_body, parse_query
from corridorquest.services import markers, positions

bp = Blueprint("markers", url_prefix="/games")
TAG = "games"


class MarkerIn(BaseModel):
    model_config = ConfigDict(extra="forbid")
    marker: str = Field(..., max_length=16, description="an edge: e4v (east of e4), e4h (north)")


class MarkerListOut(BaseModel):
    markers: list[MarkerOut]


class LegalActionsOut(BaseModel):
    seat: str
    your_turn: bool
    moves: list[str]
    jumps: list[str]
    walls: list[str]


@bp.post("/<game_id:int>/markers")
@documented(
    "Mark an edge (a player of a started invisible-walls game, any time)",
    tag=TAG,
    ok=(201, GameOut),
    body=MarkerIn,
    errors=(403, 404, 409, 422),
)
async def mark(request: Request, game_id: int) -> HTTPResponse:
    user = await require_user(request)
    body = parse_body(request, MarkerIn)
    view = await markers.mark(services(request), user, checked_id(game_id), body.marker)
    return json(view, status=201)


@bp.delete("/<game_id:int>/markers/<marker:str>")
@documented(
    "Remove one of your markers", tag=TAG, ok=(200, GameOut), errors=(403, 404, 409, 422)
)
async def unmark(request: Request, game_id: int, marker: str) -> HTTPResponse:
    user = await require_user(request)
    check_text(marker)
    view = await markers.unmark(services(request), user, checked_id(game_id), marker[:16])
    return json(view)


@bp.get("/<game_id:int>/markers")
@documented(
    "The markers the caller may see (own ones; everyone's once finished)",
    tag=TAG,
    ok=(200, MarkerListOut),
    errors=(404,),
)
@query_parameters(ShowQuery)
async def list_markers(request: Request, game_id: int) -> HTTPResponse:
    user = await require_user(request)
    query = parse_query(request, ShowQuery)
    found = await markers.list_markers(
        services(request), user, checked_id(game_id), query.invitation_code
    )
    return json({"markers": found})


@bp.get("/<game_id:int>/legal-actions")
@documented(
    "The caller's legal actions, from what the caller may know (no hidden wall)",
    tag=TAG,
    ok=(200, LegalActionsOut),
    errors=(403, 404, 409),
)
async def legal_actions(request: Request, game_id: int) -> HTTPResponse:
    user = await require_user(request)
    found = await positions.legal_actions(services(request), user, checked_id(game_id))
    return json(found)
