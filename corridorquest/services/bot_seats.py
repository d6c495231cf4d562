"""Seating bots (SPEC §13): the creator of a waiting game adds a bot of a level to it.

`seat_bot` is one write like a join (one transaction, the revision bumped, a base revision
and an idempotency key, `PlayerJoined` and, when it fills the game, `GameStarted`), made
by the game's admin on the bot's behalf. The same level may fill several seats: each seat
is a bot player of its own (`bot-1`, then `bot-1b`, `bot-1c`, `bot-1d`: the server makes
four of each level at start, `bot_users.bot_for_seat` takes the first not yet seated).
Refused, with nothing changed: a level that is not 1..6 (422 `invalid_bot_level`), not
the game's admin (403 `not_game_admin`), a game that is not waiting (409
`game_not_waiting`, ...), a full game (409 `game_full`).
"""

from __future__ import annotations

import hashlib
from dataclasses import replace
from typing import Any

from corridorquest.events import PlayerJoined
from corridorquest.services.auth import CurrentUser
from corridorquest.services.bot_users import bot_for_seat, check_level
from corridorquest.services.context import ServiceContext
from corridorquest.services.errors import Conflict, Forbidden, Unprocessable
from corridorquest.services.game_access import (
    check_revision,
    load_game,
    require_status,
)
from corridorquest.services.game_views import game_view
from corridorquest.services.games import (
    GameOptions,
    WriteResult,
    create_game,
    start_game,
)
from corridorquest.services.unit_of_work import GameWrite, write_game
from corridorquest.store.models import GamePlayer, utcnow


async def seat_bot(
    ctx: ServiceContext,
    user: CurrentUser,
    game_id: int,
    level: Any,
    base_revision: int | None = None,
    key: str | None = None,
) -> WriteResult:
    """Seat the bot of `level` in the waiting game `game_id` (its admin only)."""
    level = check_level(level)

    def seat(work: GameWrite) -> tuple[int, dict[str, Any]]:
        loaded = work.loaded
        game = loaded.game
        if game.admin_id != user.id:
            raise Forbidden(
                "not_game_admin", f"only the creator of game {game_id} may seat a bot in it"
            )
        check_revision(loaded, base_revision, lambda: game_view(loaded, user.id))
        if game.status == "waiting" and len(loaded.players) >= game.players:
            raise Conflict("game_full", f"game {game_id} has no free seat")
        require_status(loaded, "waiting")
        bot = bot_for_seat(level, {player.user_id for player in loaded.players})
        if bot is None:  # (the server makes BOTS_PER_LEVEL of each level at start)
            raise Conflict(
                "bot_unavailable",
                f"every bot of level {level} on this server already plays in game {game_id}",
            )
        order = max((p.join_order for p in loaded.players), default=-1) + 1
        GamePlayer.create(game=game.id, user=bot.id, join_order=order)
        loaded.players = load_game(game.id).players
        game.revision += 1
        work.emit(PlayerJoined(game_id=game.id, revision=game.revision, user_id=bot.id))
        if len(loaded.players) == game.players:
            work.emit(start_game(loaded, utcnow()))
        game.save()
        return 201, game_view(loaded, user.id)

    return await write_game(ctx, user, key, "seat bot", game_id, seat)


def check_bot_levels(
    levels: list[Any], players: int, join: bool = True, private: bool = False
) -> list[int]:
    """The bots asked for at creation: levels 1..6 (a level may come again), at most
    players - 1 (all the seats when the creator does not join: a game of bots only,
    public)."""
    checked = [check_level(level) for level in levels]
    if join and len(checked) > players - 1:
        raise Unprocessable(
            "too_many_bots",
            f"a {players}-player game has room for {players - 1} bots beside its creator",
        )
    if not join and len(checked) != players:
        raise Unprocessable(
            "bots_only_needs_every_seat",
            f"a game of bots only (join: false) needs {players} bots, one per seat",
        )
    if not join and private:
        raise Unprocessable(
            "bots_only_game_private",
            "a game of bots only is public (its creator watches it as a spectator)",
        )
    return checked


def _bot_key(key: str, index: int) -> str:
    """The idempotency key of the `index`th bot seated at a creation with `key`."""
    return f"bot{index}:" + hashlib.sha256(str(key).encode()).hexdigest()[:40]


async def create_with_bots(
    ctx: ServiceContext,
    user: CurrentUser,
    options: GameOptions,
    levels: list[Any],
    key: str | None = None,
    join: bool = True,
) -> WriteResult:
    """Create a game and seat the bots of `levels` in it (checked before anything is
    written); without `join` the creator takes no seat: the bots fill every one. Answers
    with the game as the last write left it."""
    players = 2 if options.players is None else options.players
    checked = check_bot_levels(levels, players, join, bool(options.private))
    if not join:  # the creator takes no seat (at most MAX_BOTS_ONLY_GAMES such games)
        options = replace(options, bots_only=True)
    result = await create_game(ctx, user, options, key)
    game_id = int(result.body["id"])
    for index, level in enumerate(checked):
        seated = await seat_bot(
            ctx, user, game_id, level, key=None if key is None else _bot_key(key, index)
        )
        result = WriteResult(result.status, seated.body, [*result.events, *seated.events])
    return result
