"""Rematch (as on lichess): after a finished game, one of its players starts the same
game again: same size, players, modes and privacy, the same bots seated, the other
people invited (an invitation, by e-mail and ntfy as they chose). The caller is the new
game's admin and first player; a game of bots only is played again by its bots, its
admin watching (the admin of such a game may ask for its rematch).

One rematch at a time (services/rematch_links.py): when another player of the finished
game asked first and its rematch still waits for players, the ask joins that game
instead of making a second one (so two players who both press "Rematch" meet in one
game); when the caller plays in the rematch already (it asked before, or joined), the
answer is that game, and nothing is written. A rematch that is over, or that started
without the caller (a public game somebody else joined), does not count: the ask makes a
new one.

Refused, with nothing made: a game the caller cannot see (404 `game_not_found`), a game
imported from a record (409 `imported_game_has_no_rematch`: its players are the record's
names, not accounts, so nobody can be seated or invited again), a caller who did not play
in it (403 `not_a_player`), a game that is not finished (409 `game_not_finished`). The
new game is made by `bot_seats.create_with_bots` (or `games.create_game`), so the
creation's own checks (waiting games per user, invitation mails per hour) apply, and an
idempotency key makes a retry answer the same game.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass

from corridorquest.services import bot_seats, games, rematch_links
from corridorquest.services.auth import CurrentUser
from corridorquest.services.context import ServiceContext
from corridorquest.services.errors import Conflict, Forbidden
from corridorquest.services.game_access import load_visible
from corridorquest.services.games import GameOptions
from corridorquest.services.rematch_links import RematchExists
from corridorquest.services.unit_of_work import WriteResult
from corridorquest.store.models import GamePlayer, IntegrityError


@dataclass(frozen=True)
class _Again:
    options: GameOptions
    levels: list[int]
    join: bool
    rematch: int | None = None  # its rematch that waits for players, or the caller plays
    playing: bool = False  # the caller plays in `rematch` (or, of bots only, watches it)
    code: str | None = None  # `rematch`'s invitation code (the caller is invited to it)


def _again(game_id: int, user: CurrentUser) -> _Again:
    """What the rematch of `game_id` asked by `user` is (inside a transaction)."""
    loaded = load_visible(game_id, user)
    game = loaded.game
    if game.imported is not None:
        raise Conflict(
            "imported_game_has_no_rematch",
            f"game {game_id} was imported from a record: its players are names, not "
            "accounts, so it has no rematch (start a new game instead)",
        )
    users = [player.user for player in loaded.players]
    bots_only = bool(users) and all(u.bot_level is not None for u in users)
    if loaded.player_of(user.id) is None and not (bots_only and game.admin_id == user.id):
        raise Forbidden("not_a_player", f"you did not play in game {game_id}")
    if game.status != "finished":
        raise Conflict("game_not_finished",
                       f"game {game_id} is {game.status}: a rematch follows a finished game")
    people = [u.username for u in users if u.bot_level is None and u.id != user.id]
    options = GameOptions(
        players=game.players, size=game.size, masked=game.masked,
        invisible=game.invisible, private=game.private, invitees=people,
        rematch_of=game_id,
    )
    levels = sorted(u.bot_level for u in users if u.bot_level is not None)
    again = _Again(options, levels, join=not bots_only)
    found = rematch_links.open_rematch(game_id)
    if found is None:
        return again
    playing = bots_only or (
        GamePlayer.select().where((GamePlayer.game == found.id) & (GamePlayer.user == user.id))
        .exists()
    )
    if found.status != "waiting" and not playing:
        return again  # it started without the caller: a new one
    return dataclasses.replace(
        again, rematch=found.id, playing=playing, code=found.invitation_code
    )


async def rematch(
    ctx: ServiceContext, user: CurrentUser, game_id: int, key: str | None = None
) -> WriteResult:
    """A new game like finished game `game_id`, its bots seated, its people invited; or
    the rematch another player asked for first, joined; or the one the caller plays."""
    try:
        return await _ask(ctx, user, game_id, key)
    except (RematchExists, IntegrityError):
        # another player's ask made the rematch meanwhile: this ask joins it
        return await _ask(ctx, user, game_id, key)


async def _ask(
    ctx: ServiceContext, user: CurrentUser, game_id: int, key: str | None
) -> WriteResult:
    again = await ctx.store.transaction(_again, game_id, user)
    if again.rematch is not None:
        if again.playing:
            return WriteResult(200, await games.show_game(ctx, user, again.rematch))
        return await games.join_game(ctx, user, again.rematch, again.code, key=key)
    if again.levels or not again.join:
        return await bot_seats.create_with_bots(
            ctx, user, again.options, again.levels, key, again.join
        )
    return await games.create_game(ctx, user, again.options, key)
