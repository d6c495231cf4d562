"""Games as a committed move left them, so the next move of that game need not build them.

A move starts by loading its game with the players and their users (`load_game`): one
joined statement, some seventy values fetched and five model instances built from them,
about a sixth of what a move costs the server. Most moves of a game follow the previous
move of the same game in the same process, which had the game, players and users in
memory when it committed. The unit of work remembers them here after the commit (never
inside a transaction that may still roll back); the next load, on SQLite, reads only the
game's version (`store.game_rows.game_version`: revision, seed, and the count of changes
of users' rows) and, when the version is the remembered one, builds the game from what
was remembered.

Why that is the stored game: every write of a game or of its players moves the game's
revision on, in whichever process it runs (the API tests, among them two server
processes on one database, hold this), and the seed (random, 62 bits) tells a new game
from a deleted one with the same id. A user's row (username, e-mail, admin flag, the
notification choices) changes without the revision, so the version also holds the
database's count of such changes (`user_changes`, kept by triggers, so every writer
counts): any of them makes every remembered game read again. A write that changed a
game or player row without moving the revision on would be missed here (and by
`views`): don't write one. Within one transaction only the first load of a game may be
the remembered one: a later load of it reads the rows, which that transaction may have
changed before moving the revision on (a join adds the player first).

Only SQLite uses it: on PostgreSQL a write first locks the game row and reads the players
after the lock (`game_rows.game_with_players`), which this check would have to repeat.
Callers get fresh instances every time (copies of the remembered values), never the
remembered ones, so a write that fails and rolls back leaves nothing wrong behind.
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from typing import Any, NamedTuple

from corridorquest.store import fast
from corridorquest.store.game_rows import GameVersion, game_version
from corridorquest.store.models import Game, GamePlayer, User
from corridorquest.store.transaction_memo import transaction_memo

MAX_ENTRIES = 4096  # far more games than are played at once; a few MB at most


class _Entry(NamedTuple):
    version: GameVersion
    game: dict[str, Any]  # the game row's values by field name
    players: tuple[tuple[dict[str, Any], dict[str, Any]], ...]  # (player row, its user's)
    instances: tuple[Game, tuple[GamePlayer, ...]]  # the write's own, which `read` hands out


_cache: OrderedDict[int, _Entry] = OrderedDict()  # by game id
_lock = threading.Lock()


def remember(game: Game, players: list[GamePlayer], users_seen: int | None) -> None:
    """Call after the write that left `game` and `players` as they are has committed;
    `users_seen`: what `users_seen` said in that write's transaction.

    The cache keeps their values and the instances themselves (not copies): the caller
    must not change them any more.
    Nothing is kept without `users_seen` (on PostgreSQL it is always None: `load` would
    not use the game).
    """
    if users_seen is None:
        return
    data = game.__data__
    entry = _Entry(
        (data["revision"], data["seed"], users_seen),
        data,
        tuple((p.__data__, p.user.__data__) for p in players),
        (game, tuple(players)),
    )
    with _lock:
        _cache[game.id] = entry
        _cache.move_to_end(game.id)
        while len(_cache) > MAX_ENTRIES:
            _cache.popitem(last=False)


def users_seen(game_id: int) -> int | None:
    """The count of users' changes the current transaction's load of the game saw (None:
    it loaded none, or not on SQLite): the users it loaded are those of that count."""
    return transaction_memo().get(("users_seen", game_id))  # type: ignore[no-any-return]


def _remembered(game_id: int, version: GameVersion | None) -> _Entry | None:
    """The game's entry if `version`, the stored one, is the version remembered."""
    with _lock:
        entry = _cache.get(game_id)
    return entry if entry is not None and entry.version == version else None


def _current(game_id: int) -> _Entry | None:
    """The game's entry if it is still the stored game (one statement when one is
    remembered, none otherwise; SQLite only)."""
    if not fast.is_sqlite() or game_id not in _cache:
        return None
    return _remembered(game_id, game_version(game_id))


def read(game_id: int) -> tuple[Game, list[GamePlayer]] | None:
    """As `load`, for a reader that changes nothing it is given (a live stream's look,
    once per change of a watched game): the very instances the write left (which is done
    with them, see `remember`), not copies. Changing one would change what the next
    reader sees."""
    entry = _current(game_id)
    if entry is None:
        return None
    game, players = entry.instances
    return game, list(players)


def load(game_id: int) -> tuple[Game, list[GamePlayer]] | None:
    """The remembered game and players, if they are still the stored ones; else None
    (the caller reads the rows). SQLite only (None on PostgreSQL).

    Inside the caller's transaction: the first load of a game in it reads the game's
    version (one statement) and keeps its count of users' changes for `users_seen`; a
    later load of the same game in it answers None.
    """
    if not fast.is_sqlite():
        return None
    memo = transaction_memo()
    if ("users_seen", game_id) in memo:
        return None
    version = game_version(game_id)
    memo[("users_seen", game_id)] = version[2] if version is not None else None
    entry = _remembered(game_id, version)
    return _build(entry) if entry is not None else None


def _build(entry: _Entry) -> tuple[Game, list[GamePlayer]]:
    """Fresh instances of the entry's values (copies: the caller may change them)."""
    players = []
    for player_data, user_data in entry.players:
        player = fast.instance(GamePlayer, dict(player_data))
        player.__rel__["user"] = fast.instance(User, dict(user_data))
        players.append(player)
    return fast.instance(Game, dict(entry.game)), players


def forget(game_id: int) -> None:
    """Drop what is remembered of one game."""
    with _lock:
        _cache.pop(game_id, None)


def forget_all() -> None:
    """Empty the cache (tests)."""
    with _lock:
        _cache.clear()
