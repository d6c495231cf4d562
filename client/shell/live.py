"""The current game, kept fresh: polled in the background and redrawn when it changes.

:class:`GameWatch` remembers the current game's JSON and revision (for the toolbar and
completion) and a short-lived cache of the game list (for completing game ids).
:func:`watch_loop` polls ``GET /games/{id}`` every ``interval`` seconds and, when the
revision moved without this shell acting, prints the board above the prompt.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Callable
from typing import Any

from client.errors import CqError
from client.state import AppState

GAMES_TTL = 10.0


class GameWatch:
    def __init__(self, state: AppState) -> None:
        self.state = state
        self.game: dict[str, Any] | None = None
        self._games: list[dict[str, Any]] = []
        self._games_at = 0.0
        self._others: dict[int, dict[str, Any]] = {}
        self._generation = 0

    @property
    def revision(self) -> int | None:
        return None if self.game is None else self.game.get("revision")

    def refresh(self) -> bool:
        """Fetch the current game; True when it differs from what was known."""
        game_id = self.state.current_game
        if game_id is None:
            changed = self.game is not None
            self.game = None
            return changed
        generation = self._generation
        try:
            with self.state.api() as api:
                fresh = api.game(game_id)
        except CqError:
            return False
        if generation != self._generation:
            return False  # a command ran meanwhile and fetched a newer answer
        before = self.game
        self.game = fresh
        return before is None or before.get("id") != fresh.get("id") or (
            before.get("revision") != fresh.get("revision")
        )

    def game_for(self, game_id: int | None) -> dict[str, Any] | None:
        """The current game, or another one fetched once (for completing -g N moves)."""
        if game_id is None or (self.game is not None and self.game.get("id") == game_id):
            return self.game
        if game_id not in self._others:
            try:
                with self.state.api() as api:
                    self._others[game_id] = api.game(game_id)
            except CqError:
                return None
        return self._others[game_id]

    def games(self) -> list[dict[str, Any]]:
        """The games the user can see, cached for a few seconds."""
        if time.monotonic() - self._games_at > GAMES_TTL:
            try:
                with self.state.api() as api:
                    self._games = api.games()
            except CqError:
                self._games = []
            self._games_at = time.monotonic()
        return self._games

    def after_command(self) -> None:
        """A command ran: take in its effect so it is not redrawn as someone else's move."""
        self._generation += 1
        self._others.clear()
        self._games_at = 0.0
        self.refresh()


async def watch_loop(
    watch: GameWatch, redraw: Callable[[dict[str, Any]], None], interval: float = 1.5
) -> None:
    """Poll the current game forever; call ``redraw`` when another player changed it."""
    while True:
        await asyncio.sleep(interval)
        known = watch.game.get("id") if watch.game else None
        changed = await asyncio.to_thread(watch.refresh)
        if changed and watch.game is not None and watch.game.get("id") == known:
            redraw(watch.game)
