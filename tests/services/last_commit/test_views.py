"""services.last_commit.views: an entry answers for its exact game, seed and revision only."""

from __future__ import annotations

from datetime import datetime

import pytest

from corridorquest.services.last_commit import views as view_cache
from corridorquest.store.game_rows import ActionRow

pytestmark = pytest.mark.backend_neutral  # no database

ROW = ActionRow(1, "north", 7, "move", "e8", datetime(2026, 1, 1, 12, 0, 0), True)


def test_an_entry_is_found_only_at_its_game_seed_and_revision() -> None:
    view_cache.forget_all()
    view_cache.remember(3, 1234, 5, [ROW], [[9, 7, "selling", None, None]])
    found = view_cache.get(3, 1234, 5)
    assert found is not None
    assert found.actions == (ROW,) and found.offers == ((9, 7, "selling", None, None),)
    assert view_cache.get(3, 1234, 6) is None  # the game moved on (another process)
    assert view_cache.get(3, 999, 5) is None  # a new game that reuses a deleted game's id
    assert view_cache.get(4, 1234, 5) is None


def test_the_cache_stays_bounded(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(view_cache, "MAX_ENTRIES", 3)
    view_cache.forget_all()
    for game_id in range(1, 6):
        view_cache.remember(game_id, 1, 1, [ROW], [])
    assert view_cache.get(1, 1, 1) is None and view_cache.get(5, 1, 1) is not None
    assert len(view_cache._cache) == 3
