"""Game positions by their stored JSON text: parse once, then copy (a bounded LRU cache).

Every move reads the game's `state` column and writes the next one. Parsing it
(`GameState.from_dict`, which checks that it is a position) costs about 50 µs; copying a
parsed position about 1 µs. The key is the exact text, so a hit gives what parsing that
text would give whoever wrote it (this process, another one, a migration); callers get a
copy, never the cached object. `encode` remembers the position it serialises, so the
next move of that game finds it. This relies on the engine's contract that
`GameState.from_dict(state.to_dict())` is an exact copy of `state` (`state.to_json()` is
the text of `json.dumps(state.to_dict())`, written faster).
"""

from __future__ import annotations

import json
import threading
from collections import OrderedDict

from corridorquest.engine import GameState

MAX_ENTRIES = 4096  # a few MB; far more games than are played at once

_cache: OrderedDict[str, GameState] = OrderedDict()
_lock = threading.Lock()  # PostgreSQL runs transactions in a thread pool


def _remember(text: str, state: GameState) -> None:
    with _lock:
        _cache[text] = state
        _cache.move_to_end(text)
        while len(_cache) > MAX_ENTRIES:
            _cache.popitem(last=False)


def parse(text: str, copy: bool = True) -> GameState:
    """The position stored as `text` (ValueError when it is not one), a fresh copy.

    `copy=False`, for a reader that changes nothing (a live stream's look): the cached
    position itself when there is one (it may still learn distances: they are shared)."""
    with _lock:
        cached = _cache.get(text)
        if cached is not None:
            _cache.move_to_end(text)
    if cached is not None:
        return cached.copy() if copy else cached
    state = GameState.from_dict(json.loads(text))
    _remember(text, state.copy())
    return state


def encode(state: GameState) -> str:
    """The JSON text to store for `state` (and the position remembered under it, which
    also learns the distances worked out on `state` afterwards: those of the move's
    answer, so that the next reader of the position need not work them out again)."""
    text = state.to_json()
    _remember(text, state.copy_for_cache())
    return text


def forget_all() -> None:
    """Empty the cache (tests)."""
    with _lock:
        _cache.clear()
