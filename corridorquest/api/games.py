"""/api/v1/games: thin handlers (parse -> service -> serialize) for the games domain."""

from __future__ import annotations

import hashlib
from json import dumps, loads

from sanic import Blueprint, Request
from sanic.response import HTTPResponse, json
from sanic_ext import openapi

from corridorquest import join_links
from corridorquest.api.auth import require_user, services
from corridorquest.api.docs import documented, query_parameters
from corridorquest.api.game_schemas import (
    ActionIn,
    BotIn,
    ChangeGameIn,
    GameListOut,
    GameOut,
    HistoryOut,
    HistoryQuery,
    JoinIn,
    ListQuery,
    NewGameIn,
    PositionQuery,
    RevisionQuery,
)
from corridorquest.api.validation import check_text, parse_body, parse_query
from corridorquest.services import (
    bot_seats,
    game_list,
    games,
    idempotency,
    play,
    positions,
)
from corridorquest.services import rematch as rematches
from corridorquest.services.game_access import not_found
from corridorquest.services.games import GameOptions, WriteResult

bp = Blueprint("games", url_prefix="/games")

MAX_GAME_ID = 2**62
TAG = "games"
IDEMPOTENCY = openapi.parameter(
    "Idempotency-Key", str, "header", description="a retry with the same key changes nothing"
)


def checked_id(game_id: int) -> int:
    if not 1 <= game_id <= MAX_GAME_ID:
        raise not_found(game_id)
    return game_id


def idempotency_key(request: Request) -> str | None:
    """The Idempotency-Key header, carrying a hash of the request it came with (method,
    path, query and body; a JSON body in a canonical form, so that a retry that only
    orders its fields otherwise is the same request)."""
    value: str | None = request.headers.get("idempotency-key")
    check_text(value)
    if value is None:
        return None
    return idempotency.RequestKey(value, _request_hash(request))


def _request_hash(request: Request) -> str:
    body = request.body or b""
    try:
        body = dumps(loads(body), sort_keys=True, separators=(",", ":")).encode()
    except (ValueError, RecursionError):  # not JSON: as it came
        pass
    head = f"{request.method} {request.path}?{request.query_string}\n".encode(
        errors="backslashreplace"
    )
    return hashlib.sha256(head + body).hexdigest()


def answer(result: WriteResult) -> HTTPResponse:
    return json(result.body, status=result.status)


@bp.post("")
@documented(
    "Create a game (the caller is its admin and first player)",
    tag=TAG,
    ok=(201, GameOut),
    body=NewGameIn,
    errors=(404, 409, 422, 429),
)
@IDEMPOTENCY
async def create(request: Request) -> HTTPResponse:
    user = await require_user(request)
    body = parse_body(request, NewGameIn)
    fields = body.model_dump()
    levels = fields.pop("bots")
    join = fields.pop("join")
    options = GameOptions(**fields)
    if levels or not join:
        return answer(
            await bot_seats.create_with_bots(
                services(request), user, options, levels, idempotency_key(request), join
            )
        )
    return answer(
        await games.create_game(services(request), user, options, idempotency_key(request))
    )


@bp.post("/<game_id:int>/rematch")
@documented(
    "Rematch: the same game again, after it finished (one of its players; its bots seated, "
    "its other players invited)",
    tag=TAG,
    ok=(201, GameOut),
    errors=(403, 404, 409, 422, 429),
)
@IDEMPOTENCY
async def rematch(request: Request, game_id: int) -> HTTPResponse:
    user = await require_user(request)
    return answer(
        await rematches.rematch(
            services(request), user, checked_id(game_id), idempotency_key(request)
        )
    )


@bp.post("/<game_id:int>/bots")
@documented(
    "Seat a bot of a level (1..6) in a waiting game (its creator only; one bot per level)",
    tag=TAG,
    ok=(201, GameOut),
    body=BotIn,
    errors=(403, 404, 409, 422),
)
@IDEMPOTENCY
async def seat_bot(request: Request, game_id: int) -> HTTPResponse:
    user = await require_user(request)
    body = parse_body(request, BotIn)
    return answer(
        await bot_seats.seat_bot(
            services(request),
            user,
            checked_id(game_id),
            body.level,
            body.base_revision,
            idempotency_key(request),
        )
    )


@bp.get("")
@documented("List games (newest first)", tag=TAG, ok=(200, GameListOut), errors=(404,))
@query_parameters(ListQuery)
async def list_games(request: Request) -> HTTPResponse:
    user = await require_user(request)
    query = parse_query(request, ListQuery)
    found = await game_list.list_games(
        services(request), user, game_list.GameFilter(**query.model_dump())
    )
    return json({"games": found})


@bp.get("/<game_id:int>")
@documented(
    "The game as the caller may see it (?at=N: the board after N actions)",
    tag=TAG,
    ok=(200, GameOut),
    errors=(404, 409, 422),
)
@query_parameters(PositionQuery)
async def show(request: Request, game_id: int) -> HTTPResponse:
    user = await require_user(request)
    query = parse_query(request, PositionQuery)
    if query.at is not None:
        return json(
            await positions.show_position(
                services(request), user, checked_id(game_id), query.at, query.invitation_code
            )
        )
    view = await games.show_game(
        services(request), user, checked_id(game_id), query.invitation_code
    )
    # the link a phone in the room opens (the page's QR code's): cq game show --qr
    base = join_links.base_url(request.scheme, request.host, services(request).settings)
    return json({**view, "join_url": join_links.join_link(base, view)})


@bp.patch("/<game_id:int>")
@documented(
    "Change a waiting game (game admin only)",
    tag=TAG,
    ok=(200, GameOut),
    body=ChangeGameIn,
    errors=(403, 404, 409, 422, 429),
)
@IDEMPOTENCY
async def change(request: Request, game_id: int) -> HTTPResponse:
    user = await require_user(request)
    body = parse_body(request, ChangeGameIn)
    fields = body.model_dump(exclude={"base_revision"})
    result = await games.change_game(
        services(request),
        user,
        checked_id(game_id),
        GameOptions(**fields),
        body.base_revision,
        idempotency_key(request),
    )
    return answer(result)


@bp.delete("/<game_id:int>")
@documented(
    "Cancel a waiting or started game (game admin or system admin)",
    tag=TAG,
    ok=(200, GameOut),
    errors=(403, 404, 409, 422),
)
@query_parameters(RevisionQuery)
@IDEMPOTENCY
async def cancel(request: Request, game_id: int) -> HTTPResponse:
    user = await require_user(request)
    query = parse_query(request, RevisionQuery)
    result = await games.cancel(
        services(request), user, checked_id(game_id), query.base_revision, idempotency_key(request)
    )
    return answer(result)


@bp.post("/<game_id:int>/players")
@documented(
    "Join a waiting game (with its invitation code where needed)",
    tag=TAG,
    ok=(201, GameOut),
    body=JoinIn,
    errors=(403, 404, 409, 422),
)
@IDEMPOTENCY
async def join(request: Request, game_id: int) -> HTTPResponse:
    user = await require_user(request)
    body = parse_body(request, JoinIn)
    result = await games.join_game(
        services(request),
        user,
        checked_id(game_id),
        body.invitation_code,
        body.base_revision,
        idempotency_key(request),
    )
    return answer(result)


@bp.delete("/<game_id:int>/players/me")
@documented(
    "Withdraw: leave a waiting game, or cancel a started one",
    tag=TAG,
    ok=(200, GameOut),
    errors=(403, 404, 409, 422),
)
@query_parameters(RevisionQuery)
@IDEMPOTENCY
async def withdraw(request: Request, game_id: int) -> HTTPResponse:
    user = await require_user(request)
    query = parse_query(request, RevisionQuery)
    result = await games.withdraw(
        services(request), user, checked_id(game_id), query.base_revision, idempotency_key(request)
    )
    return answer(result)


@bp.post("/<game_id:int>/actions")
@documented(
    "Play a move, jump or wall (the player to move only)",
    tag=TAG,
    ok=(201, GameOut),
    body=ActionIn,
    errors=(403, 404, 409, 422),
)
@IDEMPOTENCY
async def act(request: Request, game_id: int) -> HTTPResponse:
    user = await require_user(request)
    body = parse_body(request, ActionIn)
    result = await play.play(
        services(request),
        user,
        checked_id(game_id),
        body.type,
        body.to,
        body.base_revision,
        idempotency_key(request),
    )
    return answer(result)


@bp.get("/<game_id:int>/actions")
@documented(
    "The history the caller may see, a page at a time (?after=&limit=)",
    tag=TAG,
    ok=(200, HistoryOut),
    errors=(404,),
)
@query_parameters(HistoryQuery)
async def history(request: Request, game_id: int) -> HTTPResponse:
    user = await require_user(request)
    query = parse_query(request, HistoryQuery)
    actions, more = await play.history_page(
        services(request),
        user,
        checked_id(game_id),
        query.invitation_code,
        query.after,
        query.limit,
    )
    return json({"actions": actions, "more": more})
