"""/api/v1/games/{id}/board.svg: the board of a game as an SVG picture.

The picture is drawn (drawing/board_svg.py) from the very view `GET /games/{id}` answers the
caller (`?at=N`: the view of `GET /games/{id}?at=N`; of a finished game, with the markers
as they were at the end, which everybody sees then), so it shows what the caller may see
and nothing more; a game the caller may not see is 404, as there. Watchers without a
login see public games when WEB_WATCH_WITHOUT_LOGIN allows (the web pages' boards).
"""

from __future__ import annotations

from typing import Any

from pydantic import Field
from sanic import Blueprint, Request
from sanic.response import HTTPResponse, raw

from corridorquest.api.auth import services, watcher
from corridorquest.api.docs import documented, query_parameters
from corridorquest.api.game_schemas import PositionQuery
from corridorquest.api.games import TAG, checked_id
from corridorquest.api.validation import parse_query
from corridorquest.drawing.board_svg import board_svg
from corridorquest.services import games, positions
from corridorquest.services.auth import CurrentUser

bp = Blueprint("boards", url_prefix="/games")


class BoardQuery(PositionQuery):
    caption: bool = Field(True, description="a line under the board saying whose turn it is")

CONTENT_TYPE = "image/svg+xml; charset=utf-8"
HEADERS = {
    # the caller's own view, which changes with every action
    "Cache-Control": "private, no-cache",
    "X-Content-Type-Options": "nosniff",
    # opened on its own, the picture may do nothing but draw itself
    "Content-Security-Policy": "default-src 'none'; style-src 'unsafe-inline'",
}


async def _view(request: Request, user: CurrentUser, game_id: int) -> dict[str, Any]:
    """The game as `GET /games/{id}` (with its query) shows it to `user`."""
    query = parse_query(request, BoardQuery)
    now = await games.show_game(
        services(request), user, checked_id(game_id), query.invitation_code
    )
    if query.at is None:
        return now
    view = await positions.show_position(
        services(request), user, checked_id(game_id), query.at, query.invitation_code
    )
    if now["status"] == "finished":  # a replay: the markers as they were at the end
        view["markers"] = now["markers"]
    return view


@bp.get("/<game_id:int>/board.svg")
@documented(
    "The board as an SVG picture, as the caller may see the game (?at=N: after N actions)",
    tag=TAG,
    ok=(200, None),
    errors=(404, 409, 422),
    secured="optional",  # watching without login (WEB_WATCH_WITHOUT_LOGIN)
    media=("image/svg+xml", "the board: an SVG document"),
)
@query_parameters(BoardQuery)
async def board(request: Request, game_id: int) -> HTTPResponse:
    user = await watcher(request)  # public games: anybody, when the server allows it
    view = await _view(request, user, game_id)
    picture = board_svg(view, caption=parse_query(request, BoardQuery).caption)
    return raw(picture.encode(), content_type=CONTENT_TYPE, headers=HEADERS)
