"""services.last_commit: the game as the last commit left it, and the revision rule.

The caches are correct only because every write of a game moves its revision on; a
write that asked to remember a game whose revision it did not move must fail loudly
(RevisionNotMoved, an AssertionError), and leave nothing remembered.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from corridorquest.services import last_commit
from corridorquest.services.last_commit import games
from corridorquest.store import Store
from corridorquest.store.game_rows import ActionRow
from corridorquest.store.models import Game, GamePlayer, User, utcnow

pytestmark = pytest.mark.backend_neutral  # SQLite whatever CQ_TEST_DATABASE_URL says


@pytest.fixture
def store(tmp_path: Path) -> Iterator[Store]:
    last_commit.forget_all()
    opened = Store.open(f"sqlite:///{tmp_path / 'memory.db'}")
    yield opened
    opened.close()
    last_commit.forget_all()


def _game(store: Store) -> int:
    def create() -> int:
        alice = User.create(username="alice", email="a@x.test", password_hash="h")
        bob = User.create(username="bob", email="b@x.test", password_hash="h")
        game = Game.create(admin=alice, seed=7, state=None, status="started", revision=3)
        GamePlayer.create(game=game, user=alice, join_order=0, seat="north")
        GamePlayer.create(game=game, user=bob, join_order=1, seat="south")
        return int(game.id)

    return store.run(create)


def _write(store: Store, game_id: int, move_revision: bool) -> last_commit.Committed:
    """A committed write of the game: loaded, changed, saved (its revision moved on or
    not); what it would hand to `remember`."""

    def write() -> last_commit.Committed:
        found = last_commit.load(game_id, lock=True)
        assert found is not None
        game, players, _ = found
        loaded_revision = game.revision
        game.turn_since = utcnow()
        if move_revision:
            game.revision += 1
        game.save()
        row = ActionRow(1, "north", game.admin_id, "move", "e2", utcnow(), True)
        shown = last_commit.Shown([row], [], made=game.revision, board=None)
        return last_commit.Committed(
            game, players, loaded_revision, 0, shown, last_commit.users_seen(game_id)
        )

    return store.run(write)


def test_remembering_a_game_whose_revision_did_not_move_fails_loudly(store: Store) -> None:
    game_id = _game(store)
    committed = _write(store, game_id, move_revision=False)
    with pytest.raises(last_commit.RevisionNotMoved, match="revision 3"):
        last_commit.remember(committed)
    assert isinstance(last_commit.RevisionNotMoved("x"), AssertionError)
    # nothing was remembered: the next write reads the game from the store
    assert store.run(games.load, game_id) is None
    assert last_commit.extras(committed.game) is None


def test_a_write_that_moved_the_revision_is_remembered_until_forgotten(store: Store) -> None:
    game_id = _game(store)
    committed = _write(store, game_id, move_revision=True)
    last_commit.remember(committed)
    found = store.run(last_commit.load, game_id)
    assert found is not None
    game, players, _ = found
    assert game.revision == 4 and [p.user.username for p in players] == ["alice", "bob"]
    assert game is not committed.game  # a copy: the write may change it
    assert store.run(games.load, game_id) is not None
    extras = last_commit.extras(game)
    assert extras is not None and extras.made == 4
    last_commit.forget(game_id)  # a private offer: the game changed unseen
    assert store.run(games.load, game_id) is None
    assert last_commit.extras(game) is None
    # ... and the store still answers
    again = store.run(last_commit.load, game_id)
    assert again is not None and again[0].revision == 4
