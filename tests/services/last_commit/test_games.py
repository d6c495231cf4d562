"""services.last_commit.games: a remembered game is used only while it is exactly the stored one."""

from __future__ import annotations

import sqlite3
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from corridorquest.services.game_access import load_game
from corridorquest.services.last_commit import games as game_cache
from corridorquest.store import Store
from corridorquest.store.game_rows import game_version, game_with_players, read_versions
from corridorquest.store.models import Game, GamePlayer, User

pytestmark = pytest.mark.backend_neutral  # SQLite whatever CQ_TEST_DATABASE_URL says


@pytest.fixture
def store(tmp_path: Path) -> Iterator[Store]:
    game_cache.forget_all()
    opened = Store.open(f"sqlite:///{tmp_path / 'cache.db'}")
    yield opened
    opened.close()
    game_cache.forget_all()


def _game(store: Store) -> int:
    def create() -> int:
        alice = User.create(username="alice", email="a@x.test", password_hash="h")
        bob = User.create(username="bob", email="b@x.test", password_hash="h")
        game = Game.create(admin=alice, seed=7, state=None, status="started", revision=3)
        GamePlayer.create(game=game, user=alice, join_order=0, seat="north")
        GamePlayer.create(game=game, user=bob, join_order=1, seat="south")
        return int(game.id)

    return store.run(create)


def _remember(store: Store, game_id: int) -> None:
    def read() -> None:
        game_cache.load(game_id)  # as a write's first load: it sees the users' count
        found = game_with_players(game_id)
        assert found is not None
        game_cache.remember(*found, game_cache.users_seen(game_id))

    store.run(read)


def _snapshot(found: tuple[Game, list[GamePlayer]] | None) -> Any:
    assert found is not None
    game, players = found
    return game.__data__, [(p.__data__, p.user.__data__) for p in players]


def test_a_remembered_game_loads_as_the_stored_one_in_fresh_instances(store: Store) -> None:
    game_id = _game(store)
    _remember(store, game_id)
    first = store.run(game_cache.load, game_id)
    assert _snapshot(first) == _snapshot(store.run(game_with_players, game_id))
    assert first is not None
    first[0].revision = 99  # a write that then rolls back changes its own copies only
    first[1][0].user.username = "mallory"
    again = store.run(game_cache.load, game_id)
    assert again is not None
    assert again[0].revision == 3 and again[1][0].user.username == "alice"
    assert again[0] is not first[0] and again[0]._dirty == set()


def test_a_new_revision_a_renamed_player_or_a_deleted_game_is_read_again(store: Store) -> None:
    game_id = _game(store)
    _remember(store, game_id)
    # another process moved the game on
    store.run(lambda: Game.update(revision=4).where(Game.id == game_id).execute())
    assert store.run(game_cache.load, game_id) is None
    _remember(store, game_id)
    assert store.run(game_cache.load, game_id) is not None
    # a player renamed herself: no revision of the game, but the version has the users
    store.run(lambda: User.update(username="alicia").where(User.username == "alice").execute())
    assert store.run(game_cache.load, game_id) is None
    loaded = store.run(load_game, game_id)
    assert loaded.usernames == ["alicia", "bob"]
    _remember(store, game_id)
    store.run(lambda: User.update(is_admin=True).where(User.username == "bob").execute())
    assert store.run(game_cache.load, game_id) is None
    _remember(store, game_id)
    # a user of no game at all changed her notification choices: every game reads again
    store.run(lambda: User.create(username="carol", email="c@x.test", password_hash="h"))
    assert store.run(game_cache.load, game_id) is not None  # (a new user changes nothing)
    store.run(
        lambda: User.update(notify_action=True).where(User.username == "carol").execute()
    )
    assert store.run(game_cache.load, game_id) is None
    _remember(store, game_id)
    store.run(lambda: GamePlayer.delete().where(GamePlayer.game == game_id).execute())
    store.run(lambda: Game.delete().where(Game.id == game_id).execute())
    assert store.run(game_cache.load, game_id) is None


def test_nothing_remembered_means_no_game(store: Store) -> None:
    game_id = _game(store)
    assert store.run(game_cache.load, game_id) is None


def test_the_cache_stays_bounded(store: Store, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(game_cache, "MAX_ENTRIES", 1)
    first = _game(store)
    second = store.run(
        lambda: int(Game.create(admin=User.get(User.username == "alice"), seed=8).id)
    )
    _remember(store, first)
    _remember(store, second)
    assert store.run(game_cache.load, first) is None
    assert store.run(game_cache.load, second) is not None


def test_versions_read_ahead_are_each_games_own_and_used_once(store: Store) -> None:
    """A live look reads the versions of a turn's games in one statement
    (game_rows.read_versions): each is what game_version reads alone, a game without
    players and a missing game included, and only the next read in that transaction
    takes it (a later one reads again)."""
    played = [_game_with_names(store, f"p{i}", f"q{i}") for i in range(10)]
    lonely = store.run(lambda: int(Game.create(admin=1, seed=8, status="waiting").id))
    games = [*played, lonely, 999_999]
    alone = {game_id: store.run(game_version, game_id) for game_id in games}
    assert alone[999_999] is None and alone[lonely] is not None
    assert len({alone[game_id] for game_id in played}) == 1  # (revision, seed, count)

    def read_ahead() -> tuple[dict[int, Any], list[Any]]:
        read_versions([*games, played[0]])  # (a game twice is read once)
        # (a look writes nothing; this rename shows which reads were made ahead)
        User.update(username="renamed").where(User.username == "p0").execute()
        first = {game_id: game_version(game_id) for game_id in games}
        return first, game_version(played[0])

    first, again = store.run(read_ahead)
    assert first == alone  # as read ahead, before the rename
    assert again is not None and again[2] == alone[played[0]][2] + 1  # read again


def _game_with_names(store: Store, first: str, second: str) -> int:
    def create() -> int:
        one = User.create(username=first, email=f"{first}@x.test", password_hash="h")
        two = User.create(username=second, email=f"{second}@x.test", password_hash="h")
        game = Game.create(admin=one, seed=7, state=None, status="started", revision=3)
        GamePlayer.create(game=game, user=one, join_order=0, seat="north")
        GamePlayer.create(game=game, user=two, join_order=1, seat="south")
        return int(game.id)

    return store.run(create)


def test_a_second_load_in_one_transaction_reads_the_rows(store: Store) -> None:
    """A write that changed the players before moving the revision on (a join adds the
    player first) and loads the game again gets the rows it wrote, not the remembered
    game."""
    game_id = _game(store)
    _remember(store, game_id)

    def join_and_reload() -> tuple[Any, list[str]]:
        first = game_cache.load(game_id)
        carol = User.create(username="carol", email="c@x.test", password_hash="h")
        GamePlayer.create(game=game_id, user=carol, join_order=2)
        return first, load_game(game_id).usernames

    first, usernames = store.run(join_and_reload)
    assert first is not None  # the first load: the remembered game
    assert usernames == ["alice", "bob", "carol"]  # the second: the rows as written


def test_another_programs_change_of_a_user_is_seen(store: Store, tmp_path: Path) -> None:
    """The users' changes are counted in the database (triggers): a change by another
    program (an administrator's hand edit) makes the remembered game read again."""
    game_id = _game(store)
    _remember(store, game_id)
    with sqlite3.connect(tmp_path / "cache.db") as other:
        other.execute("UPDATE user SET email = 'new@x.test' WHERE username = 'bob'")
    assert store.run(game_cache.load, game_id) is None
    loaded = store.run(load_game, game_id)
    assert [p.user.email for p in loaded.players] == ["a@x.test", "new@x.test"]
