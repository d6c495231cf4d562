"""/api/v1/games/{id}/offers and /trades: wall trading (SPEC §5), thin handlers."""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, ConfigDict, Field
from sanic import Blueprint, Request
from sanic.response import HTTPResponse

from corridorquest.api.auth import require_user, services
from corridorquest.api.docs import documented, query_parameters
from corridorquest.api.game_schemas import GameOut, RevisionQuery
from corridorquest.api.games import IDEMPOTENCY, answer, checked_id, idempotency_key
from corridorquest.api.validation import parse_body, parse_query
from corridorquest.services import trading

bp = Blueprint("trading", url_prefix="/games")

TAG = "trading"
Mode = Literal["buying", "selling"]


class OfferIn(BaseModel):
    model_config = ConfigDict(extra="forbid")
    mode: Mode = Field(description="buying or selling one wall")
    partner: str | None = Field(
        None, max_length=64, description="another player: makes the offer private"
    )
    base_revision: int | None = None


class TradeIn(BaseModel):
    model_config = ConfigDict(extra="forbid")
    mode: Mode = Field(description="buying against a sell offer, selling against a buy offer")
    partner: str = Field(max_length=64, description="the player whose offer is traded")
    base_revision: int | None = None


@bp.post("/<game_id:int>/offers")
@documented(
    "Offer to buy or sell one wall (players of a started game; one open offer each)",
    tag=TAG,
    ok=(201, GameOut),
    body=OfferIn,
    errors=(403, 404, 409, 422),
)
@IDEMPOTENCY
async def offer(request: Request, game_id: int) -> HTTPResponse:
    user = await require_user(request)
    body = parse_body(request, OfferIn)
    result = await trading.make_offer(
        services(request),
        user,
        checked_id(game_id),
        body.mode,
        body.partner,
        body.base_revision,
        idempotency_key(request),
    )
    return answer(result)


@bp.delete("/<game_id:int>/offers/me")
@documented(
    "Withdraw the caller's open offer",
    tag=TAG,
    ok=(200, GameOut),
    errors=(403, 404, 409, 422),
)
@query_parameters(RevisionQuery)
@IDEMPOTENCY
async def withdraw(request: Request, game_id: int) -> HTTPResponse:
    user = await require_user(request)
    query = parse_query(request, RevisionQuery)
    result = await trading.withdraw_offer(
        services(request), user, checked_id(game_id), query.base_revision, idempotency_key(request)
    )
    return answer(result)


@bp.post("/<game_id:int>/trades")
@documented(
    "Trade against another player's open offer (at any moment of a started game)",
    tag=TAG,
    ok=(201, GameOut),
    body=TradeIn,
    errors=(403, 404, 409, 422),
)
@IDEMPOTENCY
async def trade(request: Request, game_id: int) -> HTTPResponse:
    user = await require_user(request)
    body = parse_body(request, TradeIn)
    result = await trading.trade(
        services(request),
        user,
        checked_id(game_id),
        body.mode,
        body.partner,
        body.base_revision,
        idempotency_key(request),
    )
    return answer(result)
