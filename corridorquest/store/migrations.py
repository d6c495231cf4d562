"""Schema migrations: ordered steps that upgrade a database in place, run on every start.

`schema_version` holds one row per applied step. `migrate(db)` applies every step whose
version is above the highest applied one, each in its own transaction, in order.

Adding a table or column: append a step `(N + 1, "what", function)` to `STEPS`; the
function receives the database and uses `playhouse.migrate` (`add_column_if_missing`
helps) or `create_tables`. Never edit a released step. Step 1 creates the tables from the
current models, so a later step that adds a column to an existing model must tolerate
finding it already there (a fresh database gets it from step 1): use the helpers below.
"""

from __future__ import annotations

import logging
from collections.abc import Callable

import peewee as pw
from playhouse.migrate import PostgresqlMigrator, SchemaMigrator, SqliteMigrator, migrate

from corridorquest.store.message_names import name_users_by_id
from corridorquest.store.models import (
    ALL_MODELS,
    AdminAction,
    GameMarker,
    GameMessage,
    InvitationMail,
    MessageMute,
    OutboxItem,
    PasswordRequest,
    SchemaVersion,
    SignupRequest,
    WallOffer,
)
from corridorquest.store.rescore import rescore_finished_games

log = logging.getLogger(__name__)

Step = tuple[int, str, Callable[[pw.Database], None]]

_PG_LOCK_ID = 4_815_162_342  # advisory lock: one process migrates at a time


def _initial_schema(db: pw.Database) -> None:
    db.create_tables(ALL_MODELS, safe=True)


def _markers(db: pw.Database) -> None:
    db.create_tables([GameMarker], safe=True)


def _trading_and_messages(db: pw.Database) -> None:
    db.create_tables([WallOffer, GameMessage, MessageMute], safe=True)


def _offer_action_number(db: pw.Database) -> None:
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


def _drop_move_path_indexes(db: pw.Database) -> None:
    for name in _MOVE_PATH_INDEXES:
        db.execute_sql(f'DROP INDEX IF EXISTS "{name}"')


def _password_requests(db: pw.Database) -> None:
    db.create_tables([PasswordRequest], safe=True)


def _invitation_mails(db: pw.Database) -> None:
    db.create_tables([InvitationMail], safe=True)


def _outbox_and_digest(db: pw.Database) -> None:
    db.create_tables([OutboxItem], safe=True)
    add_column_if_missing(db, "user", "notify_digest", pw.BooleanField(default=False))
    add_column_if_missing(db, "user", "digest_sent_at", pw.DateTimeField(null=True))


def _admin_audit(db: pw.Database) -> None:
    db.create_tables([AdminAction], safe=True)


def _action_revision(db: pw.Database) -> None:
    add_column_if_missing(db, "game_action", "revision", pw.IntegerField(null=True))


def _message_index_by_id(db: pw.Database) -> None:
    db.execute_sql('DROP INDEX IF EXISTS "game_message_game_id_sender_id_kind"')
    db.execute_sql(
        'CREATE INDEX IF NOT EXISTS "game_message_game_id_id" ON "game_message" ("game_id", "id")'
    )


def _signup_requests(db: pw.Database) -> None:
    db.create_tables([SignupRequest], safe=True)


def _login_attempt_checking(db: pw.Database) -> None:
    add_column_if_missing(db, "login_attempt", "checking", pw.BooleanField(default=False))


STEPS: list[Step] = [
    (1, "initial schema: users, sessions, verifications, games, actions", _initial_schema),
    (2, "markers of invisible-walls games", _markers),
    (3, "wall offers, game messages, message mutes", _trading_and_messages),
    (4, "wall offers remember the action number of their trade", _offer_action_number),
    (5, "drop single-column indexes of game actions and messages", _drop_move_path_indexes),
    (6, "password-change requests, for their rate limits", _password_requests),
    (7, "finished games rescored: final scores on a scale of 0 to 100 points",
     rescore_finished_games),
    (8, "system messages and cancel reasons name users by id (they follow a username change)",
     name_users_by_id),
    (9, "invitation mails sent, for their hourly limit per user", _invitation_mails),
    (10, "the durable notification outbox; the daily digest choice", _outbox_and_digest),
    (11, "the audit log of the system administrators' actions", _admin_audit),
    (12, "game actions remember the revision they made (live streams)", _action_revision),
    (13, "game messages indexed by game and id (live streams read the newest)",
     _message_index_by_id),
    (14, "signup requests, for their limit per client address", _signup_requests),
    (15, "login attempts whose password is being checked are told from failures",
     _login_attempt_checking),
]


def migrator_for(db: pw.Database) -> SchemaMigrator:
    if isinstance(db, pw.PostgresqlDatabase):
        return PostgresqlMigrator(db)
    return SqliteMigrator(db)


def add_column_if_missing(db: pw.Database, table: str, name: str, field: pw.Field) -> None:
    """Add `field` as column `name` of `table` unless it exists (for migration steps)."""
    if name not in {column.name for column in db.get_columns(table)}:
        migrate(migrator_for(db).add_column(table, name, field))


def current_version(db: pw.Database) -> int:
    if not db.table_exists(SchemaVersion._meta.table_name):
        return 0
    found = SchemaVersion.select(pw.fn.MAX(SchemaVersion.version)).scalar()
    return int(found or 0)


def latest_version() -> int:
    return max(number for number, _, _ in STEPS)


def migrate_database(db: pw.Database) -> list[int]:
    """Apply every pending step; returns the versions applied (empty when up to date)."""
    is_pg = isinstance(db, pw.PostgresqlDatabase)
    with db.connection_context():
        if is_pg:
            db.execute_sql("SELECT pg_advisory_lock(%s)", (_PG_LOCK_ID,))
        try:
            db.create_tables([SchemaVersion], safe=True)
            applied: list[int] = []
            version = current_version(db)
            if version > latest_version():
                raise RuntimeError(
                    f"database schema version {version} is newer than this server "
                    f"({latest_version()}); upgrade the server"
                )
            for number, description, step in STEPS:
                if number <= version:
                    continue
                with db.atomic():
                    step(db)
                    SchemaVersion.create(version=number, description=description)
                log.info("database migrated to version %d: %s", number, description)
                applied.append(number)
            return applied
        finally:
            if is_pg:
                db.execute_sql("SELECT pg_advisory_unlock(%s)", (_PG_LOCK_ID,))
