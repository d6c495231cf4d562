"""The shell's current game followed over its live stream, polling only as a fallback.

:class:`StreamFollow` reads the current game's stream (:class:`~client.live_follow.
GameStream`) in a daemon thread, one thread per current game (``use N`` switches it),
and hands what it brings to the shell's event loop as items of :attr:`StreamFollow.items`:

- ``("event", ServerEvent)``: an event of the stream;
- ``("lost", problem)``: the connection is lost, the thread reconnects (the toolbar says
  so until ``("back", None)``, then the server sends what was missed);
- ``("unavailable", problem)``: the stream cannot be had (an older server without
  streams answers 404, the session ended, connections end at once): the shell polls
  (:attr:`StreamFollow.polling`, read by :func:`~client.shell.live.watch_loop`) and the
  thread tries the stream again every ``STREAM_RETRY`` seconds.

:func:`follow_loop` applies the items between commands only (``idle``), so that the answer
of a command the shell ran is taken in first and its own move is not redrawn as someone
else's (:meth:`~client.shell.live.GameWatch.take` drops an older view).
"""

from __future__ import annotations

import asyncio
import threading
from collections.abc import Callable
from typing import Any

from client.errors import CqError
from client.live_follow import GameStream
from client.render.message_text import message_line
from client.shell.live import GameWatch, redraw_if_changed
from client.sse import ServerEvent
from client.state import AppState

STREAM_RETRY = 60.0


class _GameThread:
    """One current game's stream, read in a daemon thread until :meth:`stop`."""

    def __init__(self, follow: StreamFollow, game_id: int) -> None:
        self.follow = follow
        self.game_id = game_id
        self.halt = threading.Event()
        self.stream: GameStream | None = None
        self.thread = threading.Thread(
            target=self.run, name=f"cq-shell stream {game_id}", daemon=True
        )

    def post(self, kind: str, value: Any) -> None:
        if self.halt.is_set():
            return
        try:
            self.follow.loop.call_soon_threadsafe(self.follow.items.put_nowait,
                                                  (self, kind, value))
        except RuntimeError:  # the shell's loop is closed: it is leaving
            self.halt.set()

    def run(self) -> None:
        while not self.halt.is_set():
            self.stream = GameStream(
                self.follow.state.api, self.game_id, retry_first=True,
                on_lost=lambda problem: self.post("lost", problem),
                on_back=lambda: self.post("back", None),
            )
            if self.halt.is_set():
                return
            try:
                for event in self.stream.events():
                    self.post("event", event)
                return  # stopped
            except CqError as exc:
                self.post("unavailable", exc)
            except Exception as exc:  # noqa: BLE001  (the prompt must never show a traceback)
                self.post("unavailable", CqError(f"live stream failed: {exc}"))
            self.halt.wait(STREAM_RETRY)

    def stop(self) -> None:
        self.halt.set()
        if self.stream is not None:
            self.stream.close()


class StreamFollow:
    def __init__(self, state: AppState, loop: asyncio.AbstractEventLoop) -> None:
        self.state = state
        self.loop = loop
        self.items: asyncio.Queue[tuple[_GameThread, str, Any]] = asyncio.Queue()
        self.polling = False  # the current game's stream cannot be had: poll it
        self.current: _GameThread | None = None

    @property
    def game_id(self) -> int | None:
        return None if self.current is None else self.current.game_id

    def switch(self, game_id: int | None) -> None:
        """Follow ``game_id`` (None: no game) from now on."""
        if game_id == self.game_id:
            return
        self.stop()
        self.polling = False
        if game_id is not None:
            self.current = _GameThread(self, game_id)
            self.current.thread.start()

    def stop(self) -> None:
        if self.current is not None:
            self.current.stop()
            self.current = None


# How the server begins the system message of an administrators' broadcast
# (`cq-admin server broadcast`): it comes with no change of the game to redraw.
ADMIN_BROADCAST = "Message from the administrators: "


def message_note(message: dict[str, Any], me: str | None) -> str | None:
    """A line for a message someone else wrote, and for an administrators' broadcast (the
    other system messages come with a change of the game: the board shows them)."""
    if message.get("kind") == "system":
        if str(message.get("text") or "").startswith(ADMIN_BROADCAST):
            return message_line(message)
        return None
    if message.get("from") == me:
        return None
    return message_line(message)


def take_item(
    watch: GameWatch,
    kind: str,
    value: Any,
    draw: Callable[[dict[str, Any], str], None],
    say: Callable[[str], None],
) -> None:
    """Apply one item of the stream's thread to the watch."""
    if kind == "lost":
        watch.problem = value
    elif kind == "back":
        watch.problem = None
    elif kind == "event" and isinstance(value, ServerEvent) and isinstance(value.data, dict):
        if value.name == "game":
            watch.take(value.data)
            redraw_if_changed(watch, draw)
        elif value.name == "message":
            note = message_note(value.data, watch.state.profile.username)
            if note is not None:
                say(note)


async def follow_loop(
    watch: GameWatch,
    follow: StreamFollow,
    draw: Callable[[dict[str, Any], str], None],
    say: Callable[[str], None],
    idle: asyncio.Event,
    repaint: Callable[[], None] = lambda: None,
) -> None:
    """Apply what the stream brings, forever; ``repaint()`` after each item (the toolbar)."""
    while True:
        source, kind, value = await follow.items.get()
        await idle.wait()
        if source is not follow.current:
            continue  # the stream of a game that is no longer current
        if kind == "unavailable":
            follow.polling = True
        elif kind == "event":
            follow.polling = False
        take_item(watch, kind, value, draw, say)
        repaint()
