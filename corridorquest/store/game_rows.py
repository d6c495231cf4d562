"""What every game request reads: the game with its players, and its latest actions.

`game_with_players` returns ordinary model instances (`store.fast` builds them). On SQLite
it is one statement (the game LEFT JOIN its players and their users): the event loop runs
one transaction at a time, so nothing can change between the reads anyway. On PostgreSQL
a write first locks the game row (`SELECT ... FOR UPDATE`) and only then reads the
players: a single joined statement that waited for the lock would re-check only the
game row afterwards, and could miss a player that the transaction it waited for added.
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime
from typing import Any, NamedTuple

import peewee as pw

from corridorquest.store import fast
from corridorquest.store.models import Game, GameAction, GameMessage, GamePlayer, User, database
from corridorquest.store.transaction_memo import transaction_memo

# The user columns a loaded player carries (`player.user` is a partial User). A change of
# one of them must count in `user_changes` (game_version): adding one here needs a
# migration step that counts it too (tests/store/test_user_changes.py says so).
PLAYER_USER_FIELDS = (
    "id", "username", "email", "is_admin", "bot_level", "guest",
    # what the notify worker's keep rules ask of a write (notify/audience.py: keep_rules)
    "notify_turn", "notify_action", "notify_game", "notify_digest",
)

_sql: dict[str, str] = {}

# A game (g) with its players (p) in join order and their users (u)
_GAME_WITH_USERS = (
    f"FROM {fast.table(Game)} AS g "
    f'LEFT JOIN {fast.table(GamePlayer)} AS p ON p."game_id" = g."id" '
    f'LEFT JOIN {fast.table(User)} AS u ON u."id" = p."user_id" '
    'WHERE g."id" = ? ORDER BY p."join_order"'
)


def _joined_sql() -> str:
    sql = _sql.get("joined")
    if sql is None:
        game_fields = Game._meta.sorted_fields
        player_fields = GamePlayer._meta.sorted_fields
        user_fields = [User._meta.fields[name] for name in PLAYER_USER_FIELDS]
        columns = ", ".join(
            [f'g."{f.column_name}"' for f in game_fields]
            + [f'p."{f.column_name}"' for f in player_fields]
            + [f'u."{f.column_name}"' for f in user_fields]
        )
        sql = _sql["joined"] = f"SELECT {columns} {_GAME_WITH_USERS}"
    return sql


_USER_PLAN = fast.row_plan([User._meta.fields[name] for name in PLAYER_USER_FIELDS])


def _attach(player: GamePlayer, user: User) -> GamePlayer:
    player.__rel__["user"] = user  # what `player.user = user` does, without marking it dirty
    return player


def _players(game_id: int) -> list[GamePlayer]:
    return [
        _attach(player, user)
        for player, user in fast.select_with(
            GamePlayer,
            User,
            'r."id" = t."user_id"',
            't."game_id" = ?',
            (game_id,),
            'ORDER BY t."join_order"',
            related_fields=PLAYER_USER_FIELDS,
        )
    ]


def game_with_players(game_id: int, *, lock: bool = False) -> tuple[Game, list[GamePlayer]] | None:
    """The game and its players in join order (None: no such game).

    `lock`: a write's read (the game row locked until the transaction ends, PostgreSQL).
    """
    db: Any = database.obj
    if not isinstance(db, pw.SqliteDatabase):
        found = fast.select(Game, 't."id" = ?', (game_id,), fast.for_update() if lock else "")
        return (found[0], _players(game_id)) if found else None
    rows = fast.execute(_joined_sql(), (game_id,)).fetchall()
    if not rows:
        return None
    game_width = len(Game._meta.sorted_fields)
    player_end = game_width + len(GamePlayer._meta.sorted_fields)
    game = fast.build(Game, fast.model_plan(Game), rows[0][:game_width])
    if rows[0][game_width] is None:  # no player row joined
        return game, []
    player_plan = fast.model_plan(GamePlayer)
    user_plan = _USER_PLAN
    players = [
        _attach(
            fast.build(GamePlayer, player_plan, row[game_width:player_end]),
            fast.build(User, user_plan, row[player_end:]),
        )
        for row in rows
    ]
    return game, players


# The version of a game (SQLite): its revision and seed, and the count of changes of the
# users' columns (`user_changes`, kept by triggers: migration step 23).
_VERSION_SQL = (
    f'SELECT g."revision", g."seed", c."n" FROM {fast.table(Game)} AS g, user_changes AS c '
    'WHERE g."id" = ?'
)

GameVersion = tuple[int, int, int]
_UNREAD: Any = object()  # (None is a version read ahead: no such game)


def game_version(game_id: int) -> GameVersion | None:
    """What tells a remembered game from the stored one (SQLite; None: no such game).

    The game's revision and seed, and how many times a user's row changed in a column a
    loaded player carries (`PLAYER_USER_FIELDS`) or was deleted, by any writer (the
    triggers of `user_changes` count them). Every write of a game or its players moves
    its revision on; a user's row changes without it, which is why the count is part of
    the version. Read already when `read_versions` read it earlier in the same
    transaction.
    """
    read = transaction_memo().pop(("game_version", game_id), _UNREAD)
    if read is not _UNREAD:
        return read  # type: ignore[no-any-return]
    return fast.execute(_VERSION_SQL, (game_id,)).fetchone()


_VERSIONS_BATCH = (8, 32, 128)  # the IN lists' lengths: a few statements to keep prepared


def read_versions(game_ids: Sequence[int]) -> None:
    """Read the `game_version` of several games in one statement per up to 128 games,
    for the rest of the current transaction: each game's next `game_version` in it takes
    its version from there (a live look reads those of every game it looks at in a turn).
    SQLite only (elsewhere nothing is read: `game_version` serves SQLite's game_cache)."""
    if not fast.is_sqlite() or not game_ids:
        return
    memo = transaction_memo()
    ids = list(dict.fromkeys(game_ids))
    for start in range(0, len(ids), _VERSIONS_BATCH[-1]):
        part = ids[start : start + _VERSIONS_BATCH[-1]]
        size = next(n for n in _VERSIONS_BATCH if n >= len(part))
        padded = part + [part[-1]] * (size - len(part))  # (a repeated id matches once)
        found: dict[int, GameVersion | None] = dict.fromkeys(part)
        for row in fast.execute(_versions_sql(size), padded).fetchall():
            found[row[0]] = row[1:]
        for game_id, version in found.items():
            memo[("game_version", game_id)] = version


def _versions_sql(size: int) -> str:
    key = f"versions{size}"
    sql = _sql.get(key)
    if sql is None:
        marks = ", ".join("?" for _ in range(size))
        sql = _sql[key] = (
            f'SELECT g."id", g."revision", g."seed", c."n" '
            f"FROM {fast.table(Game)} AS g, user_changes AS c "
            f'WHERE g."id" IN ({marks})'
        )
    return sql


class ActionRow(NamedTuple):
    """What a view shows of a `game_action` row, as plain values (`GameAction`'s names)."""

    n: int
    seat: str
    user_id: int
    type: str
    notation: str
    at: datetime
    message_derived: bool  # its system message is made from it when read (`move_messages`)


_ACTION_FIELDS = tuple(
    GameAction._meta.fields[name]
    for name in ("n", "seat", "user", "type", "notation", "at", "message_derived")
)
_ACTIONS_SQL = (
    "SELECT "
    + ", ".join(f'"{field.column_name}"' for field in _ACTION_FIELDS)
    + f' FROM {fast.table(GameAction)} WHERE "game_id" = ? ORDER BY "n" DESC LIMIT ?'
)
_ACTION_PLAN = fast.row_plan(_ACTION_FIELDS)


_PLAYED_SQL = (
    f'SELECT "seat", "type", "notation" FROM {fast.table(GameAction)} '
    'WHERE "game_id" = ? AND "n" <= ? ORDER BY "n"'
)


def played_actions(game_id: int, upto: int) -> list[tuple[str, str, str]]:
    """(seat, type, notation) of the game's first `upto` actions, in play order: what a
    replay needs (thousands of rows of a long game, without building a model each)."""
    sql = _PLAYED_SQL if fast.is_sqlite() else _PLAYED_SQL.replace("?", "%s")
    return [tuple(row) for row in fast.execute(sql, (game_id, upto)).fetchall()]


_SINCE_SQL = (
    "SELECT "
    + ", ".join(f'"{field.column_name}"' for field in _ACTION_FIELDS)
    + f', "revision" FROM {fast.table(GameAction)} WHERE "game_id" = ? AND "n" >= ? ORDER BY "n"'
)


def actions_from(game_id: int, first: int) -> list[tuple[int | None, ActionRow]]:
    """The game's actions numbered `first` and on, oldest first, each with the revision it
    made (None: played before migration step 12)."""
    sql = _SINCE_SQL if fast.is_sqlite() else _SINCE_SQL.replace("?", "%s")
    found = fast.execute(sql, (game_id, first)).fetchall()
    return [(row[-1], ActionRow._make(fast.convert(_ACTION_PLAN, row[:-1]))) for row in found]


def recent_actions(game_id: int, limit: int) -> list[ActionRow]:
    """The game's last `limit` actions, oldest first."""
    sql = _ACTIONS_SQL if fast.is_sqlite() else _ACTIONS_SQL.replace("?", "%s")
    found = fast.execute(sql, (game_id, limit)).fetchall()
    found.reverse()
    return [ActionRow._make(fast.convert(_ACTION_PLAN, row)) for row in found]


class MessageRow(NamedTuple):
    """What a reader is shown of a game message, as plain values (`GameMessage`'s names):
    a `game_message` row, or a move's message made from its action (`move_messages`)."""

    id: int | None  # None: made from an action, not stored
    sender_id: int | None
    recipient_id: int | None
    kind: str
    text: str
    detail: str | None
    at: datetime
    revision: int | None  # the game's when written (None: before migration step 24)


_MESSAGE_FIELDS = tuple(
    GameMessage._meta.fields[name]
    for name in ("id", "sender", "recipient", "kind", "text", "detail", "at", "revision")
)
_MESSAGES_AFTER_SQL = (
    "SELECT "
    + ", ".join(f'"{field.column_name}"' for field in _MESSAGE_FIELDS)
    + f' FROM {fast.table(GameMessage)} WHERE "id" > ? AND "game_id" = ? ORDER BY "id"'
)
_MESSAGE_PLAN = fast.row_plan(_MESSAGE_FIELDS)


def messages_after(game_id: int, after_row: int = 0) -> list[MessageRow]:
    """The game's stored messages with a row id above `after_row`, oldest first (a range
    of the (game, id) index: a live stream reads the few since its last look)."""
    sql = _MESSAGES_AFTER_SQL if fast.is_sqlite() else _MESSAGES_AFTER_SQL.replace("?", "%s")
    found = fast.execute(sql, (after_row, game_id)).fetchall()
    return [MessageRow._make(fast.convert(_MESSAGE_PLAN, row)) for row in found]


_DERIVED_SQL = (
    "SELECT "
    + ", ".join(f'"{field.column_name}"' for field in _ACTION_FIELDS)
    + f', "revision" FROM {fast.table(GameAction)} WHERE "game_id" = ? AND "message_derived"'
    + ' ORDER BY "n"'
)


def actions_with_derived_messages(game_id: int) -> list[tuple[int, ActionRow]]:
    """The game's actions whose system message is made from them when read, oldest
    first, each with the revision it made."""
    sql = _DERIVED_SQL if fast.is_sqlite() else _DERIVED_SQL.replace("?", "%s")
    found = fast.execute(sql, (game_id,)).fetchall()
    return [(row[-1], ActionRow._make(fast.convert(_ACTION_PLAN, row[:-1]))) for row in found]


_WAITING_SQL = f'SELECT COUNT(*) FROM {fast.table(Game)} WHERE "admin_id" = ? AND "status" = ?'


def waiting_games_of(admin_id: int) -> int:
    """How many games `admin_id` administers that wait for players (every new game asks:
    one statement built once, not peewee's query builder)."""
    sql = _WAITING_SQL if fast.is_sqlite() else _WAITING_SQL.replace("?", "%s")
    return int(fast.execute(sql, (admin_id, "waiting")).fetchone()[0])


def bots_only_games_of(admin_id: int) -> int:
    """How many games of bots only `admin_id` administers that wait or are played: games
    of theirs, not over, in which no person holds a seat (MAX_BOTS_ONLY_GAMES)."""
    person_seated = (
        GamePlayer.select(GamePlayer.id)
        .join(User, on=(User.id == GamePlayer.user))
        .where((GamePlayer.game == Game.id) & User.bot_level.is_null())
    )
    return int(
        Game.select()
        .where(
            (Game.admin == admin_id)
            & Game.status.in_(("waiting", "started"))
            & ~pw.fn.EXISTS(person_seated)
        )
        .count()
    )


# --- a game's history a page at a time, and the actions around a replay's step ----------


def action_count(game_id: int) -> int:
    """How many actions the game has."""
    return int(GameAction.select().where(GameAction.game == game_id).count())


def actions_after(game_id: int, after: int, limit: int | None = None) -> list[GameAction]:
    """The game's actions numbered above `after`, oldest first (at most `limit`)."""
    query = (
        GameAction.select()
        .where((GameAction.game == game_id) & (GameAction.n > after))
        .order_by(GameAction.n)
    )
    return list(query if limit is None else query.limit(limit))


def actions_up_to(game_id: int, upto: int, count: int) -> list[GameAction]:
    """The last `count` of the game's first `upto` actions, oldest first."""
    return list(
        GameAction.select()
        .where((GameAction.game == game_id) & (GameAction.n > upto - count)
               & (GameAction.n <= upto))
        .order_by(GameAction.n)
    )


def seat_of_action(game_id: int, n: int) -> str | None:
    """The seat that played the game's action number `n` (None: no such action yet)."""
    row = (
        GameAction.select(GameAction.seat)
        .where((GameAction.game == game_id) & (GameAction.n == n))
        .first()
    )
    return str(row.seat) if row is not None else None
