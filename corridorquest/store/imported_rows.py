"""What one user's imported games take (services/record_import.py's limits): how many
they imported lately, and how many actions their imported games keep."""

from __future__ import annotations

from datetime import datetime

import peewee as pw

from corridorquest.store.models import Game, GameAction


def _imported_by(user_id: int) -> pw.Expression:
    return (Game.admin == user_id) & Game.imported.is_null(False)


def imported_since(user_id: int, since: datetime) -> list[datetime]:
    """When the user's imported games made since `since` were created, oldest first."""
    query = (
        Game.select(Game.created_at)
        .where(_imported_by(user_id) & (Game.created_at > since))
        .order_by(Game.created_at)
    )
    return [row.created_at for row in query]


def imported_actions(user_id: int) -> int:
    """The actions of every game the user imported that the server keeps."""
    query = (
        GameAction.select(pw.fn.COUNT(GameAction.id))
        .join(Game, on=(GameAction.game == Game.id))
        .where(_imported_by(user_id))
    )
    return int(query.scalar() or 0)
