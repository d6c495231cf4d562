"""Migration 17 (ratings) and steps that land out of order (16 from another branch)."""

from __future__ import annotations

from pathlib import Path

import peewee as pw
import pytest

from corridorquest.store import Store, migrations
from corridorquest.store.models import SchemaVersion


def test_a_database_gets_the_rating_tables_as_step_17(tmp_path: Path) -> None:
    store = Store.open(f"sqlite:///{tmp_path / 'r.db'}")
    try:
        assert {"user_rating", "game_rating"} <= set(store.db.get_tables())
        versions = store.run(lambda: [v.version for v in SchemaVersion.select()])
        assert 17 in versions
        columns = {c.name for c in store.db.get_columns("game_rating")}
        assert {"rating_before", "deviation_before", "rating_after", "deviation_after"} <= columns
    finally:
        store.close()


def test_a_lower_step_that_lands_later_is_still_applied(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A database migrated to 17 without 16 (the branches landed in that order) gets 16
    at its next start, not skipped because 17 is higher."""
    url = f"sqlite:///{tmp_path / 'gap.db'}"
    released = [step for step in migrations.STEPS if step[0] != 16]
    monkeypatch.setattr(migrations, "STEPS", released)
    Store.open(url).close()

    def add_mark(db: pw.Database) -> None:
        migrations.add_column_if_missing(db, "user", "gap_mark", pw.IntegerField(null=True))

    later = sorted([*released, (16, "a step that landed later", add_mark)])
    monkeypatch.setattr(migrations, "STEPS", later)
    store = Store.open(url)
    try:
        assert "gap_mark" in {c.name for c in store.db.get_columns("user")}
        assert migrations.migrate_database(store.db) == []
    finally:
        store.close()
