"""Games and what they hold: players, actions, markers, wall offers, messages and mutes."""

from __future__ import annotations

import peewee as pw

from corridorquest.store.models.accounts import User
from corridorquest.store.models.base import BaseModel, utcnow


class Game(BaseModel):
    admin_id: int
    winner_id: int | None
    turn_user_id: int | None
    status = pw.CharField(max_length=16, default="waiting", index=True)
    size = pw.IntegerField(default=9)
    players = pw.IntegerField(default=2)
    masked = pw.BooleanField(default=False)
    invisible = pw.BooleanField(default=False)
    private = pw.BooleanField(default=False)
    invitation_code = pw.CharField(max_length=64, null=True, unique=True)
    admin = pw.ForeignKeyField(User, backref="administered_games", on_delete="CASCADE")
    seed = pw.BigIntegerField()
    state = pw.TextField(null=True)  # engine GameState.to_dict() as JSON once started
    revision = pw.IntegerField(default=1)
    winner = pw.ForeignKeyField(User, null=True, backref="won_games", on_delete="SET NULL")
    turn_user = pw.ForeignKeyField(User, null=True, backref="+", on_delete="SET NULL")
    turn_since = pw.DateTimeField(null=True)
    reminded_at = pw.DateTimeField(null=True)
    cancel_reason = pw.TextField(null=True)
    created_at = pw.DateTimeField(default=utcnow)
    started_at = pw.DateTimeField(null=True)
    finished_at = pw.DateTimeField(null=True)
    cancelled_at = pw.DateTimeField(null=True)
    # a game imported from a record (migration 18): its record's tags as JSON (the
    # players' names as text, not accounts); None for a game played here
    imported = pw.TextField(null=True)
    # whether its finish rated it (migration 26; SPEC §14): True, its players' ratings
    # moved; False, unrated (a guest played, an imported game...); None until it finishes.
    # `rerate` follows it: a guest converted to an account later does not make its old
    # games rated.
    rated = pw.BooleanField(null=True)


class GameRematch(BaseModel):
    """A finished game's rematch (services/rematch.py): the game made when one of its
    players asked to play it again, while it waits for the others or is played. Another
    player's ask joins that game instead of making a second one."""

    game_id: int
    rematch_id: int
    game = pw.ForeignKeyField(Game, primary_key=True, backref="+", on_delete="CASCADE")
    rematch = pw.ForeignKeyField(Game, backref="+", on_delete="CASCADE")


class GamePlayer(BaseModel):
    game_id: int
    user_id: int
    game = pw.ForeignKeyField(Game, backref="player_rows", on_delete="CASCADE")
    user = pw.ForeignKeyField(User, backref="game_rows", on_delete="CASCADE")
    join_order = pw.IntegerField()
    seat = pw.CharField(max_length=8, null=True)  # north|east|south|west once started
    score = pw.IntegerField(null=True)
    trade_balance = pw.IntegerField(default=0)
    joined_at = pw.DateTimeField(default=utcnow)

    class Meta:
        indexes = ((("game", "user"), True),)


class GameAction(BaseModel):
    game_id: int
    user_id: int
    # No single-column indexes (migration step 5): (game, n) serves every lookup by game,
    # and every index is one more page each move writes.
    game = pw.ForeignKeyField(Game, backref="action_rows", on_delete="CASCADE", index=False)
    n = pw.IntegerField()  # 1-based, in play order
    seat = pw.CharField(max_length=8)
    user = pw.ForeignKeyField(User, backref="+", on_delete="CASCADE", index=False)
    type = pw.CharField(max_length=8)  # move | jump | wall
    notation = pw.CharField(max_length=16)  # canonical: destination square or c3h
    at = pw.DateTimeField(default=utcnow)
    # the game's revision this action made (live streams resume after a revision);
    # None for actions played before migration step 12
    revision = pw.IntegerField(null=True)
    # True: the action's system message ("alice (North) moved to e5") is made from this
    # row when messages are read (`services.move_messages`), no game_message row is
    # written (migration step 24: one row less per move). False: played before step 24,
    # its message is a game_message row; or an imported game's action, which has none.
    # (a default in the schema too: a row written without it is an older kind of action)
    message_derived = pw.BooleanField(default=False, constraints=[pw.SQL("DEFAULT FALSE")])

    class Meta:
        indexes = ((("game", "n"), True),)


class GameMarker(BaseModel):
    """A player's marker (SPEC §4: one edge, e.g. e4v) in an invisible-walls game."""

    game_id: int
    user_id: int
    game = pw.ForeignKeyField(Game, backref="marker_rows", on_delete="CASCADE")
    user = pw.ForeignKeyField(User, backref="+", on_delete="CASCADE")
    notation = pw.CharField(max_length=8)  # canonical: e4v, e4h
    created_at = pw.DateTimeField(default=utcnow)

    class Meta:
        indexes = ((("game", "user", "notation"), True),)



class WallOffer(BaseModel):
    """An offer to buy or sell one wall (SPEC §5); at most one open offer per player per game."""

    game_id: int
    user_id: int
    partner_id: int | None
    traded_with_id: int | None
    game = pw.ForeignKeyField(Game, backref="offer_rows", on_delete="CASCADE")
    user = pw.ForeignKeyField(User, backref="+", on_delete="CASCADE")
    mode = pw.CharField(max_length=8)  # buying | selling
    partner = pw.ForeignKeyField(User, null=True, backref="+", on_delete="CASCADE")
    status = pw.CharField(max_length=12, default="open")  # open | withdrawn | traded
    traded_with = pw.ForeignKeyField(User, null=True, backref="+", on_delete="SET NULL")
    created_at = pw.DateTimeField(default=utcnow)
    closed_at = pw.DateTimeField(null=True)
    # the number of game actions played when it was traded: the board at an earlier action
    # counts exactly the trades made by then (timestamps have whole seconds only)
    closed_after_action = pw.IntegerField(null=True)

    class Meta:
        indexes = ((("game", "user", "status"), False),)


class GameMessage(BaseModel):
    """A game message (SPEC §8): a system message, a player's broadcast or a DM.

    `recipient` set: only the sender and the recipient read it (a DM, or a system message
    about a private offer). `detail` set: the sender (and everyone once the game is
    finished) reads `detail` instead of `text` (an invisible wall's square).

    A system message's `text` and `detail` name users by id, `{user:12}`, with literal
    braces doubled (`services.user_refs`; migration step 8): readers see the current
    usernames. A player's message is its author's words, stored and shown as written.
    Readers never see the row id: they see their own numbering (`services.messages`).
    """

    game_id: int
    sender_id: int | None
    recipient_id: int | None
    # One index (migration steps 5 and 13): every index is one more page each move's
    # system message writes. (game, id) serves every lookup by game, and a live stream's
    # "this game's messages after row N" as a range (a live update of a game with
    # hundreds of messages read the game's whole index before).
    game = pw.ForeignKeyField(Game, backref="message_rows", on_delete="CASCADE", index=False)
    kind = pw.CharField(max_length=8)  # system | player
    sender = pw.ForeignKeyField(
        User, null=True, backref="+", on_delete="CASCADE", index=False
    )
    recipient = pw.ForeignKeyField(
        User, null=True, backref="+", on_delete="CASCADE", index=False
    )
    text = pw.TextField()
    detail = pw.TextField(null=True)
    at = pw.DateTimeField(default=utcnow)
    # the game's revision when it was written (migration step 24): it comes after the
    # messages made from the actions up to that revision (`services.move_messages`);
    # None for a message written before step 24 (before every message made from an action)
    revision = pw.IntegerField(null=True)

    class Meta:
        indexes = ((("game", "id"), False),)


class MessageMute(BaseModel):
    """`user` does not want to read `muted`'s messages in `game`."""

    game_id: int
    user_id: int
    muted_id: int
    game = pw.ForeignKeyField(Game, backref="+", on_delete="CASCADE")
    user = pw.ForeignKeyField(User, backref="+", on_delete="CASCADE")
    muted = pw.ForeignKeyField(User, backref="+", on_delete="CASCADE")

    class Meta:
        indexes = ((("game", "user", "muted"), True),)
