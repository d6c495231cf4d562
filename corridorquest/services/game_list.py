"""The game list with the manual's filters: status, user (a name or `me`), relation."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from corridorquest.services.auth import CurrentUser
from corridorquest.services.context import ServiceContext
from corridorquest.services.errors import BadRequest, NotFound
from corridorquest.services.game_access import LoadedGame
from corridorquest.services.game_views import summary_view
from corridorquest.store.models import Game, GamePlayer, User

STATUS_ALIASES = {
    "waiting": "waiting",
    "started": "started",
    "active": "started",
    "finished": "finished",
    "cancelled": "cancelled",
    "canceled": "cancelled",
}
RELATIONS = ("admin", "player", "won", "current")
MAX_LIMIT = 500


@dataclass
class GameFilter:
    status: str | None = None
    user: str | None = None
    relation: str | None = None
    limit: int = 100


def _check(filters: GameFilter) -> tuple[str | None, str | None]:
    status = None
    if filters.status is not None:  # given empty (`?status=`): no status, refused
        status = STATUS_ALIASES.get(filters.status.lower())
        if status is None:
            raise BadRequest(
                "bad_request",
                f"status {filters.status!r}: use waiting, active (started), finished or cancelled",
            )
    relation = filters.relation.lower() if filters.relation is not None else None
    if relation is not None and relation not in RELATIONS:
        raise BadRequest(
            "bad_request", f"relation {filters.relation!r}: use admin, player, won or current"
        )
    if not 1 <= filters.limit <= MAX_LIMIT:
        raise BadRequest("bad_request", f"limit must be between 1 and {MAX_LIMIT}")
    return status, relation


def _list(caller: CurrentUser, filters: GameFilter) -> list[dict[str, Any]]:
    status, relation = _check(filters)
    query = Game.select()
    if status is not None:
        query = query.where(Game.status == status)
    if filters.user or relation:
        name = filters.user or "me"
        if name.lower() == "me":
            user_id = caller.id
        else:
            user = User.get_or_none(User.username == name)
            if user is None:
                raise NotFound("user_not_found", f"no user {name}")
            user_id = user.id
        relation = relation or "player"
        if relation == "admin":
            query = query.where(Game.admin == user_id)
        elif relation == "won":
            query = query.where(Game.winner == user_id)
        elif relation == "current":
            query = query.where((Game.turn_user == user_id) & (Game.status == "started"))
        else:
            played = GamePlayer.select(GamePlayer.game).where(GamePlayer.user == user_id)
            query = query.where(Game.id.in_(played))
    if not caller.is_admin:
        mine = GamePlayer.select(GamePlayer.game).where(GamePlayer.user == caller.id)
        query = query.where((Game.private == False) | Game.id.in_(mine))  # noqa: E712
    games = list(query.order_by(Game.id.desc()).limit(filters.limit))
    if not games:
        return []
    by_game: dict[int, list[GamePlayer]] = {game.id: [] for game in games}
    rows = (
        GamePlayer.select(GamePlayer, User)
        .join(User)
        .where(GamePlayer.game.in_(list(by_game)))
        .order_by(GamePlayer.join_order)
    )
    for row in rows:
        by_game[row.game_id].append(row)
    return [summary_view(LoadedGame(game, by_game[game.id], None)) for game in games]


def active_games(caller: CurrentUser) -> list[dict[str, Any]]:
    """The caller's waiting and started games, newest first (inside a transaction)."""
    found = []
    for status in ("started", "waiting"):
        found += _list(caller, GameFilter(status=status, user="me", limit=MAX_LIMIT))
    return sorted(found, key=lambda game: -int(game["id"]))


async def list_games(
    ctx: ServiceContext, caller: CurrentUser, filters: GameFilter
) -> list[dict[str, Any]]:
    """Games the caller may see that match the filters, newest first."""
    return await ctx.store.transaction(_list, caller, filters)
