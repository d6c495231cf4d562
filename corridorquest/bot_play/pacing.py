"""The pace of a game of bots only (BOTS_ONLY_PACE, SPEC §13: bots-only games are for
spectators): its bots' moves are played at least that long apart, so that a game on
`/tv` or a game page can be followed instead of flashing by at dozens of plies a second,
and so that such games take a bounded share of the server's writes. A game with a person
in it is not paced: a bot answers a person as soon as it has chosen.

The driver notes when it played each paced game's last move (this process's clock); a
move another process played, or one before a restart, is not waited for."""

from __future__ import annotations

import time
from collections import OrderedDict
from typing import Any

from corridorquest.services.game_views import bots_only

GAMES_KEPT = 256  # games whose last move time is kept (far more than are played at once)


class BotsOnlyPace:
    def __init__(self, seconds: float, clock: Any = time.monotonic) -> None:
        self.seconds = seconds
        self.clock = clock
        self._last: OrderedDict[int, float] = OrderedDict()  # game id -> clock at its move

    def wait(self, game_id: int, view: dict[str, Any]) -> float:
        """Seconds to wait before playing the next bot move of `game_id` (0: play now)."""
        if self.seconds <= 0 or not bots_only(view):
            return 0.0
        last = self._last.get(game_id)
        if last is None:
            return 0.0
        return max(0.0, min(self.seconds, last + self.seconds - self.clock()))

    def played(self, game_id: int, view: dict[str, Any]) -> None:
        """A bot move of `game_id` was just played."""
        if self.seconds <= 0 or not bots_only(view):
            return
        self._last.pop(game_id, None)
        self._last[game_id] = self.clock()
        while len(self._last) > GAMES_KEPT:
            self._last.popitem(last=False)
