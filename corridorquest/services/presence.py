"""Who is online: the players that hold a live stream open (a game view's `online`).

A user is online in a game while it holds a stream of that game, or its own event stream
(`/users/me/events`, which concerns all its games). This process counts its own streams
(`opened` / `closed`); with several server processes (PostgreSQL), each also hears what
the others hold (`merge`, from the live relay: a process's whole list, sent again every
few seconds and forgotten when it stops coming, so a process that died is not online
for long). The registry is memory only: nothing is stored, and a restart starts empty.
"""

from __future__ import annotations

import threading
import time
from collections import Counter
from collections.abc import Iterable

# what a remote process's list is worth without a newer one (it re-sends every 10 s)
REMOTE_TTL = 30.0

_lock = threading.Lock()  # game views are built in the PostgreSQL thread pool too
_games: dict[int, Counter[int]] = {}  # game id -> user id -> this process's open streams
_users: Counter[int] = Counter()  # user id -> this process's open user streams
# process token -> (monotonic time heard, game id -> user ids, user ids with a user stream)
_remote: dict[str, tuple[float, dict[int, set[int]], set[int]]] = {}


def opened(game_id: int | None, user_id: int) -> bool:
    """A stream opened (game_id None: a user stream). True when the user was not online
    in that game (or at all) in this process before."""
    with _lock:
        if game_id is None:
            _users[user_id] += 1
            return _users[user_id] == 1
        counts = _games.setdefault(game_id, Counter())
        counts[user_id] += 1
        return counts[user_id] == 1


def closed(game_id: int | None, user_id: int) -> bool:
    """A stream closed. True when it was the user's last one there in this process."""
    with _lock:
        counts = _users if game_id is None else _games.get(game_id)
        if counts is None or counts[user_id] <= 0:
            return False
        counts[user_id] -= 1
        if counts[user_id]:
            return False
        del counts[user_id]
        if game_id is not None and not counts:
            del _games[game_id]
        return True


def online(game_id: int, user_ids: Iterable[int]) -> list[int]:
    """Which of `user_ids` (a game's players) are online in that game, in their order."""
    with _lock:
        if not _games and not _users and not _remote:
            return []  # the usual case of a server nobody watches
        here = _games.get(game_id, {})
        now = time.monotonic()
        there: set[int] = set()
        for heard, games, users in _remote.values():
            if now - heard <= REMOTE_TTL:
                there |= games.get(game_id, set()) | users
        return [uid for uid in user_ids if uid in here or uid in _users or uid in there]


def local_snapshot() -> tuple[dict[int, list[int]], list[int]]:
    """This process's streams, for the other processes: (game id -> users, user streams)."""
    with _lock:
        games = {gid: sorted(counts) for gid, counts in _games.items() if counts}
        return games, sorted(_users)


def merge(process: str, games: dict[int, list[int]], users: list[int]) -> set[int]:
    """Another process's whole list. Returns the games whose online players changed."""
    with _lock:
        before = _remote.get(process)
        new_games = {gid: set(uids) for gid, uids in games.items()}
        _remote[process] = (time.monotonic(), new_games, set(users))
        if before is None:
            return set(new_games)
        old_games = before[1]
        return {
            gid
            for gid in set(old_games) | set(new_games)
            if old_games.get(gid, set()) != new_games.get(gid, set())
        }


def forget_process(process: str) -> None:
    with _lock:
        _remote.pop(process, None)


def forget_all() -> None:
    """Empty the registry (tests)."""
    with _lock:
        _games.clear()
        _users.clear()
        _remote.clear()
