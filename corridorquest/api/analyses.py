"""/api/v1/games/{id}/analysis: each ply of a finished game judged by the bots (SPEC §16)."""

from __future__ import annotations

from typing import Any

from pydantic import BaseModel, Field
from sanic import Blueprint, Request
from sanic.response import HTTPResponse, json

from corridorquest.api.auth import require_user, services
from corridorquest.api.docs import documented
from corridorquest.api.games import TAG, checked_id
from corridorquest.services import analyses

bp = Blueprint("analyses", url_prefix="/games")


class PlyOut(BaseModel):
    ply: int = Field(..., description="1-based")
    seat: str = Field(..., description="the seat that moved")
    player: str | None = Field(..., description="its player (an imported game: the record's name)")
    action: str
    before: float = Field(..., description="the mover's evaluation before its action, in steps")
    after: float = Field(..., description="the mover's evaluation after it (±1000: won/lost)")
    best: str = Field(..., description="the action the analysis bot prefers")
    best_after: float = Field(..., description="the mover's evaluation after the best action")
    mistake: bool = Field(..., description="the action lost much (docs/players-guide.md)")


class AnalysisOut(BaseModel):
    game: int
    status: str = Field(..., description="pending, done or failed")
    level: int = Field(..., description="the bot level of the best actions")
    mistake_drop: float = Field(..., description="steps lost that make a mistake")
    plies: list[PlyOut] | None = Field(None, description="once done: one row per ply")
    computed_at: str | None = None
    error: str | None = Field(None, description="when failed: why (a new request retries)")


def _answer(view: dict[str, Any]) -> HTTPResponse:
    return json(view, status=200 if view["status"] != "pending" else 202,
                headers={"Cache-Control": "private, no-cache"})


@bp.post("/<game_id:int>/analysis")
@documented(
    "Request the analysis of a finished (or imported) game: computed once, in a worker "
    "(queued: 429 too_many_analyses, 503 analysis_queue_full)",
    tag=TAG,
    ok=(202, AnalysisOut),
    errors=(403, 404, 409, 429, 503),
)
async def request_analysis(request: Request, game_id: int) -> HTTPResponse:
    user = await require_user(request)
    view = await analyses.request_analysis(services(request), user, checked_id(game_id))
    return _answer(view)


@bp.get("/<game_id:int>/analysis")
@documented(
    "The analysis of a finished game: 202 while it is computed, then one row per ply",
    tag=TAG,
    ok=(200, AnalysisOut),
    errors=(403, 404, 409),
)
async def show_analysis(request: Request, game_id: int) -> HTTPResponse:
    user = await require_user(request)
    view = await analyses.read_analysis(services(request), user, checked_id(game_id))
    return _answer(view)

