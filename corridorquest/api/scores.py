"""/api/v1/users/{username}/highscores and /api/v1/leaderboards (SPEC §6). No login needed."""

from __future__ import annotations

from pydantic import BaseModel, ConfigDict, Field
from sanic import Blueprint, Request
from sanic.response import HTTPResponse, json

from corridorquest.api.auth import optional_user, services
from corridorquest.api.docs import documented, query_parameters
from corridorquest.api.validation import check_text, parse_query
from corridorquest.services import scores

bp = Blueprint("scores", url_prefix="")
TAG = "scores"


class LeaderboardQuery(BaseModel):
    model_config = ConfigDict(extra="forbid")
    size: int = Field(9, description="board size: 5, 7, 9, 11, 13, 15 or 17 (default 9)")
    players: int = Field(2, description="2 or 4 (default 2)")
    masked: bool = Field(False, description="masked walls (default false)")
    invisible: bool = Field(False, description="invisible walls (default false)")


class GameRefOut(BaseModel):
    score: int
    game_id: int | None = Field(description="null for a private game the caller may not see")
    private: bool
    finished_at: str | None


class HighscoreOut(GameRefOut):
    size: int
    players: int
    masked: bool
    invisible: bool


class HighscoresOut(BaseModel):
    username: str
    highscores: list[HighscoreOut]


class LeaderboardEntryOut(GameRefOut):
    rank: int
    username: str | None


class LeaderboardOut(BaseModel):
    size: int
    players: int
    masked: bool
    invisible: bool
    entries: list[LeaderboardEntryOut]


@bp.get("/users/<username:str>/highscores")
@documented(
    "A user's best score in each game variant, with the game",
    tag=TAG,
    ok=(200, HighscoresOut),
    errors=(404,),
    secured="optional",  # a login shows what the caller may see of private games
)
async def highscores(request: Request, username: str) -> HTTPResponse:
    check_text(username)
    caller = await optional_user(request)
    found = await scores.highscores(services(request), caller, username[:64])
    return json(found)


@bp.get("/leaderboards")
@documented(
    "The 10 best users of a game variant",
    tag=TAG,
    ok=(200, LeaderboardOut),
    errors=(422,),
    secured="optional",  # a login shows what the caller may see of private games
)
@query_parameters(LeaderboardQuery)
async def leaderboard(request: Request) -> HTTPResponse:
    query = parse_query(request, LeaderboardQuery)
    caller = await optional_user(request)
    variant = (query.size, query.players, query.masked, query.invisible)
    return json(await scores.leaderboard(services(request), caller, variant))
