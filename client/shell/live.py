"""The current game, kept fresh and redrawn when it changes.

:class:`GameWatch` remembers the current game's JSON and revision (for the toolbar and
completion), what went wrong at the last check (``problem``: the server cannot be
reached, the session ended, ...), the game whose board was drawn last, and a
short-lived cache of the game list (for completing game ids). The game comes from its
live stream (:mod:`client.shell.follow`, :meth:`GameWatch.take`) or, when the stream
cannot be had, from :func:`watch_loop`, which polls ``GET /games/{id}`` every
``interval`` seconds. Either way :func:`redraw_if_changed` draws the board of a current
game that was not drawn yet (``cq-shell -g N`` while the server was down) and draws it
again when the game known is at another revision than the board on the screen.

What is on the screen decides, not what this shell did: a command that drew the current
game's board (``move``, ``show``: :func:`client.commands.game_group.echo_game` keeps the
view it drew in ``AppState.drawn_boards``) leaves that revision as the one drawn, so a
bot's reply that the game already holds when the shell looks again after the command is
drawn at once, as someone else's move. A command that drew no board of it (``message
send``) takes the game as it is then as drawn: its own effect is not drawn again.
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
        self.problem: CqError | None = None  # why the last check of the game failed
        self.drawn_id: int | None = None  # the game whose board was drawn last
        self.drawn_revision: int | None = None  # and the revision it was drawn at
        self._games: list[dict[str, Any]] = []
        self._games_at = 0.0
        self._others: dict[int, dict[str, Any]] = {}
        self._generation = 0

    @property
    def revision(self) -> int | None:
        return None if self.game is None else self.game.get("revision")

    def refresh(self) -> bool:
        """Fetch the current game; True when it differs from what was known.

        On failure the last known game stays (marked by ``problem``)."""
        game_id = self.state.current_game
        if game_id is None:
            changed = self.game is not None
            self.game = None
            self.problem = None
            return changed
        generation = self._generation
        try:
            with self.state.api() as api:
                fresh = api.game(game_id)
        except CqError as exc:
            if generation == self._generation:
                self.problem = exc
            return False
        if generation != self._generation:
            return False  # a command ran meanwhile and fetched a newer answer
        self.problem = None
        before = self.game
        self.game = fresh
        return before is None or before.get("id") != fresh.get("id") or (
            before.get("revision") != fresh.get("revision")
        )

    def take(self, fresh: dict[str, Any]) -> bool:
        """The current game as its stream sent it; True when it differs from what was
        known. A view older than the one known (a command's answer brought a newer one)
        and another game's are dropped."""
        if fresh.get("id") != self.state.current_game:
            return False
        before = self.game
        if before is None or before.get("id") != fresh.get("id"):
            self.problem, self.game = None, fresh
            return True
        if (fresh.get("revision") or 0) < (before.get("revision") or 0):
            return False
        self.problem, self.game = None, fresh
        return bool(before.get("revision") != fresh.get("revision"))

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

    def drew(self, game: dict[str, Any]) -> None:
        """The board of ``game`` is on the screen now."""
        self.drawn_id, self.drawn_revision = game.get("id"), game.get("revision")

    def after_command(self) -> None:
        """A command ran: fetch the game again. A board of the current game the command
        drew counts as drawn (a newer revision fetched now, such as a bot's reply to the
        command's move, is then someone else's change, drawn by :func:`redraw_if_changed`);
        without one, the game fetched now counts as drawn, so that the command's own
        effect is not redrawn as someone else's."""
        self._generation += 1
        self._others.clear()
        self._games_at = 0.0
        boards, self.state.drawn_boards = self.state.drawn_boards, {}
        current = self.state.current_game
        board = boards.get(current) if current is not None else None
        if board is not None:
            self.drew(board)
            known = self.game
            if known is None or known.get("id") != current or (
                (known.get("revision") or 0) <= (board.get("revision") or 0)
            ):
                self.game = board  # what the command fetched, should the server not answer now
            self.refresh()
            return
        self.refresh()
        if self.game is not None and self.game.get("id") == self.drawn_id:
            self.drawn_revision = self.game.get("revision")

    def undrawn_current(self) -> dict[str, Any] | None:
        """The current game when it is known and its board was not drawn yet."""
        game = self.game
        if game is None or game.get("id") != self.state.current_game:
            return None
        return game if game.get("id") != self.drawn_id else None


def redraw_if_changed(
    watch: GameWatch, draw: Callable[[dict[str, Any], str], None]
) -> None:
    """After a check of the game: ``draw(game, note)`` when the current game is at
    another revision than its board on the screen, or when it was never drawn."""
    game = watch.game
    if game is None or game.get("id") != watch.state.current_game:
        return
    if watch.undrawn_current() is not None:
        draw(game, "")
    elif game.get("revision") != watch.drawn_revision:
        draw(game, f"-- game {game['id']} changed (revision {game['revision']}) --")


async def watch_loop(
    watch: GameWatch,
    draw: Callable[[dict[str, Any], str], None],
    interval: float = 1.5,
    repaint: Callable[[], None] = lambda: None,
    should_poll: Callable[[], bool] = lambda: True,
) -> None:
    """Poll the current game forever while ``should_poll()`` (the stream cannot be had);
    ``repaint()`` after every check (the toolbar)."""
    while True:
        await asyncio.sleep(interval)
        if not should_poll():
            continue
        await asyncio.to_thread(watch.refresh)
        redraw_if_changed(watch, draw)
        repaint()
