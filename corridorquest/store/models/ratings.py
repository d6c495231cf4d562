"""Ratings (SPEC §14; migration 17): each user's rating per pool, and what each rated game
changed."""

from __future__ import annotations

import peewee as pw

from corridorquest.store.models.accounts import User
from corridorquest.store.models.base import BaseModel
from corridorquest.store.models.games import Game


class UserRating(BaseModel):
    """A user's rating in one pool ('2p': Glicko-2; '4p': openskill's Plackett-Luce, with
    `rating` its mu and `deviation` its sigma, no volatility). No row: never rated."""

    user_id: int
    user = pw.ForeignKeyField(User, backref="+", on_delete="CASCADE")
    pool = pw.CharField(max_length=4)
    rating = pw.DoubleField()
    deviation = pw.DoubleField()
    volatility = pw.DoubleField(null=True)
    games = pw.IntegerField(default=0)
    last_played_at = pw.DateTimeField()  # the finish of the last rated game

    class Meta:
        table_name = "user_rating"
        indexes = ((("user", "pool"), True), (("pool", "rating"), False))


class GameRating(BaseModel):
    """One player's rating before and after one finished game: written in the transaction
    of the finish, once (unique per game and user). `id` orders the updates."""

    game_id: int
    user_id: int
    game = pw.ForeignKeyField(Game, backref="+", on_delete="CASCADE")
    user = pw.ForeignKeyField(User, backref="+", on_delete="CASCADE")
    pool = pw.CharField(max_length=4)
    rating_before = pw.DoubleField()
    deviation_before = pw.DoubleField()  # as grown for inactivity, before the game
    volatility_before = pw.DoubleField(null=True)
    rating_after = pw.DoubleField()
    deviation_after = pw.DoubleField()
    volatility_after = pw.DoubleField(null=True)
    at = pw.DateTimeField()  # the game's finish

    class Meta:
        table_name = "game_rating"
        indexes = ((("game", "user"), True), (("user", "pool", "id"), False))
