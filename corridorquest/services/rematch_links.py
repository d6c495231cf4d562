"""Which game is a finished game's rematch (services/rematch.py), inside a transaction.

A finished game has at most one rematch at a time: the game one of its players made by
asking to play it again, while that game waits for its players or is played. Once it
is over (finished or cancelled), the next ask makes a new one.
"""

from __future__ import annotations

from typing import Any

from corridorquest.services.errors import Conflict
from corridorquest.store import fast
from corridorquest.store.models import Game, GamePlayer, GameRematch, User

OPEN = ("waiting", "started")


class RematchExists(Conflict):
    """409 `rematch_exists`: another player asked first (`rematch_id`: its game)."""

    def __init__(self, game_id: int, rematch_id: int) -> None:
        super().__init__(
            "rematch_exists",
            f"game {game_id} has a rematch already: game {rematch_id}",
            rematch_id=rematch_id,
        )


def open_rematch(game_id: int) -> Game | None:
    """The rematch of game `game_id` while it waits for its players or is played."""
    # Asked by every finished game's view, the finishing move's answer among them: one
    # statement built once (`fast`), not peewee's query builder (about 1 ms a query).
    found = fast.select(Game, _OPEN_REMATCH, (game_id, *OPEN))
    return found[0] if found else None


_OPEN_REMATCH = (
    f't."id" = (SELECT "rematch_id" FROM {fast.table(GameRematch)} WHERE "game_id" = ?)'
    f' AND t."status" IN ({", ".join("?" for _ in OPEN)})'
)


def rematch_view(game_id: int) -> dict[str, Any] | None:
    """What a finished game's view shows of its rematch (None: none waits or is played):
    its id, status, admin (who asked for it) and the players who have joined it."""
    found = open_rematch(game_id)
    if found is None:
        return None
    joined = (
        User.select(User.username)
        .join(GamePlayer, on=(GamePlayer.user == User.id))
        .where(GamePlayer.game == found.id)
        .order_by(GamePlayer.join_order)
    )
    admin = User.select(User.username).where(User.id == found.admin_id).scalar()
    return {
        "id": found.id,
        "status": found.status,
        "admin": admin,
        "players": [u.username for u in joined],
    }


def link(game_id: int, rematch_id: int) -> None:
    """Record game `rematch_id` as the rematch of `game_id` (in the rematch's creation),
    in place of one that is over or started without its asker; `RematchExists` when
    `game_id` has one waiting for players (asked for meanwhile: the asker joins it)."""
    existing = open_rematch(game_id)
    if existing is not None and existing.status == "waiting":
        raise RematchExists(game_id, existing.id)
    GameRematch.delete().where(GameRematch.game == game_id).execute()
    GameRematch.create(game=game_id, rematch=rematch_id)
