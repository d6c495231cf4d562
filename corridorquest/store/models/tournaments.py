"""Tournaments (SPEC §15, issue 30; migration 21): the tournament, its entrants, rounds and
games."""

from __future__ import annotations

import peewee as pw

from corridorquest.store.models.accounts import User
from corridorquest.store.models.base import BaseModel, utcnow
from corridorquest.store.models.games import Game


class Tournament(BaseModel):
    """A tournament: its admin (who created it), kind, variant, and where it stands:
    `entering` (players enter and leave), `started` (round `round` is being played),
    `finished`. `rounds`: Swiss, as asked; round robins, set at the start."""

    admin_id: int
    name = pw.CharField(max_length=80)
    kind = pw.CharField(max_length=24)  # round_robin | double_round_robin | swiss
    rounds = pw.IntegerField(null=True)
    size = pw.IntegerField(default=9)
    players = pw.IntegerField(default=2)  # per game: 2, or 4 (tables of four)
    masked = pw.BooleanField(default=False)
    invisible = pw.BooleanField(default=False)
    status = pw.CharField(max_length=16, default="entering", index=True)
    round = pw.IntegerField(default=0)  # the round being played (0: not started)
    admin = pw.ForeignKeyField(User, backref="+", on_delete="CASCADE")
    created_at = pw.DateTimeField(default=utcnow)
    started_at = pw.DateTimeField(null=True)
    finished_at = pw.DateTimeField(null=True)


class TournamentEntrant(BaseModel):
    """A player (or bot) entered in a tournament; `withdrawn_at` once withdrawn or removed
    after the start (before it, leaving deletes the row)."""

    tournament_id: int
    user_id: int
    tournament = pw.ForeignKeyField(Tournament, backref="+", on_delete="CASCADE")
    user = pw.ForeignKeyField(User, backref="+", on_delete="CASCADE")
    entered_at = pw.DateTimeField(default=utcnow)
    withdrawn_at = pw.DateTimeField(null=True)

    class Meta:
        table_name = "tournament_entrant"
        indexes = ((("tournament", "user"), True),)


class TournamentRound(BaseModel):
    """One round, made once: (tournament, number) is unique, so two processes cannot make
    the same round twice. `byes`: JSON list of the user ids who sat out (a point each)."""

    tournament_id: int
    tournament = pw.ForeignKeyField(Tournament, backref="+", on_delete="CASCADE")
    number = pw.IntegerField()
    byes = pw.TextField(default="[]")
    started_at = pw.DateTimeField(default=utcnow)

    class Meta:
        table_name = "tournament_round"
        indexes = ((("tournament", "number"), True),)


class TournamentGame(BaseModel):
    """A table of a round: its players (JSON list of user ids, the first moves first), its
    game (None when no game was played: a forfeit, or the game was purged), and, once
    settled, its result: the winner, the scores (JSON, user id -> score) and who forfeited
    (JSON list). The result is copied here so that it outlives the game's row."""

    tournament_id: int
    game_id: int | None
    tournament = pw.ForeignKeyField(Tournament, backref="+", on_delete="CASCADE")
    round = pw.IntegerField()
    board = pw.IntegerField()
    game = pw.ForeignKeyField(Game, null=True, unique=True, backref="+", on_delete="SET NULL")
    players = pw.TextField()
    settled = pw.BooleanField(default=False)
    winner = pw.IntegerField(null=True)
    scores = pw.TextField(default="{}")
    forfeited = pw.TextField(default="[]")

    class Meta:
        table_name = "tournament_game"
        indexes = ((("tournament", "round", "board"), True),)
