"""The store: DATABASE_URL handling, SQLite pragmas, transactions, migrations in place."""

from __future__ import annotations

import asyncio
import os
import sqlite3
from collections.abc import Iterator
from pathlib import Path

import peewee as pw
import pytest

from corridorquest.store import DatabaseUrlError, Store, connect, current_version, migrations
from corridorquest.store.connection import SQLITE_PAGE_SIZE
from corridorquest.store.models import ALL_MODELS, SchemaVersion, User
from tests.support.server import fresh_database

BACKENDS = ["sqlite"] + (["postgresql"] if os.environ.get("CQ_TEST_DATABASE_URL") else [])


@pytest.fixture(params=BACKENDS)
def database_url(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[str]:
    if request.param == "sqlite":
        yield f"sqlite:///{tmp_path / 'store.db'}"
    else:
        with fresh_database(tmp_path) as url:
            yield url


def test_sqlite_database_runs_with_wal_foreign_keys_and_a_busy_timeout(tmp_path: Path) -> None:
    store = Store.open(f"sqlite:///{tmp_path / 'deep' / 'dir' / 'cq.db'}")
    try:
        pragma = lambda name: store.db.execute_sql(f"PRAGMA {name}").fetchone()[0]  # noqa: E731
        assert pragma("journal_mode") == "wal"
        assert pragma("foreign_keys") == 1
        assert pragma("synchronous") == 1  # NORMAL
        assert pragma("busy_timeout") == 5000
        assert (tmp_path / "deep" / "dir" / "cq.db").exists()
    finally:
        store.close()


def test_a_new_database_file_has_small_pages_and_an_existing_one_keeps_its_own(
    tmp_path: Path,
) -> None:
    page_size = lambda store: store.db.execute_sql("PRAGMA page_size").fetchone()[0]  # noqa: E731
    store = Store.open(f"sqlite:///{tmp_path / 'new.db'}")
    try:
        assert page_size(store) == SQLITE_PAGE_SIZE == 2048
    finally:
        store.close()
    older = tmp_path / "older.db"  # a database made before: SQLite's default 4 KiB pages
    db = sqlite3.connect(older)
    db.execute("PRAGMA page_size = 4096")
    db.execute("PRAGMA journal_mode = wal")
    db.close()
    store = Store.open(f"sqlite:///{older}")
    try:
        assert page_size(store) == 4096
        store.run(lambda: User.create(username="ann", email="ann@example.test", password_hash="h"))
        assert store.run(lambda: User.get(User.username == "ann").email) == "ann@example.test"
    finally:
        store.close()


@pytest.mark.parametrize(
    ("url", "complaint"),
    [
        ("mysql://db/cq", "unsupported DATABASE_URL scheme"),
        ("postgresql://localhost", "needs a database name"),
        ("sqlite:///", "needs a file path"),
    ],
)
def test_unusable_database_urls_are_refused(url: str, complaint: str) -> None:
    with pytest.raises(DatabaseUrlError, match=complaint):
        connect(url)


def test_postgres_urls_become_pooled_connections_with_their_credentials() -> None:
    db = connect("postgresql://cq:s%40cret@db.example:5433/corridor?sslmode=require", 4)
    assert isinstance(db, pw.PostgresqlDatabase)
    assert db.database == "corridor"
    assert db.connect_params["password"] == "s@cret"
    assert (db.connect_params["host"], db.connect_params["port"]) == ("db.example", 5433)
    assert db.connect_params["sslmode"] == "require"


def test_first_open_creates_every_table_at_the_latest_version(database_url: str) -> None:
    store = Store.open(database_url)
    try:
        assert current_version(store.db) == migrations.latest_version()
        tables = set(store.db.get_tables())
        assert {model._meta.table_name for model in ALL_MODELS} <= tables
        assert migrations.migrate_database(store.db) == []
    finally:
        store.close()


def test_a_new_migration_step_upgrades_an_existing_database_in_place(
    database_url: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    store = Store.open(database_url)
    store.run(lambda: User.create(username="keep", email="keep@x.test", password_hash="h"))
    store.close()

    def add_nickname(db: pw.Database) -> None:
        migrations.add_column_if_missing(db, "user", "nickname", pw.CharField(default="?"))

    new_version = migrations.latest_version() + 1
    steps = [*migrations.STEPS, (new_version, "users get a nickname", add_nickname)]
    monkeypatch.setattr(migrations, "STEPS", steps)
    store = Store.open(database_url)
    try:
        assert current_version(store.db) == new_version
        assert "nickname" in {c.name for c in store.db.get_columns("user")}
        row = store.db.execute_sql('SELECT username, nickname FROM "user"').fetchone()
        assert tuple(row) == ("keep", "?")
    finally:
        store.close()


def test_a_database_newer_than_the_server_is_refused(
    database_url: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    released = list(migrations.STEPS)
    steps = [*released, (migrations.latest_version() + 1, "from the future", lambda db: None)]
    monkeypatch.setattr(migrations, "STEPS", steps)
    Store.open(database_url).close()
    monkeypatch.setattr(migrations, "STEPS", released)
    with pytest.raises(RuntimeError, match="newer than this server"):
        Store.open(database_url)


def test_a_failing_transaction_leaves_nothing_behind(database_url: str) -> None:
    store = Store.open(database_url)

    def create_then_fail() -> None:
        User.create(username="ghost", email="ghost@x.test", password_hash="h")
        raise ValueError("refused")

    async def attempt() -> None:
        with pytest.raises(ValueError, match="refused"):
            await store.transaction(create_then_fail)
        count = await store.transaction(lambda: User.select().count())
        assert count == 0

    try:
        asyncio.run(attempt())
    finally:
        store.close()


def test_transactions_from_async_code_see_each_others_writes(database_url: str) -> None:
    store = Store.open(database_url)

    def add(name: str) -> int:
        return int(User.create(username=name, email=f"{name}@x.test", password_hash="h").id)

    async def many() -> list[int]:
        return list(await asyncio.gather(*(store.transaction(add, f"u{i}") for i in range(20))))

    try:
        ids = asyncio.run(many())
        assert len(set(ids)) == 20
        assert store.run(lambda: User.select().count()) == 20
    finally:
        store.close()


def _indexes(db: pw.Database, table: str) -> set[str]:
    return {index.name for index in db.get_indexes(table)}


def test_step_5_drops_the_single_column_indexes_of_actions_and_messages(
    database_url: str,
) -> None:
    """An existing database loses the move path's redundant indexes; a fresh one never
    has them; lookups by game keep their composite indexes."""
    old = {
        "game_action_game_id": ("game_action", "game_id"),
        "game_action_user_id": ("game_action", "user_id"),
        "game_message_game_id": ("game_message", "game_id"),
        "game_message_sender_id": ("game_message", "sender_id"),
        "game_message_recipient_id": ("game_message", "recipient_id"),
    }
    store = Store.open(database_url)
    fresh = _indexes(store.db, "game_action") | _indexes(store.db, "game_message")
    assert not fresh & old.keys()
    assert {"game_action_game_id_n", "game_message_game_id_id"} <= fresh
    # what a database created before step 5 looked like
    for name, (table, column) in old.items():
        store.db.execute_sql(f'CREATE INDEX "{name}" ON "{table}" ("{column}")')
    store.run(lambda: SchemaVersion.delete().where(SchemaVersion.version >= 5).execute())
    store.close()
    store = Store.open(database_url)
    try:
        assert current_version(store.db) == migrations.latest_version()
        upgraded = _indexes(store.db, "game_action") | _indexes(store.db, "game_message")
        assert upgraded == fresh
    finally:
        store.close()


def test_step_13_indexes_messages_by_game_and_id(database_url: str) -> None:
    """A database from before step 13 trades its (game, sender, kind) message index for
    (game, id), so that a live stream reads a game's newest messages as a range; it keeps
    its messages."""
    store = Store.open(database_url)
    store.db.execute_sql('DROP INDEX "game_message_game_id_id"')
    store.db.execute_sql(
        'CREATE INDEX "game_message_game_id_sender_id_kind" '
        'ON "game_message" ("game_id", "sender_id", "kind")'
    )
    store.run(lambda: SchemaVersion.delete().where(SchemaVersion.version >= 13).execute())
    store.close()
    store = Store.open(database_url)
    try:
        assert current_version(store.db) == migrations.latest_version()
        indexes = _indexes(store.db, "game_message")
        assert "game_message_game_id_id" in indexes
        assert "game_message_game_id_sender_id_kind" not in indexes
    finally:
        store.close()



def test_step_18_adds_the_imported_column_to_a_database_of_step_15(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A database migrated before records existed gets `game.imported` (issue 31)."""
    url = f"sqlite:///{tmp_path / 'old.db'}"
    released = list(migrations.STEPS)
    monkeypatch.setattr(migrations, "STEPS", [step for step in released if step[0] <= 15])
    store = Store.open(url)
    store.db.execute_sql('ALTER TABLE "game" DROP COLUMN "imported"')  # as step 1 made it then
    assert "imported" not in {c.name for c in store.db.get_columns("game")}
    store.close()
    monkeypatch.setattr(migrations, "STEPS", released)
    store = Store.open(url)
    try:
        assert current_version(store.db) == migrations.latest_version()
        assert "imported" in {c.name for c in store.db.get_columns("game")}
    finally:
        store.close()
