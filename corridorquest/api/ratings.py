"""/api/v1 ratings (SPEC §14): a user's ratings and history, a game's rating changes, the
leaderboards by rating. Thin handlers: parse -> services.ratings -> JSON."""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, ConfigDict, Field
from sanic import Blueprint, Request
from sanic.response import HTTPResponse, json

from corridorquest.api.auth import optional_user, require_user, services
from corridorquest.api.docs import documented, query_parameters
from corridorquest.api.game_schemas import ShowQuery
from corridorquest.api.games import checked_id
from corridorquest.api.validation import check_text, parse_query
from corridorquest.services import ratings

bp = Blueprint("ratings", url_prefix="")
TAG = "ratings"

Pool = Literal["2p", "4p"]


class UserRatingsQuery(BaseModel):
    model_config = ConfigDict(extra="forbid")
    history: bool = Field(False, description="with every rated game's rating after it")


class LeaderboardQuery(BaseModel):
    model_config = ConfigDict(extra="forbid")
    pool: Pool = Field("2p", description="2p (Glicko-2) or 4p (Plackett-Luce); default 2p")
    limit: int = Field(10, ge=1, le=100, description="how many entries (1-100, default 10)")


class HistoryPointOut(BaseModel):
    game_id: int | None = Field(description="null for a private game the caller may not see")
    private: bool
    at: str | None = Field(description="the game's finish")
    rating: int = Field(description="the rating after the game")
    deviation: int
    change: int


class PoolRatingOut(BaseModel):
    pool: Pool
    rating: int
    deviation: int = Field(description="as grown since the last game, up to 350")
    provisional: bool = Field(description="deviation above 110")
    shown: str = Field(description="the rating as shown: 1523, or 1523? when provisional")
    games: int
    last_played_at: str | None
    last_change: int | None = Field(description="the change of the last rated game (trend)")
    history: list[HistoryPointOut] | None = Field(None, description="with ?history=true")


class UserRatingsOut(BaseModel):
    username: str
    pools: list[PoolRatingOut]


class PlayerChangeOut(BaseModel):
    username: str | None
    before: int
    after: int
    change: int
    deviation_before: int
    deviation_after: int
    shown_before: str
    shown_after: str


class GameRatingsOut(BaseModel):
    game_id: int
    pool: Pool | None
    rated: bool = Field(description="false until the game finished (never for a cancelled one)")
    players: list[PlayerChangeOut]


class RatingEntryOut(BaseModel):
    rank: int
    username: str
    rating: int
    deviation: int
    games: int
    last_played_at: str | None


class RatingLeaderboardOut(BaseModel):
    pool: Pool
    min_games: int
    active_days: int
    entries: list[RatingEntryOut]


@bp.get("/users/<username:str>/ratings")
@documented(
    "A user's ratings in both pools (and with ?history=true every rated game)",
    tag=TAG,
    ok=(200, UserRatingsOut),
    errors=(404, 422),
    secured="optional",  # a login shows the ids of the caller's private games
)
@query_parameters(UserRatingsQuery)
async def user_ratings(request: Request, username: str) -> HTTPResponse:
    check_text(username)
    query = parse_query(request, UserRatingsQuery)
    caller = await optional_user(request)
    return json(
        await ratings.user_ratings(services(request), caller, username[:64], query.history)
    )


@bp.get("/games/<game_id:int>/ratings")
@documented(
    "Each player's rating before and after a finished game",
    tag=TAG,
    ok=(200, GameRatingsOut),
    errors=(404, 422),
)
@query_parameters(ShowQuery)
async def game_ratings(request: Request, game_id: int) -> HTTPResponse:
    user = await require_user(request)
    query = parse_query(request, ShowQuery)
    return json(
        await ratings.game_ratings(
            services(request), user, checked_id(game_id), query.invitation_code
        )
    )


@bp.get("/leaderboards/ratings")
@documented(
    "The highest ratings of a pool (at least 5 games, not provisional, active in 90 days)",
    tag=TAG,
    ok=(200, RatingLeaderboardOut),
    errors=(422,),
    secured="optional",
)
@query_parameters(LeaderboardQuery)
async def leaderboard(request: Request) -> HTTPResponse:
    query = parse_query(request, LeaderboardQuery)
    await optional_user(request)  # a bad token is still a 401
    return json(await ratings.leaderboard(services(request), query.pool, query.limit))
