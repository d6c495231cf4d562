"""A game's last actions and open offers at a revision, remembered after a move commits.

A game view shows the game's last five actions and its open offers: two more queries on
every move. Every write that changes either of them moves the game's revision on (a
move adds an action; making, taking and cancelling public offers are revisions of their
own), so what a game shows at revision R it shows for good; except a private offer made
or withdrawn, which leaves the revision as it was (the other players must not see that
something happened) and `forget`s the game instead: a move that was under way when it was
forgotten (its `token` is older) remembers nothing. After a move commits, the unit of work remembers
its view's actions and offers under (game id, seed, revision); the next move of that game,
finding the game at that revision, builds its view from them and its own new action
instead of reading them again.

- Only committed writes are remembered (never inside a transaction that may still roll
  back), and a write by another process moves the revision on: an entry is never wrong,
  at worst unused.
- The seed (random, 62 bits) is part of the key, so a new game that reuses the id of a
  deleted one never meets the old game's entry.
- Callers get the remembered tuples (immutable), never a list to change.
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Sequence
from typing import Any, NamedTuple

from corridorquest.store.game_rows import ActionRow

MAX_ENTRIES = 4096  # far more games than are played at once; a few MB at most


class GameExtras(NamedTuple):
    actions: tuple[ActionRow, ...]  # the last actions, oldest first
    offers: tuple[tuple[Any, ...], ...]  # `offer_views.open_offer_rows` rows
    made: int | None = None  # the revision the last of `actions` made (None: not known)
    board: Any = None  # the `game_views.Board` of the write's answer (None: none)


_Key = tuple[int, int, int]  # game id, seed, revision

_cache: OrderedDict[int, tuple[_Key, GameExtras]] = OrderedDict()  # by game id
_forgotten: dict[int, int] = {}  # game id -> how often it was forgotten
_lock = threading.Lock()  # PostgreSQL runs transactions in a thread pool


def get(game_id: int, seed: int, revision: int) -> GameExtras | None:
    """What the game showed at `revision`, if this process remembers it."""
    with _lock:
        found = _cache.get(game_id)
    if found is None or found[0] != (game_id, seed, revision):
        return None
    return found[1]


def token(game_id: int) -> int:
    """Take at the start of a write that may `remember` the game afterwards."""
    with _lock:
        return _forgotten.get(game_id, 0)


def forget(game_id: int) -> None:
    """Its offers changed without a new revision (a private offer): drop what is known,
    and refuse what writes that started before now would remember."""
    with _lock:
        _cache.pop(game_id, None)
        _forgotten[game_id] = _forgotten.get(game_id, 0) + 1


def remember(
    game_id: int,
    seed: int,
    revision: int,
    actions: Sequence[ActionRow],
    offers: Sequence[Sequence[Any]],
    since: int = 0,
    made: int | None = None,
    board: Any = None,
) -> None:
    """Call after the write that brought the game to `revision` has committed; `since`:
    the `token` taken when that write started; `made`: the revision the last of `actions`
    made, when the write knows it (a move: `revision`, its own action); `board`: the board
    its answer showed (`game_views.Board`)."""
    entry = GameExtras(tuple(actions), tuple(tuple(row) for row in offers), made, board)
    with _lock:
        if _forgotten.get(game_id, 0) != since:
            return
        _cache[game_id] = ((game_id, seed, revision), entry)
        _cache.move_to_end(game_id)
        while len(_cache) > MAX_ENTRIES:
            _cache.popitem(last=False)


def forget_all() -> None:
    """Empty the cache (tests)."""
    with _lock:
        _cache.clear()
        _forgotten.clear()
