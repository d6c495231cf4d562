"""Which server process computes a bot's move (issue 48 item 14; migration 27)."""

from __future__ import annotations

import peewee as pw

from corridorquest.store.models.base import BaseModel
from corridorquest.store.models.games import Game


class BotTurnClaim(BaseModel):
    """The claim of one server process on computing the bot move at `revision` of a game,
    until `until` (a lease: a process that dies leaves a claim that runs out). One row per
    game, taken over by the next turn's claim."""

    game_id: int
    game = pw.ForeignKeyField(Game, primary_key=True, backref="+", on_delete="CASCADE")
    revision = pw.IntegerField()
    owner = pw.CharField(max_length=80)  # the claiming driver (host, process id, a token)
    until = pw.DateTimeField()

    class Meta:
        table_name = "bot_turn_claim"
