"""The bodies of the schema steps: tables created, columns added, indexes dropped or made.

Each receives the database inside its step's transaction (see the package docstring).
Steps that change data rather than the schema have modules of their own (rescore.py:
step 7, message_names.py: step 8).
"""

from __future__ import annotations

import peewee as pw

from corridorquest.store.migrations.columns import add_column_if_missing
from corridorquest.store.models import (
    ALL_MODELS,
    AdminAction,
    BotTurnClaim,
    Game,
    GameAnalysis,
    GameMarker,
    GameMessage,
    GameRating,
    GameRematch,
    InvitationMail,
    MessageMute,
    OutboxItem,
    PasswordRequest,
    SignupRequest,
    Tournament,
    TournamentEntrant,
    TournamentGame,
    TournamentRound,
    UserRating,
    WallOffer,
)


def initial_schema(db: pw.Database) -> None:
    db.create_tables(ALL_MODELS, safe=True)


def markers(db: pw.Database) -> None:
    db.create_tables([GameMarker], safe=True)


def trading_and_messages(db: pw.Database) -> None:
    db.create_tables([WallOffer, GameMessage, MessageMute], safe=True)


def offer_action_number(db: pw.Database) -> None:
    add_column_if_missing(db, "wall_offer", "closed_after_action", pw.IntegerField(null=True))


# Indexes that cost a page write on every move and serve no query: the (game, ...)
# composite indexes serve every lookup by game; by user, only the foreign keys' ON DELETE
# would use them, and the only users ever deleted are never-verified signups, who have
# neither actions nor messages.
_MOVE_PATH_INDEXES = (
    "game_action_game_id",
    "game_action_user_id",
    "game_message_game_id",
    "game_message_sender_id",
    "game_message_recipient_id",
)


def drop_move_path_indexes(db: pw.Database) -> None:
    for name in _MOVE_PATH_INDEXES:
        db.execute_sql(f'DROP INDEX IF EXISTS "{name}"')


def password_requests(db: pw.Database) -> None:
    db.create_tables([PasswordRequest], safe=True)


def invitation_mails(db: pw.Database) -> None:
    db.create_tables([InvitationMail], safe=True)


def outbox_and_digest(db: pw.Database) -> None:
    db.create_tables([OutboxItem], safe=True)
    add_column_if_missing(db, "user", "notify_digest", pw.BooleanField(default=False))
    add_column_if_missing(db, "user", "digest_sent_at", pw.DateTimeField(null=True))


def admin_audit(db: pw.Database) -> None:
    db.create_tables([AdminAction], safe=True)


def action_revision(db: pw.Database) -> None:
    add_column_if_missing(db, "game_action", "revision", pw.IntegerField(null=True))


def message_index_by_id(db: pw.Database) -> None:
    db.execute_sql('DROP INDEX IF EXISTS "game_message_game_id_sender_id_kind"')
    db.execute_sql(
        'CREATE INDEX IF NOT EXISTS "game_message_game_id_id" ON "game_message" ("game_id", "id")'
    )


def signup_requests(db: pw.Database) -> None:
    db.create_tables([SignupRequest], safe=True)


def login_attempt_checking(db: pw.Database) -> None:
    add_column_if_missing(db, "login_attempt", "checking", pw.BooleanField(default=False))


def bot_mark(db: pw.Database) -> None:
    add_column_if_missing(db, "user", "bot_level", pw.IntegerField(null=True))


def ratings(db: pw.Database) -> None:
    db.create_tables([UserRating, GameRating], safe=True)


def imported_games(db: pw.Database) -> None:
    add_column_if_missing(db, "game", "imported", pw.TextField(null=True))


def bot_turn_claims(db: pw.Database) -> None:
    db.create_tables([BotTurnClaim], safe=True)


def game_analyses(db: pw.Database) -> None:
    db.create_tables([GameAnalysis], safe=True)


def guest_mark(db: pw.Database) -> None:
    add_column_if_missing(db, "user", "guest", pw.BooleanField(default=False))


def rematches(db: pw.Database) -> None:
    db.create_tables([GameRematch], safe=True)


def tournaments(db: pw.Database) -> None:
    db.create_tables(
        [Tournament, TournamentEntrant, TournamentRound, TournamentGame], safe=True
    )


# The columns of `user` a remembered game holds (store.game_rows.PLAYER_USER_FIELDS as
# of step 23): a change of any of them, or a deletion, counts in `user_changes`.
_COUNTED_USER_COLUMNS = (
    "id", "username", "email", "is_admin", "bot_level", "guest",
    "notify_turn", "notify_action", "notify_game", "notify_digest",
)


def games_rated(db: pw.Database) -> None:
    """Each game says whether its finish rated it: `game.rated`, filled for the finished
    games from the ratings tables (a game with `game_rating` rows was rated; every other
    finished game was not); None for the games not finished."""
    add_column_if_missing(db, "game", "rated", pw.BooleanField(null=True))
    rated = GameRating.select(GameRating.game).distinct()
    finished = Game.status == "finished"
    Game.update(rated=True).where(finished & Game.id.in_(rated)).execute()
    Game.update(rated=False).where(finished & Game.id.not_in(rated)).execute()


def user_changes(db: pw.Database) -> None:
    """SQLite: one row counting every change of the users' columns a game load reads (the
    version a remembered game is checked against: store/game_rows.py). Triggers count
    them, so every writer counts, in this process or any other. PostgreSQL remembers no
    games: nothing to count there."""
    if not isinstance(db, pw.SqliteDatabase):
        return
    db.execute_sql(
        "CREATE TABLE IF NOT EXISTS user_changes "
        "(id INTEGER PRIMARY KEY CHECK (id = 1), n INTEGER NOT NULL)"
    )
    db.execute_sql("INSERT OR IGNORE INTO user_changes (id, n) VALUES (1, 0)")
    columns = ", ".join(f'"{name}"' for name in _COUNTED_USER_COLUMNS)
    count = "UPDATE user_changes SET n = n + 1 WHERE id = 1;"
    db.execute_sql(
        f'CREATE TRIGGER IF NOT EXISTS user_changes_update AFTER UPDATE OF {columns} '
        f'ON "user" BEGIN {count} END'
    )
    db.execute_sql(
        f'CREATE TRIGGER IF NOT EXISTS user_changes_delete AFTER DELETE ON "user" '
        f"BEGIN {count} END"
    )


def move_messages_derived(db: pw.Database) -> None:
    """A move's system message is made from its game_action row when read, no longer
    stored: actions say whether theirs is (older ones keep their stored message), and a
    stored message remembers the game's revision, its place among the derived ones."""
    if "message_derived" not in {column.name for column in db.get_columns("game_action")}:
        # NOT NULL with a constant default in one statement: neither SQLite nor PostgreSQL
        # (11 and later) rewrites the table, which holds every action ever played (the
        # migrator would UPDATE every row, and rebuild the table on SQLite)
        kind = "BOOLEAN" if isinstance(db, pw.PostgresqlDatabase) else "INTEGER"
        db.execute_sql(
            f'ALTER TABLE "game_action" ADD COLUMN "message_derived" {kind} NOT NULL '
            "DEFAULT FALSE"
        )
    add_column_if_missing(db, "game_message", "revision", pw.IntegerField(null=True))
