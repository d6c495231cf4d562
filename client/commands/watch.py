"""``cq game watch``: a game's board drawn again on every change, over its live stream.

:class:`GameWatcher` prints what each event of the stream brings: the board (once at
first, then whenever the game changed), a line per action and per message, and who
holds a stream open when that changes. On a terminal the board is drawn again in place
(the screen cleared first, as `watch(1)` does; the terminal's scrollback keeps the earlier
ones), with the latest message and presence lines under it; the board's last actions
stand for the action lines. Into a pipe or a file, everything is appended: a log.
:class:`~client.live_follow.GameStream` keeps the stream going across lost connections.
"""

from __future__ import annotations

import sys
from collections import deque
from typing import Any

import click

from client.commands.game_group import echo_game, game
from client.commands.options import game_id_option
from client.live_follow import LOST_NOTE, GameStream
from client.render.game_text import action_text
from client.render.message_text import message_line
from client.sse import ServerEvent
from client.state import AppState, pass_state

ENDED = ("finished", "cancelled")
RECENT_LINES = 8  # message and presence lines kept under a board drawn in place


class GameWatcher:
    """Prints a game's events; :attr:`over` once the game is finished or cancelled."""

    def __init__(self, state: AppState, in_place: bool = False) -> None:
        self.state = state
        self.in_place = in_place  # redraw on a cleared screen (a terminal)
        self.drawn: dict[str, Any] | None = None  # the game as it was drawn last
        self.online: list[str] | None = None
        self.recent: deque[str] = deque(maxlen=RECENT_LINES)  # drawn again under the board
        self.over = False

    def take(self, event: ServerEvent) -> None:
        data = event.data if isinstance(event.data, dict) else {}
        if event.name == "game":
            self.show_game(data)
        elif event.name == "action":
            if not self.in_place:  # in place, the board that follows lists it
                click.echo(action_text(data))
        elif event.name == "message":
            self.line(message_line(data))
        elif event.name == "presence":
            self.show_online(data.get("online"))

    def show_game(self, data: dict[str, Any]) -> None:
        online = list(data.get("online") or [])
        board = {key: value for key, value in data.items() if key != "online"}
        if board == self.drawn:  # a reconnection that missed nothing, or presence
            self.show_online(online)
            return
        if self.in_place:
            click.clear()
        elif self.drawn is not None:
            click.echo("")
        echo_game(self.state, data)
        for line in self.recent:
            click.echo(line)
        self.drawn = board
        self.online = online
        if data.get("status") in ENDED:
            click.echo(f"Game {data.get('id')} is {data['status']}.")
            self.over = True

    def show_online(self, names: object) -> None:
        online = [str(name) for name in names] if isinstance(names, list) else []
        if online != self.online:
            self.online = online
            self.line(f"Online: {', '.join(online) or 'no player'}")

    def line(self, text: str) -> None:
        """A line under the board (kept to be drawn again under the next one in place)."""
        if self.in_place:
            self.recent.append(text)
        click.echo(text)


@game.command()
@game_id_option("The ID of the game to watch")
@click.option("-i", "--invitation-code", metavar="<INVITATION_CODE>",
              help="The invitation code of a private game that you do not play in")
@pass_state
def watch(state: AppState, game_id: int, invitation_code: str | None) -> None:
    """Watch a game live.

    Draws the board, and draws it again whenever the game changes, with a line for each
    action and each message (that you may read) as it comes, until the game is finished
    or cancelled, or Ctrl-C. On a terminal the board is drawn again in place, with the
    latest messages under it; into a pipe or a file everything is appended. Any
    logged-in user may watch a public game. When the connection is lost, cq says so on
    stderr, reconnects and shows what it missed.
    """
    watcher = GameWatcher(state, in_place=sys.stdout.isatty())
    stream = GameStream(
        state.api, game_id, invitation_code,
        on_lost=lambda problem: click.echo(f"{LOST_NOTE} ({problem.message})", err=True),
        on_back=lambda: click.echo("connection back", err=True),
    )
    try:
        for event in stream.events():
            watcher.take(event)
            if watcher.over:
                return
    except KeyboardInterrupt:
        click.echo("", err=True)  # the line after the terminal's ^C
