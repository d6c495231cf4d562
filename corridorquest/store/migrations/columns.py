"""Helpers of the migration steps: the schema migrator of a database, a column added once."""

from __future__ import annotations

import peewee as pw
from playhouse.migrate import PostgresqlMigrator, SchemaMigrator, SqliteMigrator, migrate


def migrator_for(db: pw.Database) -> SchemaMigrator:
    if isinstance(db, pw.PostgresqlDatabase):
        return PostgresqlMigrator(db)
    return SqliteMigrator(db)


def add_column_if_missing(db: pw.Database, table: str, name: str, field: pw.Field) -> None:
    """Add `field` as column `name` of `table` unless it exists (for migration steps)."""
    if name not in {column.name for column in db.get_columns(table)}:
        migrate(migrator_for(db).add_column(table, name, field))
