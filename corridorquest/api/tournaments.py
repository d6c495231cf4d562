"""/api/v1/tournaments: thin handlers for the tournaments (SPEC §15, issue 30)."""

from __future__ import annotations

from typing import Any

from pydantic import BaseModel, ConfigDict, Field
from sanic import Blueprint, Request
from sanic.response import HTTPResponse, json

from corridorquest.api.auth import require_user, services
from corridorquest.api.docs import documented
from corridorquest.api.games import IDEMPOTENCY, answer, idempotency_key
from corridorquest.api.validation import parse_body
from corridorquest.engine import PLAYER_COUNTS, SIZES
from corridorquest.services import tournaments
from corridorquest.services.errors import NotFound

bp = Blueprint("tournaments", url_prefix="/tournaments")
TAG = "tournaments"
MAX_ID = 2**62


class NewTournamentIn(BaseModel):
    model_config = ConfigDict(extra="forbid")
    name: str = Field(..., max_length=200, description="1 to 80 characters")
    kind: str = Field(
        ..., max_length=32,
        json_schema_extra={"enum": ["round_robin", "double_round_robin", "swiss"]},
    )
    rounds: int | None = Field(None, description="Swiss only: 1 to 20 rounds")
    players: int = Field(
        2, description="per game: 2, or 4 (tables of four, Swiss rounds)",
        json_schema_extra={"enum": list(PLAYER_COUNTS)},
    )
    size: int = Field(9, description="board size", json_schema_extra={"enum": list(SIZES)})
    masked: bool = False
    invisible: bool = False


class BotEntrantIn(BaseModel):
    model_config = ConfigDict(extra="forbid")
    level: int = Field(..., description="the bot's level: 1 (weakest) to 6")


class RemoveIn(BaseModel):
    model_config = ConfigDict(extra="forbid")
    username: str = Field(..., max_length=64)


class TournamentOut(BaseModel):
    id: int
    name: str
    kind: str
    status: str = Field(..., description="entering | started | finished")
    rounds: int | None
    round: int
    size: int
    players: int
    masked: bool
    invisible: bool
    admin: str | None
    entrants: int
    created_at: str | None
    started_at: str | None
    finished_at: str | None
    you_admin: bool = False
    you_entered: bool = False
    entrant_list: list[dict[str, Any]] = []
    pairings: list[dict[str, Any]] = []
    standings: list[dict[str, Any]] = []


class TournamentListOut(BaseModel):
    tournaments: list[dict[str, Any]]


def checked(tournament_id: int) -> int:
    if not 1 <= tournament_id <= MAX_ID:
        raise NotFound("tournament_not_found", f"no tournament {tournament_id}")
    return tournament_id


@bp.post("")
@documented(
    "Create a tournament (the caller is its admin; it enters by joining)",
    tag=TAG, ok=(201, TournamentOut), body=NewTournamentIn, errors=(409, 422),
)
@IDEMPOTENCY
async def create(request: Request) -> HTTPResponse:
    user = await require_user(request)
    body = parse_body(request, NewTournamentIn)
    return answer(await tournaments.create_tournament(
        services(request), user, body.name, body.kind, body.rounds, body.size, body.players,
        body.masked, body.invisible, idempotency_key(request),
    ))


@bp.get("")
@documented("List tournaments (newest first)", tag=TAG, ok=(200, TournamentListOut))
async def list_all(request: Request) -> HTTPResponse:
    user = await require_user(request)
    return json({"tournaments": await tournaments.list_tournaments(services(request), user)})


@bp.get("/<tournament_id:int>")
@documented(
    "A tournament: entrants, rounds with their games, standings",
    tag=TAG, ok=(200, TournamentOut), errors=(404,),
)
async def show(request: Request, tournament_id: int) -> HTTPResponse:
    user = await require_user(request)
    return json(await tournaments.show_tournament(services(request), user, checked(tournament_id)))


@bp.post("/<tournament_id:int>/join")
@documented(
    "Enter a tournament that has not started", tag=TAG, ok=(201, TournamentOut),
    errors=(404, 409, 422),
)
@IDEMPOTENCY
async def join(request: Request, tournament_id: int) -> HTTPResponse:
    user = await require_user(request)
    return answer(await tournaments.join(
        services(request), user, checked(tournament_id), idempotency_key(request)
    ))


@bp.post("/<tournament_id:int>/leave")
@documented(
    "Leave a tournament (once started: withdraw, forfeiting the game being played and "
    "every later one)",
    tag=TAG, ok=(200, TournamentOut), errors=(404, 409, 422),
)
@IDEMPOTENCY
async def leave(request: Request, tournament_id: int) -> HTTPResponse:
    user = await require_user(request)
    return answer(await tournaments.leave(
        services(request), user, checked(tournament_id), idempotency_key(request)
    ))


@bp.post("/<tournament_id:int>/bots")
@documented(
    "Enter the bot of a level (the tournament's admin, before the start)",
    tag=TAG, ok=(201, TournamentOut), body=BotEntrantIn, errors=(403, 404, 409, 422),
)
@IDEMPOTENCY
async def add_bot(request: Request, tournament_id: int) -> HTTPResponse:
    user = await require_user(request)
    body = parse_body(request, BotEntrantIn)
    return answer(await tournaments.add_bot(
        services(request), user, checked(tournament_id), body.level, idempotency_key(request)
    ))


@bp.post("/<tournament_id:int>/remove")
@documented(
    "Take an entrant out (the tournament's admin; once started, a withdrawal)",
    tag=TAG, ok=(200, TournamentOut), body=RemoveIn, errors=(403, 404, 409, 422),
)
@IDEMPOTENCY
async def remove(request: Request, tournament_id: int) -> HTTPResponse:
    user = await require_user(request)
    body = parse_body(request, RemoveIn)
    return answer(await tournaments.remove(
        services(request), user, checked(tournament_id), body.username, idempotency_key(request)
    ))


@bp.post("/<tournament_id:int>/start")
@documented(
    "Start a tournament (its admin): the server makes and starts the first round's games",
    tag=TAG, ok=(200, TournamentOut), errors=(403, 404, 409, 422),
)
@IDEMPOTENCY
async def start(request: Request, tournament_id: int) -> HTTPResponse:
    user = await require_user(request)
    return answer(await tournaments.start(
        services(request), user, checked(tournament_id), idempotency_key(request)
    ))
