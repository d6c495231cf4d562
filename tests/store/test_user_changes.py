"""Migration 23: SQLite counts every change of the users' columns a loaded game carries.

The count is part of a remembered game's version (store/game_rows.py: game_version): a
change it misses would let a game show an old username or mail a player by choices she
no longer has. Triggers count, so every writer counts: this process, another one, a hand
edit.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Iterator
from pathlib import Path

import pytest

from corridorquest.store import Store, migrations
from corridorquest.store.game_rows import PLAYER_USER_FIELDS
from corridorquest.store.models import User

pytestmark = pytest.mark.backend_neutral  # SQLite whatever CQ_TEST_DATABASE_URL says

CHANGED = {
    "id": 1000,
    "username": "alicia",
    "email": "new@x.test",
    "is_admin": 1,
    "bot_level": 3,
    "guest": 1,
    "notify_turn": 0,
    "notify_action": 1,
    "notify_game": 0,
    "notify_digest": 1,
}


@pytest.fixture
def path(tmp_path: Path) -> Iterator[Path]:
    store = Store.open(f"sqlite:///{tmp_path / 'users.db'}")
    store.run(lambda: User.create(username="alice", email="a@x.test", password_hash="h"))
    store.close()
    yield tmp_path / "users.db"


def _count(db: sqlite3.Connection) -> int:
    return int(db.execute("SELECT n FROM user_changes").fetchone()[0])


def test_every_column_a_game_carries_is_counted() -> None:
    """Adding a field to PLAYER_USER_FIELDS needs a migration step that counts it."""
    assert set(CHANGED) == set(PLAYER_USER_FIELDS)


@pytest.mark.parametrize("column", sorted(CHANGED))
def test_a_change_of_a_carried_column_counts(path: Path, column: str) -> None:
    with sqlite3.connect(path) as db:
        before = _count(db)
        db.execute(
            f'UPDATE "user" SET "{column}" = ? WHERE username = ?', (CHANGED[column], "alice")
        )
        assert _count(db) == before + 1


def test_other_columns_new_users_and_deletions(path: Path) -> None:
    with sqlite3.connect(path) as db:
        before = _count(db)
        db.execute("UPDATE \"user\" SET password_hash = 'x', digest_sent_at = NULL, locked = 1")
    store = Store.open(f"sqlite:///{path}")
    store.run(lambda: User.create(username="bob", email="b@x.test", password_hash="h"))
    store.close()
    with sqlite3.connect(path) as db:
        assert _count(db) == before  # nothing a game carries changed
        db.execute("DELETE FROM \"user\" WHERE username = 'bob'")
        assert _count(db) == before + 1


def test_a_database_of_step_22_gets_the_count(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    url = f"sqlite:///{tmp_path / 'old.db'}"
    monkeypatch.setattr(migrations, "STEPS", [s for s in migrations.STEPS if s[0] < 23])
    store = Store.open(url)
    store.run(lambda: User.create(username="alice", email="a@x.test", password_hash="h"))
    store.close()
    monkeypatch.undo()
    Store.open(url).close()
    with sqlite3.connect(tmp_path / "old.db") as db:
        assert _count(db) == 0
        db.execute("UPDATE \"user\" SET username = 'alicia'")
        assert _count(db) == 1
