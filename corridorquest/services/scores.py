"""Highscores and leaderboards (SPEC §6), per game variant.

A variant is (board size, number of players, masked, invisible). The scores are the ones
stored per player when a game finished (`play._finish`, computed by the engine).

- Highscores of a user: its best score in every variant it has finished a game in, with
  the game. Ties: the earliest game that reached the score (the first time counts).
- Leaderboard of a variant: the 10 users with the highest best scores, one entry per user.
  Ties: equal scores share a rank (1, 2, 2, 4: competition ranking) and are listed by who
  reached the score first (finish time, then game id).
- A private game's id is shown only to callers who may see that game (its players and
  system administrators); others get `game_id` null and `private` true.
"""

from __future__ import annotations

from collections.abc import Iterator
from datetime import datetime
from typing import Any

from corridorquest.services.auth import CurrentUser
from corridorquest.services.context import ServiceContext
from corridorquest.services.errors import NotFound
from corridorquest.services.games import check_variant_values
from corridorquest.services.iso_times import iso
from corridorquest.store.models import Game, GamePlayer, User

LEADERBOARD_SIZE = 10

Variant = tuple[int, int, bool, bool]


def _rows(*conditions: Any) -> Iterator[tuple[GamePlayer, Game]]:
    """Finished scores (best first, then earliest) as (player row, game row)."""
    query = (
        GamePlayer.select(GamePlayer, Game)
        .join(Game)
        .where(Game.status == "finished", GamePlayer.score.is_null(False), *conditions)
        .order_by(GamePlayer.score.desc(), Game.finished_at.asc(), Game.id.asc())
    )
    for player in query.iterator():
        yield player, player.game


def _players_by_game(game_ids: list[int]) -> dict[int, set[int]]:
    found: dict[int, set[int]] = {game_id: set() for game_id in game_ids}
    if game_ids:
        rows = GamePlayer.select(GamePlayer.game, GamePlayer.user).where(
            GamePlayer.game.in_(game_ids)
        )
        for row in rows:
            found[row.game_id].add(row.user_id)
    return found


def _game_ref(
    game: Game, caller: CurrentUser | None, players: dict[int, set[int]]
) -> dict[str, Any]:
    visible = (
        not game.private
        or (caller is not None and (caller.is_admin or caller.id in players.get(game.id, ())))
    )
    finished: datetime | None = game.finished_at
    return {
        "game_id": game.id if visible else None,
        "private": bool(game.private),
        "finished_at": iso(finished),
    }


def _highscores(username: str, caller: CurrentUser | None) -> dict[str, Any]:
    user = User.find_by_name(username)
    if user is None:
        raise NotFound("user_not_found", f"no user {username}")
    best: dict[Variant, tuple[GamePlayer, Game]] = {}
    for player, game in _rows(GamePlayer.user == user.id):
        variant = (game.size, game.players, bool(game.masked), bool(game.invisible))
        best.setdefault(variant, (player, game))
    players = _players_by_game(
        [game.id for _, game in best.values() if game.private]
    )
    entries = []
    for variant in sorted(best):
        player, game = best[variant]
        size, count, masked, invisible = variant
        entries.append(
            {
                "size": size,
                "players": count,
                "masked": masked,
                "invisible": invisible,
                "score": player.score,
                **_game_ref(game, caller, players),
            }
        )
    return {"username": user.username, "highscores": entries}


async def highscores(
    ctx: ServiceContext, caller: CurrentUser | None, username: str
) -> dict[str, Any]:
    """The user's best score in each variant, with its game (404 `user_not_found`)."""
    return await ctx.store.transaction(_highscores, username, caller)


def _leaderboard(variant: Variant, caller: CurrentUser | None) -> dict[str, Any]:
    size, count, masked, invisible = variant
    check_variant_values(count, size)
    picked: list[tuple[GamePlayer, Game]] = []
    seen: set[int] = set()
    for player, game in _rows(
        Game.size == size,
        Game.players == count,
        Game.masked == masked,
        Game.invisible == invisible,
    ):
        if player.user_id in seen:
            continue
        seen.add(player.user_id)
        picked.append((player, game))
        if len(picked) == LEADERBOARD_SIZE:
            break
    names = {
        user.id: user.username
        for user in User.select(User.id, User.username).where(User.id.in_(list(seen)))
    }
    players = _players_by_game([game.id for _, game in picked if game.private])
    entries = []
    rank = 0
    previous: int | None = None
    for position, (player, game) in enumerate(picked, start=1):
        if player.score != previous:
            rank, previous = position, player.score
        entries.append(
            {
                "rank": rank,
                "username": names.get(player.user_id),
                "score": player.score,
                **_game_ref(game, caller, players),
            }
        )
    return {
        "size": size,
        "players": count,
        "masked": masked,
        "invisible": invisible,
        "entries": entries,
    }


async def leaderboard(
    ctx: ServiceContext, caller: CurrentUser | None, variant: Variant
) -> dict[str, Any]:
    """The top 10 users of a variant (422 `invalid_size`, `invalid_players`)."""
    return await ctx.store.transaction(_leaderboard, variant, caller)
