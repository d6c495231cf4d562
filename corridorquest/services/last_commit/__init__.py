"""The game as the last commit left it: what this process remembers of its games.

One room, one lifecycle, four verbs:

- `load(game_id, lock=...)`: the game, its players and its position for a write (fresh
  instances it may change), cheaply when this process wrote it last and it is still the
  stored one, else read from the store.
- `read(game_id)`: the same for a reader that changes nothing (a live stream's look):
  the remembered instances and position themselves, shared, no copies.
- `remember(committed)`: after a write has COMMITTED (never inside a transaction that may
  still roll back), keep the game as it left it, and what its answer showed.
- `forget(game_id)`: something of the game changed without moving its revision on (a
  private offer): drop what is known, and refuse what writes under way would remember.

Inside, three tables (each a bounded LRU, each safe under threads):
`positions` (parsed positions by their stored JSON text), `games` (SQLite only: the game
row, player rows and users by game, checked against the stored version before use) and
`views` (the last actions, open offers and answer board by game, seed and revision).
The game a transaction loaded is also kept for that transaction (`in_transaction`, in the
store's transaction memo) for a later step of the same write (its system messages).

THE REVISION RULE. Everything here is correct because every write that changes a game,
its players, its actions or its public offers moves the game's revision on (in whichever
process it runs): an entry is keyed by, or checked against, the revision (with the
seed, which tells a new game from a deleted one with the same id). `remember` enforces
the half it can see: remembering a game whose revision did not move on from the one its
write loaded raises `RevisionNotMoved` (an AssertionError: a programming error, caught
by the tests, never a user's). A write that must change something without moving the
revision calls `forget` instead.

Only the unit of work (`services.unit_of_work`) remembers and forgets; `game_access`
loads and reads through here. Use cases never import this package.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, NamedTuple

from corridorquest.engine import GameState
from corridorquest.services.last_commit import games, positions, views
from corridorquest.services.last_commit.views import GameExtras
from corridorquest.store import transaction_memo
from corridorquest.store.game_rows import ActionRow, game_with_players
from corridorquest.store.models import Game, GamePlayer

__all__ = [
    "Committed",
    "GameExtras",
    "RevisionNotMoved",
    "Shown",
    "encode",
    "extras",
    "forget",
    "forget_all",
    "in_transaction",
    "load",
    "read",
    "remember",
    "token",
    "users_seen",
]

Found = tuple[Game, list[GamePlayer], GameState | None]


class RevisionNotMoved(AssertionError):
    """A write asked to remember a game whose revision it did not move on."""


class Shown(NamedTuple):
    """What a write's answer showed of the game (its game view's parts)."""

    actions: Sequence[ActionRow]  # the last actions, oldest first
    offers: Sequence[Sequence[Any]]  # open offer rows
    made: int | None  # the revision the last of `actions` made (None: not known)
    board: Any  # the answer's `game_views.Board`, or None


class Committed(NamedTuple):
    """A committed write of one game: the instances it left (the write is done with
    them), the revision it loaded the game at, the `token` taken when it began, what its
    answer showed (None: nothing to remember of its view), and what `users_seen` said in
    its transaction."""

    game: Game
    players: list[GamePlayer]
    loaded_revision: int
    since: int
    shown: Shown | None = None
    users_seen: int | None = None


def load(game_id: int, *, lock: bool = False) -> Found | None:
    """The game, players and position for a write (copies it may change); None: no such
    game. `lock`: lock the row for the write (PostgreSQL). Inside a transaction."""
    found = games.load(game_id) or game_with_players(game_id, lock=lock)
    if found is None:
        return None
    game, players = found
    return game, players, positions.parse(game.state) if game.state else None


def read(game_id: int) -> Found | None:
    """As `load`, for a reader that changes nothing it is given: possibly the very
    instances and position the last write left, shared with every other reader."""
    found = games.read(game_id) or game_with_players(game_id)
    if found is None:
        return None
    game, players = found
    return game, players, positions.parse(game.state, copy=False) if game.state else None


# The JSON text to store for a position (the parsed position is kept for the next load).
encode = positions.encode


def extras(game: Game) -> GameExtras | None:
    """What the game showed at its current revision, if this process remembers it."""
    return views.get(game.id, game.seed, game.revision)


# Take `token(game_id)` when a write begins; give it to `remember` in its `Committed`.
token = views.token

# Ask `users_seen(game_id)` in the write's transaction, after its load; give it to
# `remember` in its `Committed` (SQLite; None elsewhere).
users_seen = games.users_seen


def keep_in_transaction(game_id: int, loaded: Any) -> None:
    """The game this transaction loaded (any object with `.game`), for `in_transaction`."""
    transaction_memo()[("game", game_id)] = loaded


def in_transaction(game_id: int, revision: int) -> Any | None:
    """The game this transaction loaded last, if it is still at `revision` in memory
    (a write changes and saves the loaded game, so that is the row as written)."""
    loaded = transaction_memo().get(("game", game_id))
    if loaded is not None and loaded.game.revision == revision:
        return loaded
    return None


def remember(committed: Committed) -> None:
    """Keep what a committed write left; raises `RevisionNotMoved` if it did not move the
    game's revision on (see THE REVISION RULE above)."""
    game = committed.game
    revision = game.revision
    if revision <= committed.loaded_revision:
        raise RevisionNotMoved(
            f"game {game.id}: a write that loaded revision {committed.loaded_revision} "
            f"asked to remember revision {revision}; a write that changes a game "
            "must move its revision on (or `forget` it)"
        )
    shown = committed.shown
    if shown is not None:
        views.remember(
            game.id, game.seed, revision, shown.actions, shown.offers,
            committed.since, made=shown.made, board=shown.board,
        )
    games.remember(game, committed.players, committed.users_seen)


def forget(game_id: int) -> None:
    """The game changed without a new revision: drop what is known of it, and refuse
    what writes that began before now would remember of its view."""
    views.forget(game_id)
    games.forget(game_id)


def forget_all() -> None:
    """Empty every table (tests, and a process that restores a backup)."""
    views.forget_all()
    games.forget_all()
    positions.forget_all()
