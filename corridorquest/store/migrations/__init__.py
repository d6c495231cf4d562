"""Schema migrations: ordered steps that upgrade a database in place, run on every start.

`schema_version` holds one row per applied step. `migrate(db)` applies every step whose
version has no row yet, each in its own transaction, in order.

This module holds the list of steps and the runner; the step bodies live beside it:
`schema.py` (tables, columns, indexes), `rescore.py` (steps 7 and 25: finished games rescored),
`message_names.py` (step 8: stored texts name users by id); `columns.py` has the helpers.

Adding a table or column: write the step's function in `schema.py` (or a module of its
own when it changes data) and append `(N + 1, "what", function)` to `STEPS`; the
function receives the database and uses `playhouse.migrate` (`add_column_if_missing`
helps) or `create_tables`. Never edit a released step. Step 1 creates the tables from the
current models, so a later step that adds a column to an existing model must tolerate
finding it already there (a fresh database gets it from step 1): use the helpers of
`columns.py`.
"""

from __future__ import annotations

import logging
from collections.abc import Callable

import peewee as pw

from corridorquest.store.migrations import message_names, rescore, schema
from corridorquest.store.migrations.columns import add_column_if_missing, migrator_for
from corridorquest.store.models import SchemaVersion

log = logging.getLogger(__name__)

Step = tuple[int, str, Callable[[pw.Database], None]]

_PG_LOCK_ID = 4_815_162_342  # advisory lock: one process migrates at a time

__all__ = [
    "STEPS",
    "Step",
    "add_column_if_missing",
    "current_version",
    "latest_version",
    "migrate_database",
    "migrator_for",
]


STEPS: list[Step] = [
    (1, "initial schema: users, sessions, verifications, games, actions", schema.initial_schema),
    (2, "markers of invisible-walls games", schema.markers),
    (3, "wall offers, game messages, message mutes", schema.trading_and_messages),
    (4, "wall offers remember the action number of their trade", schema.offer_action_number),
    (5, "drop single-column indexes of game actions and messages", schema.drop_move_path_indexes),
    (6, "password-change requests, for their rate limits", schema.password_requests),
    (7, "finished games rescored: final scores on a scale of 0 to 100 points",
     rescore.rescore_finished_games),
    (8, "system messages and cancel reasons name users by id (they follow a username change)",
     message_names.name_users_by_id),
    (9, "invitation mails sent, for their hourly limit per user", schema.invitation_mails),
    (10, "the durable notification outbox; the daily digest choice", schema.outbox_and_digest),
    (11, "the audit log of the system administrators' actions", schema.admin_audit),
    (12, "game actions remember the revision they made (live streams)", schema.action_revision),
    (13, "game messages indexed by game and id (live streams read the newest)",
     schema.message_index_by_id),
    (14, "signup requests, for their limit per client address", schema.signup_requests),
    (15, "login attempts whose password is being checked are told from failures",
     schema.login_attempt_checking),
    (16, "users with a bot mark: the bots' level (1..6), None for a person", schema.bot_mark),
    (17, "ratings per user and pool; each finished game's ratings before and after",
     schema.ratings),
    (18, "games imported from records keep their record's tags (issue 31)",
     schema.imported_games),
    (19, "finished games' analyses: each ply judged by the bots' engine (issue 31)",
     schema.game_analyses),
    (20, "users with a guest mark: accounts without e-mail or password (GUESTS=on)",
     schema.guest_mark),
    (21, "tournaments: entrants, rounds, games and their results (issue 30)",
     schema.tournaments),
    (22, "a finished game's rematch: another player's ask joins it", schema.rematches),
    (23, "SQLite: a count of the changes of users' columns a game shows (remembered games)",
     schema.user_changes),
    (24, "a move's system message is made from its action when read, not stored",
     schema.move_messages_derived),
    (25, "finished games rescored: progress never below 0 (walls lengthening a path)",
     rescore.rescore_clamped_progress),
    (26, "each game says whether its finish rated it (rerate follows it, not today's guests)",
     schema.games_rated),
    (27, "which server process computes a bot's move: a claim with a lease (issue 48)",
     schema.bot_turn_claims),
]


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
            # Every step not applied yet, a lower one too: branches that each added a
            # step (16 and 17, say) may land in either order.
            done = {row.version for row in SchemaVersion.select(SchemaVersion.version)}
            for number, description, step in STEPS:
                if number in done:
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
