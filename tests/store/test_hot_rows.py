"""store.game_rows and store.session_rows: the one-statement reads of a move, on each backend."""

from __future__ import annotations

import os
from collections.abc import Iterator
from datetime import timedelta
from pathlib import Path

import pytest

from corridorquest.store import Store, transaction_memo
from corridorquest.store.game_rows import game_with_players, recent_actions
from corridorquest.store.models import Game, GameAction, GamePlayer, Session, User, utcnow
from corridorquest.store.session_rows import session_user, touch_session
from tests.support.server import fresh_database

BACKENDS = ["sqlite"] + (["postgresql"] if os.environ.get("CQ_TEST_DATABASE_URL") else [])


@pytest.fixture(params=BACKENDS)
def store(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[Store]:
    if request.param == "sqlite":
        opened = Store.open(f"sqlite:///{tmp_path / 'rows.db'}")
        yield opened
        opened.close()
    else:
        with fresh_database(tmp_path) as url:
            opened = Store.open(url)
            yield opened
            opened.close()


def _users(store: Store) -> tuple[User, User]:
    def create() -> tuple[User, User]:
        alice = User.create(username="alice", email="a@x.test", password_hash="h")
        bob = User.create(username="bob", email="b@x.test", password_hash="h", is_admin=True)
        return alice, bob

    return store.run(create)


@pytest.mark.parametrize("lock", [False, True])
def test_a_game_comes_with_its_players_in_join_order(store: Store, lock: bool) -> None:
    alice, bob = _users(store)

    def create() -> Game:
        game = Game.create(admin=alice, seed=7, state='{"x": 1}', private=True, turn_user=bob)
        GamePlayer.create(game=game, user=bob, join_order=1, seat="south", trade_balance=-1)
        GamePlayer.create(game=game, user=alice, join_order=0, seat="north")
        return game

    game = store.run(create)
    found = store.run(lambda: game_with_players(game.id, lock=lock))
    assert found is not None
    row, players = found
    assert row.__data__ == store.run(lambda: Game.get_by_id(game.id)).__data__
    assert row._dirty == set()
    peewee_players = store.run(
        lambda: list(GamePlayer.select().where(GamePlayer.game == game.id).order_by(GamePlayer.id))
    )
    by_id = {p.id: p.__data__ for p in peewee_players}
    assert [p.__data__ for p in players] == [by_id[p.id] for p in players]
    assert [(p.user.username, p.user.is_admin, p.seat) for p in players] == [
        ("alice", False, "north"),
        ("bob", True, "south"),
    ]
    assert all(p._dirty == set() for p in players)


def test_a_game_without_players_and_a_missing_game(store: Store) -> None:
    alice, _ = _users(store)
    game = store.run(lambda: Game.create(admin=alice, seed=1))
    assert store.run(lambda: game_with_players(game.id)) is not None
    assert store.run(lambda: game_with_players(game.id))[1] == []  # type: ignore[index]
    assert store.run(lambda: game_with_players(game.id + 1)) is None


def test_recent_actions_are_the_last_ones_oldest_first(store: Store) -> None:
    alice, bob = _users(store)
    moment = utcnow() - timedelta(minutes=5)

    def create() -> Game:
        game = Game.create(admin=alice, seed=1)
        for n in range(1, 8):
            GameAction.create(
                game=game, n=n, seat="north", user=alice if n % 2 else bob, type="move",
                notation=f"e{n}", at=moment + timedelta(seconds=n),
            )
        return game

    game = store.run(create)
    rows = store.run(lambda: recent_actions(game.id, 5))
    assert [(r.n, r.notation, r.user_id) for r in rows] == [
        (n, f"e{n}", alice.id if n % 2 else bob.id) for n in range(3, 8)
    ]
    assert rows[-1].at == moment + timedelta(seconds=7)
    assert store.run(lambda: recent_actions(game.id + 1, 5)) == []


def test_a_session_is_found_by_its_token_hash_with_its_user(store: Store) -> None:
    _, bob = _users(store)
    now = utcnow()

    def create() -> Session:
        return Session.create(
            token_hash="h1", user=bob, created_at=now, last_seen_at=now,
            expires_at=now + timedelta(hours=1),
        )

    session = store.run(create)
    found = store.run(lambda: session_user("h1"))
    assert found is not None
    assert found.session_id == session.id and found.user_id == bob.id
    assert (found.username, found.email, found.is_admin, found.locked) == (
        "bob", "b@x.test", True, False,
    )
    assert (found.last_seen_at, found.expires_at) == (now, now + timedelta(hours=1))
    assert store.run(lambda: session_user("nope")) is None

    later = now + timedelta(minutes=2)
    store.run(lambda: touch_session(session.id, later, later + timedelta(hours=1)))
    reread = store.run(lambda: Session.get_by_id(session.id))
    assert (reread.last_seen_at, reread.expires_at) == (later, later + timedelta(hours=1))


def test_the_transaction_memo_lives_for_one_transaction(store: Store) -> None:
    def remember() -> None:
        transaction_memo()["x"] = 1
        assert transaction_memo()["x"] == 1

    store.run(remember)
    assert store.run(lambda: dict(transaction_memo())) == {}
    transaction_memo()["y"] = 2  # outside a transaction nothing is kept
    assert "y" not in transaction_memo()
