"""/api/v1/admin/games: every game (private ones too), cancel one, remove a player."""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel
from sanic import Blueprint, Request
from sanic.response import HTTPResponse, json

from corridorquest.api.admin_access import TAG, require_admin_user
from corridorquest.api.auth import services
from corridorquest.api.docs import documented, query_parameters
from corridorquest.api.game_schemas import GameListOut, GameOut, ListQuery
from corridorquest.api.games import checked_id
from corridorquest.api.validation import check_text, parse_query
from corridorquest.services import admin_games
from corridorquest.services.game_list import GameFilter

bp = Blueprint("admin_games", url_prefix="/admin/games")


class AdminRemovedOut(BaseModel):
    outcome: Literal["left", "cancelled"]
    game: GameOut


@bp.get("")
@documented(
    "Every game, private ones too, with the game list's filters (system admins only)",
    tag=TAG,
    ok=(200, GameListOut),
    errors=(403, 404),
)
@query_parameters(ListQuery)
async def list_games(request: Request) -> HTTPResponse:
    user = await require_admin_user(request, "list every game")
    query = parse_query(request, ListQuery)
    found = await admin_games.list_all(services(request), user, GameFilter(**query.model_dump()))
    return json({"games": found})


@bp.get("/<game_id:int>")
@documented(
    "A game as a spectator sees it, with its invitation code (system admins only)",
    tag=TAG,
    ok=(200, GameOut),
    errors=(403, 404),
)
async def show(request: Request, game_id: int) -> HTTPResponse:
    user = await require_admin_user(request, "inspect games")
    return json(await admin_games.show(services(request), user, checked_id(game_id)))


@bp.post("/<game_id:int>/cancel")
@documented(
    "Cancel a waiting or started game; its players read that an administrator did "
    "(system admins only)",
    tag=TAG,
    ok=(200, GameOut),
    errors=(403, 404, 409),
)
async def cancel(request: Request, game_id: int) -> HTTPResponse:
    user = await require_admin_user(request, "cancel games")
    return json(await admin_games.cancel(services(request), user, checked_id(game_id)))


@bp.delete("/<game_id:int>/players/<username:str>")
@documented(
    "Remove a player: from a waiting game the seat is freed, a started game is cancelled "
    "(system admins only)",
    tag=TAG,
    ok=(200, AdminRemovedOut),
    errors=(403, 404, 409, 422),
)
async def remove_player(request: Request, game_id: int, username: str) -> HTTPResponse:
    user = await require_admin_user(request, "remove players")
    check_text(username)
    removed = await admin_games.remove_player(
        services(request), user, checked_id(game_id), username
    )
    return json(removed)
