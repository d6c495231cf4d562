"""Server operations on the box: `corridorquest migrate`, `check`, `backup`, `restore`,
`init-admin`, `rerate`.

Each reads the settings `serve` reads (the environment, `--env-file`; DATABASE_URL or the
default SQLite file in DATA_DIR), ends with one line that says what happened, and exits
with 0 when it succeeded, 1 when it did not (click's usage errors: 2). The work is done
by the store (`store.migrations`, `store.check`, `store.backup`) and the services
(`ensure_initial_admin`); this module only talks to the administrator.
"""

from __future__ import annotations

import contextlib
import logging
import shlex
import sqlite3
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any, TypeVar
from urllib.parse import urlsplit

import click

from corridorquest.settings import Settings, SettingsError

F = TypeVar("F", bound=Callable[..., Any])


def env_file_option(fn: F) -> F:
    return click.option(
        "--env-file",
        type=click.Path(dir_okay=False, path_type=Path),
        help="Read settings from this dotenv file (the environment wins over it).",
    )(fn)


def load_settings(env_file: Path | None) -> Settings:
    try:
        return Settings.from_env(env_file)
    except SettingsError as error:
        raise click.ClickException(str(error)) from None


def sqlite_database(settings: Settings) -> Path | None:
    """The SQLite file of the settings (None: PostgreSQL); refuses `:memory:`."""
    from corridorquest.store.single_process import sqlite_file

    if not settings.is_sqlite:
        return None
    path = sqlite_file(settings.database_url)
    if path is None:
        raise click.ClickException("DATABASE_URL is an in-memory database: nothing to operate on")
    return path


@contextlib.contextmanager
def opened_store(
    database_url: str,
    settings: Settings,
    migrate: bool = False,
    failure: str = "database error: {error}",
) -> Iterator[Any]:
    """The store on `database_url`, closed on exit; database errors become one line
    (`failure` with the error in place of {error})."""
    from corridorquest.store import DatabaseError, DatabaseUrlError, SqliteOptions, Store

    sqlite = SqliteOptions(
        synchronous=settings.sqlite_synchronous,
        busy_timeout=settings.database_busy_timeout,
        wal_limit=settings.sqlite_wal_limit * 1024 * 1024,
    )
    try:
        store = Store.open(database_url, pool_size=1, migrate=migrate, sqlite=sqlite)
    except (DatabaseError, DatabaseUrlError, RuntimeError, OSError) as error:
        raise click.ClickException(f"cannot open the database: {one_line(error)}") from None
    try:
        yield store
    except (DatabaseError, sqlite3.Error) as error:  # sqlite3's own: a damaged file's rows
        raise click.ClickException(failure.format(error=one_line(error))) from None
    finally:
        store.close()


def one_line(error: BaseException) -> str:
    return " ".join(str(error).split()) or type(error).__name__


def server_holding(error: Exception) -> str:
    """`DatabaseInUse`'s message without its advice for a second server."""
    return str(error).split(" One server process per SQLite file")[0].rstrip(". ")


# --- migrate ---------------------------------------------------------------------------


@click.command()
@env_file_option
def migrate(env_file: Path | None) -> None:
    """Run the pending database migrations.

    The server also migrates on every start; this upgrades the schema without starting
    it (for example before starting several processes on PostgreSQL). On SQLite, pending
    steps are not run while a server uses the database: stop it first.
    """
    from corridorquest.store.migrations import STEPS, current_version, migrate_database
    from corridorquest.store.single_process import DatabaseInUse, lock_sqlite_file

    settings = load_settings(env_file)
    sqlite_database(settings)
    try:
        lock = lock_sqlite_file(settings.database_url)
    except DatabaseInUse as error:
        with opened_store(settings.database_url, settings) as store:
            version = store.run(current_version, store.db)
        pending = [number for number, _, _ in STEPS if number > version]
        if not pending:
            click.echo(f"database is up to date (version {version})")
            return
        steps = ", ".join(str(number) for number in pending)
        are = f"migrations {steps} are" if len(pending) > 1 else f"migration {steps} is"
        raise click.ClickException(
            f"{are} pending, but {server_holding(error)}:"
            " stop it and run `corridorquest migrate` again"
        ) from None
    except OSError as error:
        raise click.ClickException(f"cannot lock the SQLite database: {error}") from None
    try:
        with opened_store(settings.database_url, settings) as store:
            try:
                applied = migrate_database(store.db)
            except RuntimeError as error:  # a schema newer than this server
                raise click.ClickException(str(error)) from None
            version = store.run(current_version, store.db)
    finally:
        if lock is not None:
            lock.release()
    if not applied:
        click.echo(f"database is up to date (version {version})")
        return
    described = {number: description for number, description, _ in STEPS}
    for number in applied:
        click.echo(f"applied migration {number}: {described[number]}")
    click.echo(f"database migrated to version {version} ({len(applied)} steps applied)")


# --- check -----------------------------------------------------------------------------


@click.command()
@env_file_option
def check(env_file: Path | None) -> None:
    """Check the database and replay every stored game.

    SQLite: `PRAGMA integrity_check` and `foreign_key_check`; PostgreSQL: a query. Then
    every started and finished game's actions (and wall trades) are replayed through the
    rules engine: they must give the stored position and, for a finished game, the
    stored winner and scores. Reads only; safe while the server runs. Exits 1 naming the
    broken games.
    """
    from corridorquest.store.check import check_database

    settings = load_settings(env_file)
    database = sqlite_database(settings)
    if database is not None and not database.is_file():
        raise click.ClickException(f"there is no database file {database}")
    with opened_store(settings.database_url, settings) as store:
        report = check_database(store.db)
    for problem in report.problems:
        click.echo(f"database: {problem}")
    for game_id, problem in sorted(report.broken.items()):
        click.echo(f"game {game_id}: {problem}")
    if report.problems and not report.broken:
        raise click.ClickException(f"check failed: {len(report.problems)} database problems")
    if report.broken:
        names = ", ".join(str(game_id) for game_id in sorted(report.broken))
        raise click.ClickException(
            f"check failed: {len(report.broken)} of {report.games} games do not replay"
            f" (games {names})"
            + (f" and {len(report.problems)} database problems" if report.problems else "")
        )
    click.echo(
        f"check passed: database sound (schema version {report.version}),"
        f" {report.games} games replay"
    )


# --- backup ----------------------------------------------------------------------------


def pg_dump_command(settings: Settings, target: str) -> str:
    """A pg_dump command line for the PostgreSQL DATABASE_URL (the password left out)."""
    parts = urlsplit(settings.database_url)
    arguments = ["pg_dump", "--format=custom", f"--file={target}"]
    if parts.hostname:
        arguments.append(f"--host={parts.hostname}")
    if parts.port:
        arguments.append(f"--port={parts.port}")
    if parts.username:
        arguments.append(f"--username={parts.username}")
    arguments.append(parts.path.lstrip("/"))
    return " ".join(shlex.quote(argument) for argument in arguments)


@click.command()
@env_file_option
@click.option("--force", is_flag=True, help="Replace FILE when it exists.")
@click.argument("file", type=click.Path(dir_okay=False, path_type=Path))
def backup(env_file: Path | None, force: bool, file: Path) -> None:
    """Copy the SQLite database to FILE while the server runs.

    SQLite's online backup: FILE is the database as of one moment (every write the
    server acknowledged before it began), written under a temporary name and renamed
    when complete. FILE must not exist unless --force. On PostgreSQL, use pg_dump
    (this prints its command line and exits 1).
    """
    from corridorquest.store.backup import BackupError, backup_sqlite

    settings = load_settings(env_file)
    database = sqlite_database(settings)
    if database is None:
        command = pg_dump_command(settings, str(file))
        raise click.ClickException(
            "the database is PostgreSQL: back it up with pg_dump (it reads consistently"
            f" while the server runs), for example: {command}"
            " (PGPASSWORD or ~/.pgpass gives the password; pg_restore restores it)"
        )
    try:
        size = backup_sqlite(database, file, force=force)
    except BackupError as error:
        raise click.ClickException(f"backup failed: {error}") from None
    click.echo(f"backed up {database} to {file} ({size} bytes)")


# --- restore ---------------------------------------------------------------------------


@click.command()
@env_file_option
@click.option("--yes", "-y", is_flag=True, help="Do not ask for confirmation.")
@click.argument("file", type=click.Path(exists=True, dir_okay=False, path_type=Path))
def restore(env_file: Path | None, yes: bool, file: Path) -> None:
    """Replace the SQLite database with a backup (server stopped).

    FILE must be a Corridor Quest database that `corridorquest check` passes (a backup
    of an older schema is migrated first, as the server would on start). The database
    file is replaced in one rename, its stale -wal and -shm files removed. Asks for
    confirmation unless --yes. Refuses while a server uses the database. On PostgreSQL,
    use pg_restore.
    """
    from corridorquest.store.backup import (
        BackupError,
        discard_staged,
        install_restore,
        is_sqlite_file,
        stage_restore,
    )
    from corridorquest.store.check import check_database
    from corridorquest.store.migrations import current_version, latest_version, migrate_database
    from corridorquest.store.single_process import DatabaseInUse, lock_sqlite_file

    settings = load_settings(env_file)
    database = sqlite_database(settings)
    if database is None:
        raise click.ClickException(
            "the database is PostgreSQL: restore a pg_dump backup with pg_restore"
            " (for example: pg_restore --clean --if-exists --dbname=NAME FILE), server stopped"
        )
    if not is_sqlite_file(file):
        raise click.ClickException(f"restore refused: {file} is not an SQLite database")
    try:
        lock = lock_sqlite_file(settings.database_url)
    except DatabaseInUse as error:
        raise click.ClickException(
            f"restore refused: {server_holding(error)}; stop the server first"
        ) from None
    except OSError as error:
        raise click.ClickException(f"cannot lock the SQLite database: {error}") from None
    staged: Path | None = None
    try:
        try:
            staged = stage_restore(file, database)
        except BackupError as error:
            raise click.ClickException(f"restore refused: {error}") from None
        damaged = f"restore refused: {file} is damaged ({{error}}); the database was not changed"
        with opened_store(f"sqlite:///{staged}", settings, failure=damaged) as store:
            version = store.run(current_version, store.db)
            if version == 0:
                raise click.ClickException(
                    f"restore refused: {file} is not a Corridor Quest database"
                )
            if version > latest_version():
                raise click.ClickException(
                    f"restore refused: {file} has schema version {version}, newer than this"
                    f" server's ({latest_version()})"
                )
            if version < latest_version():
                migrate_database(store.db)
                click.echo(f"{file} has schema version {version}: migrated the copy to"
                           f" {latest_version()}")
            report = check_database(store.db)
        if not report.ok:
            for problem in report.problems:
                click.echo(f"database: {problem}")
            for game_id, problem in sorted(report.broken.items()):
                click.echo(f"game {game_id}: {problem}")
            raise click.ClickException(f"restore refused: {file} does not pass check")
        if not yes:
            click.confirm(
                f"{file} passed check ({report.games} games). Replace the database"
                f" {database} with it?",
                abort=True,
            )
        install_restore(staged, database)
        staged = None
    finally:
        if staged is not None:
            discard_staged(staged)
        if lock is not None:
            lock.release()
    click.echo(f"restored {database} from {file} ({report.games} games); start the server")


# --- init-admin ------------------------------------------------------------------------


@click.command("init-admin")
@env_file_option
def init_admin(env_file: Path | None) -> None:
    """(Re)create the admin user with a new password.

    What INIT=true does at start: the user ADMIN_USERNAME (e-mail ADMIN_EMAIL) becomes a
    verified, unlocked system administrator with a new random password, printed here
    once; its sessions end. Creates and migrates the database when needed.
    """
    from corridorquest.services import users

    settings = load_settings(env_file)
    database = sqlite_database(settings)
    if database is not None:
        from corridorquest.store.file_modes import make_private_directory

        make_private_directory(database.parent)
    # the service logs the password too (for INIT at start): here it is printed once
    level = users.log.level
    users.log.setLevel(logging.ERROR)
    try:
        with opened_store(settings.database_url, settings, migrate=True) as store:
            password = users.ensure_initial_admin(
                store, settings.admin_username, settings.admin_email, force=True
            )
    except ValueError as error:
        raise click.ClickException(str(error)) from None
    finally:
        users.log.setLevel(level)
    assert password is not None
    click.echo(
        f"administrator {settings.admin_username!r} (re)created;"
        f" its password, shown only this once: {password}"
    )


# --- rerate ----------------------------------------------------------------------------


@click.command()
@env_file_option
def rerate(env_file: Path | None) -> None:
    """Recompute every rating from the stored games.

    Forgets every rating and rates every finished game again, in the order the server
    rated them (games finished before ratings existed first, by finish time), in one
    transaction: the result is what the game-by-game updates left. The server may run
    meanwhile: a game finishing during the rerate waits for it and is rated after it.
    """
    from corridorquest.services import ratings

    settings = load_settings(env_file)
    sqlite_database(settings)
    with opened_store(settings.database_url, settings, migrate=True) as store:
        rated = store.run(ratings.rerate_all)
    click.echo(f"rerated {rated} finished game{'' if rated == 1 else 's'}")
