"""Game analyses (SPEC §16; migration 19)."""

from __future__ import annotations

import peewee as pw

from corridorquest.store.models.base import BaseModel, utcnow
from corridorquest.store.models.games import Game


class GameAnalysis(BaseModel):
    """The analysis of one finished game (`corridorquest.analysis`), computed once in a
    worker process: `pending` from the request until it is stored, then `done` with its
    rows (JSON: one object per ply), or `failed` with the error (a new request retries)."""

    game_id: int
    game = pw.ForeignKeyField(Game, backref="+", on_delete="CASCADE", unique=True)
    status = pw.CharField(max_length=8)  # pending | done | failed
    level = pw.IntegerField()  # the bot level of the best actions
    plies = pw.TextField(null=True)  # JSON list, once done
    error = pw.TextField(null=True)
    requested_at = pw.DateTimeField(default=utcnow)
    computed_at = pw.DateTimeField(null=True)

    class Meta:
        table_name = "game_analysis"
