"""Markers (SPEC §4): a player's private notes of where opponents' invisible walls are.

- Only in a started invisible-walls game (409 `game_not_invisible`, `game_not_started`,
  `game_finished`, `game_cancelled`), only by its players (403 `not_a_player`), at any
  time (not only on one's turn), as many as one likes.
- Not on one's own wall (422 `marker_on_own_wall`); placing a wall removes one's markers
  under it (`remove_under_wall`, called by play in the same transaction).
- Marking a marked edge is 409 `already_marked`; unmarking an unmarked one is 404
  `marker_not_found`. A refused request changes nothing.
- Markers are notes, not game changes: they do not bump the game's revision (that would
  tell the opponents that someone is taking notes) and create no message. Their one
  event, `MarkersChanged`, updates the owner's own live streams and nobody else's.
- Visible to their owner only during play; to everyone once the game is finished.
"""

from __future__ import annotations

from typing import Any

from corridorquest.engine import NotationError, Seat, Wall, parse_marker
from corridorquest.events import MarkersChanged
from corridorquest.services.auth import CurrentUser
from corridorquest.services.context import ServiceContext
from corridorquest.services.errors import Conflict, NotFound, Unprocessable
from corridorquest.services.game_access import (
    LoadedGame,
    load_visible,
    require_player,
    require_status,
)
from corridorquest.services.game_views import game_view, markers_of, visibility_for
from corridorquest.services.unit_of_work import GameWrite, write_game
from corridorquest.services.visibility import covered_markers
from corridorquest.store import IntegrityError
from corridorquest.store.models import GameMarker


def _writable(loaded: LoadedGame, user: CurrentUser, text: str) -> tuple[Seat, str]:
    """Check who and when; the canonical notation of the marker and the caller's seat."""
    player = require_player(loaded, user)
    require_status(loaded, "started")
    game = loaded.game
    if not game.invisible:
        raise Conflict(
            "game_not_invisible",
            f"game {game.id} does not have invisible walls: markers are only used there",
        )
    try:
        marker = parse_marker(text, game.size)
    except NotationError as error:
        raise Unprocessable("invalid_notation", str(error)) from None
    assert player.seat
    return Seat(player.seat), str(marker)


async def mark(
    ctx: ServiceContext, user: CurrentUser, game_id: int, text: str
) -> dict[str, Any]:
    """Place a marker; answers with the game as the caller sees it."""

    def place(work: GameWrite) -> tuple[int, dict[str, Any]]:
        loaded = work.loaded
        seat, notation = _writable(loaded, user, text)
        state = loaded.state
        assert state is not None
        own_walls = [wall for wall, owner in state.walls if owner is seat]
        if covered_markers([notation], own_walls, loaded.game.size):
            raise Unprocessable(
                "marker_on_own_wall", f"{notation}: that edge is one of your own walls"
            )
        exists = GameMarker.get_or_none(
            (GameMarker.game == game_id)
            & (GameMarker.user == user.id)
            & (GameMarker.notation == notation)
        )
        if exists is not None:
            raise Conflict("already_marked", f"{notation}: you have already marked that edge")
        try:
            GameMarker.create(game=game_id, user=user.id, notation=notation)
        except IntegrityError:
            raise Conflict(
                "already_marked", f"{notation}: you have already marked that edge"
            ) from None
        work.emit(MarkersChanged(game_id, loaded.game.revision, user.id))
        return 200, game_view(loaded, user.id)

    return (await write_game(ctx, user, None, "mark", game_id, place)).body


async def unmark(
    ctx: ServiceContext, user: CurrentUser, game_id: int, text: str
) -> dict[str, Any]:
    """Remove one of the caller's markers; answers with the game as the caller sees it."""

    def remove(work: GameWrite) -> tuple[int, dict[str, Any]]:
        loaded = work.loaded
        _, notation = _writable(loaded, user, text)
        removed = (
            GameMarker.delete()
            .where(
                (GameMarker.game == game_id)
                & (GameMarker.user == user.id)
                & (GameMarker.notation == notation)
            )
            .execute()
        )
        if not removed:
            raise NotFound("marker_not_found", f"{notation}: you have no marker there")
        work.emit(MarkersChanged(game_id, loaded.game.revision, user.id))
        return 200, game_view(loaded, user.id)

    return (await write_game(ctx, user, None, "unmark", game_id, remove)).body


async def list_markers(
    ctx: ServiceContext, user: CurrentUser, game_id: int, invitation_code: str | None = None
) -> list[dict[str, Any]]:
    """The markers the caller may see: its own during play, everyone's once finished."""

    def read() -> list[dict[str, Any]]:
        loaded = load_visible(game_id, user, invitation_code)
        return markers_of(loaded, visibility_for(loaded, user.id))

    return await ctx.store.transaction(read)


def remove_under_wall(game_id: int, user_id: int, wall: Wall, size: int) -> int:
    """Inside play's transaction: drop the player's markers under its new wall."""
    rows = list(
        GameMarker.select(GameMarker.id, GameMarker.notation).where(
            (GameMarker.game == game_id) & (GameMarker.user == user_id)
        )
    )
    covered = set(covered_markers([row.notation for row in rows], [wall], size))
    ids = [row.id for row in rows if row.notation in covered]
    if not ids:
        return 0
    return int(GameMarker.delete().where(GameMarker.id.in_(ids)).execute())
