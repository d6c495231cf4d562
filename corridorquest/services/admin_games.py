"""What system administrators do to games: list and show every game (private ones too),
cancel one, remove a player.

The writes go through `unit_of_work.system_write_game`, as the server's own writes do: one
transaction with the game's revision moved on, its system messages and its events (the
notifications follow as for any write), and the audit row (`admin_audit.record`).

Removing a player from a waiting game frees the seat (the other players see "X left the
game"); removing the game admin of a waiting game, or a player of a started game,
cancels the game with a system message saying that an administrator removed the player.
"""

from __future__ import annotations

from typing import Any

from corridorquest.events import Event, PlayerLeft
from corridorquest.services.admin_audit import record, require_admin
from corridorquest.services.auth import CurrentUser
from corridorquest.services.context import ServiceContext
from corridorquest.services.errors import NotFound, Unprocessable
from corridorquest.services.game_access import LoadedGame, load_game, require_status
from corridorquest.services.game_list import GameFilter, list_games
from corridorquest.services.game_views import game_view
from corridorquest.services.games import cancel_game
from corridorquest.services.sessions import find_user
from corridorquest.services.unit_of_work import GameWrite, system_write_game
from corridorquest.services.user_refs import literal

CANCELLED = "an administrator cancelled the game"


def admin_view(loaded: LoadedGame, admin: CurrentUser) -> dict[str, Any]:
    """The game as a spectator sees it, with its invitation code."""
    return {**game_view(loaded, admin.id), "invitation_code": loaded.game.invitation_code}


async def list_all(
    ctx: ServiceContext, current: CurrentUser, filters: GameFilter
) -> list[dict[str, Any]]:
    """Every game that matches the filters (`cq game list`'s), private ones too."""
    require_admin(current, "list every game")
    return await list_games(ctx, current, filters)


async def show(ctx: ServiceContext, current: CurrentUser, game_id: int) -> dict[str, Any]:
    require_admin(current, "inspect games")
    return await ctx.store.transaction(lambda: admin_view(load_game(game_id), current))


def cancel_in_transaction(
    loaded: LoadedGame, admin: CurrentUser | None, reason: str, events: list[Event]
) -> None:
    """Cancel a waiting or started game (its revision moves on); inside a transaction."""
    game = loaded.game
    game.revision += 1
    events.append(cancel_game(loaded, admin, reason))
    game.save()


def remove_in_transaction(
    loaded: LoadedGame, admin: CurrentUser | None, user_id: int, reason: str, events: list[Event]
) -> str:
    """Take user `user_id` out of a waiting or started game: the seat is freed (a waiting
    game, not its game admin), else the game is cancelled with `reason`. Answers "left"
    or "cancelled"."""
    game = loaded.game
    player = loaded.player_of(user_id)
    assert player is not None
    if game.status == "waiting" and game.admin_id != user_id:
        game.revision += 1
        player.delete_instance()
        loaded.players = [p for p in loaded.players if p.user_id != user_id]
        events.append(PlayerLeft(game_id=game.id, revision=game.revision, user_id=user_id))
        game.save()
        return "left"
    cancel_in_transaction(loaded, admin, reason, events)
    return "cancelled"


async def cancel(ctx: ServiceContext, current: CurrentUser, game_id: int) -> dict[str, Any]:
    """Cancel a waiting or started game; the players read that an administrator did."""
    require_admin(current, "cancel games")

    def cancel_it(work: GameWrite) -> dict[str, Any]:
        loaded = work.loaded
        require_status(loaded, "waiting", "started")
        was = loaded.game.status
        cancel_in_transaction(loaded, current, CANCELLED, work.events)
        record(current, "game.cancel", f"game {game_id}", f"was {was}")
        return admin_view(loaded, current)

    return await system_write_game(ctx, game_id, cancel_it)


async def remove_player(
    ctx: ServiceContext, current: CurrentUser, game_id: int, username: str
) -> dict[str, Any]:
    """Remove `username` from a waiting (seat freed) or started (game cancelled) game."""
    require_admin(current, "remove players")

    def remove(work: GameWrite) -> dict[str, Any]:
        loaded = work.loaded
        user = find_user(username)
        if user is None:
            raise NotFound("user_not_found", f"no user {username!r}")
        if not loaded.is_player(user.id):
            raise Unprocessable(
                "not_a_player", f"{user.username} is not a player of game {game_id}"
            )
        require_status(loaded, "waiting", "started")
        reason = f"an administrator removed {literal(user.username)}"
        outcome = remove_in_transaction(loaded, current, user.id, reason, work.events)
        record(current, "player.remove", f"game {game_id}", f"{user.username}: {outcome}")
        return {"outcome": outcome, "game": admin_view(loaded, current)}

    return await system_write_game(ctx, game_id, remove)
