"""Positions of stored games kept in memory, so that a replay at action k (`GET
/games/{id}?at=k`, board.svg, the replay pages) plays at most `EVERY` actions, not k.
They live in the replay worker process (records/worker.py), which plays every replay.

A replay keeps the position after every EVERY-th action it passes (a copy, with the walls
each seat had placed by then: services/positions.py counts the walls left from them); the
next replay of the same game starts from the nearest kept position at or before its
action. A stored action never changes, so a kept position stays true; the key also holds
the moment the game started, so a game whose id comes again after a purge finds nothing
of the old one's. At most `max_positions` positions are kept in the process; the games
used least lately lose theirs first (a position of 17x17 with many walls takes a few
kilobytes). Thread-safe.
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from dataclasses import dataclass

from corridorquest.engine import GameState, Seat

EVERY = 50  # actions between two kept positions of a game
MAX_POSITIONS = 4096  # positions kept in the process (about 10 MB at most)

Key = tuple[int, str]  # (game id, when it started)


@dataclass(frozen=True)
class Kept:
    """The position after `n` actions and the walls each seat had placed by then."""

    n: int
    state: GameState
    placed: dict[Seat, int]

    def copied(self) -> Kept:
        return Kept(self.n, self.state.copy(), dict(self.placed))


class PositionCache:
    def __init__(self, every: int = EVERY, max_positions: int = MAX_POSITIONS) -> None:
        self.every = every
        self.max_positions = max_positions
        self._games: OrderedDict[Key, dict[int, Kept]] = OrderedDict()
        self._count = 0
        self._lock = threading.Lock()

    def __len__(self) -> int:
        return self._count

    def nearest(self, key: Key, at: int) -> Kept | None:
        """A copy of the kept position of the game `key` nearest before or at `at` actions."""
        with self._lock:
            kept = self._games.get(key)
            if not kept:
                return None
            self._games.move_to_end(key)
            best = max((n for n in kept if n <= at), default=None)
            found = kept[best] if best is not None else None
        return found.copied() if found is not None else None

    def keep(self, key: Key, n: int, state: GameState, placed: dict[Seat, int]) -> None:
        """Keep (a copy of) the position after `n` actions, when `n` is a multiple of EVERY."""
        if n <= 0 or n % self.every:
            return
        with self._lock:
            kept = self._games.setdefault(key, {})
            self._games.move_to_end(key)
            if n in kept:
                return
            kept[n] = Kept(n, state.copy(), dict(placed))
            self._count += 1
            while self._count > self.max_positions and len(self._games) > 1:
                _, dropped = self._games.popitem(last=False)
                self._count -= len(dropped)


kept_positions = PositionCache()  # the process's one cache
