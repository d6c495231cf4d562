"""store.fast: cached raw SQL that must give exactly what peewee's own queries give."""

from __future__ import annotations

import os
from collections.abc import Iterator
from datetime import timedelta
from pathlib import Path

import pytest

from corridorquest.store import Store, fast
from corridorquest.store.models import Game, GameAction, GamePlayer, User, utcnow
from tests.support.server import fresh_database

BACKENDS = ["sqlite"] + (["postgresql"] if os.environ.get("CQ_TEST_DATABASE_URL") else [])


@pytest.fixture(params=BACKENDS)
def store(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[Store]:
    if request.param == "sqlite":
        opened = Store.open(f"sqlite:///{tmp_path / 'fast.db'}")
        yield opened
        opened.close()
    else:
        with fresh_database(tmp_path) as url:
            opened = Store.open(url)
            yield opened
            opened.close()


def _game(store: Store) -> tuple[Game, User, User]:
    def create() -> tuple[Game, User, User]:
        alice = User.create(username="alice", email="a@x.test", password_hash="h")
        bob = User.create(username="bob", email="b@x.test", password_hash="h", is_admin=True)
        game = Game.create(admin=alice, seed=7, state='{"x": 1}', turn_user=bob, private=True)
        GamePlayer.create(game=game, user=bob, join_order=1, seat="south")
        GamePlayer.create(game=game, user=alice, join_order=0, seat="north")
        return game, alice, bob

    return store.run(create)


def test_select_gives_the_same_rows_as_peewee(store: Store) -> None:
    game, _, _ = _game(store)
    fast_row = store.run(lambda: fast.select(Game, 't."id" = ?', (game.id,))[0])
    peewee_row = store.run(lambda: Game.get_by_id(game.id))
    assert fast_row.__data__ == peewee_row.__data__
    assert fast_row._dirty == set()
    assert store.run(lambda: fast.select(Game, 't."id" = ?', (game.id + 1,))) == []


def test_select_with_joins_partial_related_rows_in_order(store: Store) -> None:
    game, alice, bob = _game(store)
    rows = store.run(
        lambda: fast.select_with(
            GamePlayer,
            User,
            'r."id" = t."user_id"',
            't."game_id" = ?',
            (game.id,),
            'ORDER BY t."join_order"',
            related_fields=("id", "username", "is_admin"),
        )
    )
    assert [(p.seat, u.username, u.is_admin) for p, u in rows] == [
        ("north", "alice", False),
        ("south", "bob", True),
    ]
    assert [p.user_id for p, _ in rows] == [alice.id, bob.id]


def test_insert_and_update_write_what_peewee_reads_back(store: Store) -> None:
    game, alice, bob = _game(store)
    moment = utcnow() - timedelta(hours=1)

    def write() -> None:
        fast.insert(
            GameAction,
            game=game.id,
            n=1,
            seat="north",
            user=alice.id,
            type="move",
            notation="e8",
            at=moment,
        )
        row = fast.select(Game, 't."id" = ?', (game.id,))[0]
        row.revision = 9
        row.turn_user = alice.id
        row.turn_since = moment
        fast.update(row, "revision", "turn_user", "turn_since")

    store.run(write)
    action = store.run(lambda: GameAction.get(GameAction.game == game.id))
    assert (action.n, action.notation, action.user_id, action.at) == (1, "e8", alice.id, moment)
    reread = store.run(lambda: Game.get_by_id(game.id))
    assert (reread.revision, reread.turn_user_id, reread.turn_since) == (9, alice.id, moment)
    assert reread.state == '{"x": 1}' and reread.private is True


def test_writes_convert_what_is_not_already_a_database_value(store: Store) -> None:
    """Model instances for foreign keys, booleans and datetimes go through the fields."""
    game, alice, bob = _game(store)
    moment = utcnow() - timedelta(minutes=7)
    store.run(
        lambda: fast.insert(
            GameAction, game=game, n=2, seat="south", user=bob, type="wall",
            notation="c3h", at=moment,
        )
    )
    store.run(lambda: fast.update_by_id(User, bob.id, locked=True, description="x"))
    action = store.run(lambda: GameAction.get(GameAction.game == game.id))
    assert (action.user_id, action.n, action.at) == (bob.id, 2, moment)
    user = store.run(lambda: User.get_by_id(bob.id))
    assert (user.locked, user.description) == (True, "x")


def test_save_and_update_by_id_write_every_given_field(store: Store) -> None:
    game, alice, bob = _game(store)
    moment = utcnow() - timedelta(minutes=3)

    def write() -> None:
        row = fast.select(Game, 't."id" = ?', (game.id,))[0]
        row.status = "finished"
        row.winner = bob.id
        row.finished_at = moment
        row.turn_user = None
        fast.save(row)
        fast.update_by_id(User, alice.id, description="hi", locked=True)

    store.run(write)
    reread = store.run(lambda: Game.get_by_id(game.id))
    assert (reread.status, reread.winner_id, reread.finished_at, reread.turn_user_id) == (
        "finished", bob.id, moment, None,
    )
    assert reread.state == '{"x": 1}' and reread.private is True
    user = store.run(lambda: User.get_by_id(alice.id))
    assert (user.description, user.locked) == ("hi", True)


def test_a_constraint_violation_is_peewees_integrity_error(store: Store) -> None:
    from corridorquest.store import IntegrityError

    game, alice, _ = _game(store)
    action = {"game": game.id, "n": 1, "seat": "north", "user": alice.id, "type": "move",
              "notation": "e8", "at": utcnow()}
    store.run(lambda: fast.insert(GameAction, **action))
    with pytest.raises(IntegrityError):
        store.run(lambda: fast.insert(GameAction, **action))
    assert store.run(lambda: GameAction.select().count()) == 1
