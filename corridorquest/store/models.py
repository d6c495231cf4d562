"""Every table of the server, as peewee models bound to `database` (a proxy).

Users are referenced by id everywhere (usernames change, SPEC §7). Timestamps are naive
UTC datetimes (`utcnow()`). A new table or column needs a migration step in
`migrations.py`; never edit a released step.
"""

from __future__ import annotations

import time
from datetime import UTC, datetime

import peewee as pw

database = pw.DatabaseProxy()

# A unique constraint lost a race (services catch it without importing peewee).
IntegrityError = pw.IntegrityError


_now_cache: tuple[int, datetime] = (-1, datetime.min)


def utcnow() -> datetime:
    """Now, as the naive UTC datetime (whole seconds) every table stores.

    One datetime per second, shared (datetimes are immutable): a move asks for the time
    several times, and building it each time cost a few microseconds.
    """
    global _now_cache
    second = int(time.time())
    cached_second, moment = _now_cache
    if second != cached_second:
        moment = datetime.fromtimestamp(second, UTC).replace(tzinfo=None)
        _now_cache = (second, moment)
    return moment


class BaseModel(pw.Model):
    class Meta:
        database = database
        legacy_table_names = False


class User(BaseModel):
    username = pw.CharField(max_length=32, unique=True)
    email = pw.CharField(max_length=254, unique=True)
    password_hash = pw.CharField(max_length=255)
    description = pw.CharField(max_length=100, default="")
    is_admin = pw.BooleanField(default=False)
    theme = pw.CharField(max_length=16, default="dark")
    notify_turn = pw.BooleanField(default=True)
    notify_action = pw.BooleanField(default=False)
    notify_game = pw.BooleanField(default=True)
    ntfy_dm_topic = pw.CharField(max_length=64, null=True)
    notify_digest = pw.BooleanField(default=False)  # one daily mail instead of one per event
    digest_sent_at = pw.DateTimeField(null=True)
    verified = pw.BooleanField(default=False)
    locked = pw.BooleanField(default=False)
    created_at = pw.DateTimeField(default=utcnow)
    password_changed_at = pw.DateTimeField(default=utcnow)
    # a bot (SPEC §13): its level 1..6; None for a person (migration step 16)
    bot_level = pw.IntegerField(null=True)
    # a guest (GUESTS=on): no e-mail, no password, its session bound to one browser; never
    # rated, purged after GUEST_PURGE_AFTER without play (migration step 20)
    guest = pw.BooleanField(default=False)

    @classmethod
    def find_by_name(cls, username: str) -> User | None:
        """The user with this username, compared without regard to case."""
        return cls.get_or_none(pw.fn.LOWER(cls.username) == username.lower())

    @classmethod
    def find_by_email(cls, email: str) -> User | None:
        """The user with this e-mail address, compared without regard to case."""
        return cls.get_or_none(pw.fn.LOWER(cls.email) == email.lower())


class Session(BaseModel):
    user_id: int
    token_hash = pw.CharField(max_length=128, unique=True)
    user = pw.ForeignKeyField(User, backref="sessions", on_delete="CASCADE")
    created_at = pw.DateTimeField(default=utcnow)
    last_seen_at = pw.DateTimeField(default=utcnow)
    expires_at = pw.DateTimeField()


class Verification(BaseModel):
    user_id: int
    token_hash = pw.CharField(max_length=128, unique=True)
    user = pw.ForeignKeyField(User, backref="verifications", on_delete="CASCADE")
    purpose = pw.CharField(max_length=16)  # signup | password | email
    code_hash = pw.CharField(max_length=255)
    new_value = pw.TextField(null=True)  # the new password hash or e-mail address
    attempts = pw.IntegerField(default=0)
    created_at = pw.DateTimeField(default=utcnow)
    expires_at = pw.DateTimeField()


class LoginAttempt(BaseModel):
    """One failed (or successful) login, for the per-user and per-address rate limits;
    `checking` while its password is being checked (it holds a slot of the limits)."""

    username = pw.CharField(max_length=64, index=True)
    address = pw.CharField(max_length=64, index=True)
    succeeded = pw.BooleanField(default=False)
    checking = pw.BooleanField(default=False)
    at = pw.DateTimeField(default=utcnow, index=True)


class PasswordRequest(BaseModel):
    """A password-change code sent (no login needed), for the per-account and per-address
    rate limits of such requests."""

    user_id: int
    user = pw.ForeignKeyField(User, backref="+", on_delete="CASCADE")
    address = pw.CharField(max_length=64, index=True)
    at = pw.DateTimeField(default=utcnow, index=True)


class SignupRequest(BaseModel):
    """A signup code sent, with the client address that asked, for the per-address limit
    of signups."""

    address = pw.CharField(max_length=64, index=True)
    at = pw.DateTimeField(default=utcnow, index=True)


class InvitationMail(BaseModel):
    """Invitation e-mails a user had sent (one row per invitation, with how many), for
    the per-user hourly limit of invitation mails."""

    user_id: int
    user = pw.ForeignKeyField(User, backref="+", on_delete="CASCADE")
    mails = pw.IntegerField()
    at = pw.DateTimeField(default=utcnow, index=True)


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


class IdempotentResponse(BaseModel):
    """The first answer to a write that carried an Idempotency-Key, per user."""

    user_id: int
    user = pw.ForeignKeyField(User, backref="+", on_delete="CASCADE")
    key = pw.CharField(max_length=255)
    scope = pw.CharField(max_length=255)  # method and path of the first request
    status = pw.IntegerField()
    body = pw.TextField()  # JSON
    created_at = pw.DateTimeField(default=utcnow, index=True)

    class Meta:
        indexes = ((("user", "key"), True),)


class ServerValue(BaseModel):
    """Server-wide values an administrator changes at run time (MOTD, message limit)."""

    key = pw.CharField(max_length=64, primary_key=True)
    value = pw.TextField()


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


class OutboxItem(BaseModel):
    """The durable outbox (store/outbox.py): an event whose notifications are still to be
    worked out (kind `event`, written in the transaction of the change), or one e-mail or
    ntfy message to deliver (kind `mail` / `ntfy`), kept a while after delivery."""

    kind = pw.CharField(max_length=8)  # event | mail | ntfy
    payload = pw.TextField()  # JSON
    created_at = pw.DateTimeField()
    due_at = pw.DateTimeField()  # the next attempt
    attempts = pw.IntegerField(default=0)
    claimed_until = pw.DateTimeField(null=True)  # a worker is delivering it until then
    done_at = pw.DateTimeField(null=True)  # delivered, or given up (`failed`)
    failed = pw.BooleanField(default=False)
    error = pw.TextField(null=True)  # the last delivery error

    class Meta:
        table_name = "outbox"
        # every query of the worker: one kind, not done, by due time (store/outbox.py)
        indexes = ((("kind", "done_at", "due_at"), False),)


class AdminAction(BaseModel):
    """The audit log: one row per system administrator's action (services/admin_audit.py),
    written in the transaction of the action. `admin_name` keeps the name the admin had
    then; `target` names what was acted on ("user alice", "game 12", "server")."""

    admin_id: int | None
    admin = pw.ForeignKeyField(User, null=True, backref="+", on_delete="SET NULL")
    admin_name = pw.CharField(max_length=32)
    action = pw.CharField(max_length=32)
    target = pw.CharField(max_length=128, null=True)
    detail = pw.TextField(null=True)
    at = pw.DateTimeField(default=utcnow, index=True)

    class Meta:
        table_name = "admin_audit"


class SchemaVersion(BaseModel):
    version = pw.IntegerField(primary_key=True)
    description = pw.TextField()
    applied_at = pw.DateTimeField(default=utcnow)


ALL_MODELS: list[type[BaseModel]] = [
    User,
    Session,
    Verification,
    LoginAttempt,
    Game,
    GamePlayer,
    GameAction,
    GameMarker,
    IdempotentResponse,
    ServerValue,
    WallOffer,
    GameMessage,
    MessageMute,
    PasswordRequest,
    InvitationMail,
    OutboxItem,
    AdminAction,
    SignupRequest,
]


# --- ratings (SPEC §14; migration 17) ----------------------------------------------------

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


ALL_MODELS += [UserRating, GameRating]


# --- game analyses (SPEC §16; migration 19) ------------------------------------------------

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


ALL_MODELS += [GameAnalysis]


# --- tournaments (SPEC §15, issue 30; migration 21) -----------------------------------------

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


ALL_MODELS += [Tournament, TournamentEntrant, TournamentRound, TournamentGame]
