"""``cq-shell``: the main loop. ``cq-shell -e "game list"`` runs one command and exits."""

from __future__ import annotations

import asyncio
import os
import sys
from typing import Any

import click
from prompt_toolkit import PromptSession
from prompt_toolkit.history import FileHistory
from prompt_toolkit.patch_stdout import patch_stdout

from client import __version__
from client.commands.game_group import board_theme
from client.commands.options import GAME_ID
from client.errors import RefusedError
from client.profiles import data_dir
from client.render.game_text import render_game
from client.shell.commands import dispatch, run_line
from client.shell.completer import ShellCompleter
from client.shell.follow import StreamFollow, follow_loop
from client.shell.keys import shell_bindings
from client.shell.live import GameWatch, redraw_if_changed, watch_loop
from client.shell.toolbar import toolbar_text
from client.state import AppState

HISTORY_FILE = "shell-history"


def history_path() -> str:
    directory = data_dir()
    directory.mkdir(parents=True, exist_ok=True)
    return str(directory / HISTORY_FILE)


def prompt_text(state: AppState) -> str:
    game = f"[{state.current_game}]" if state.current_game is not None else ""
    return f"cq{game}> "


def toolbar_width(session: PromptSession[str]) -> int:
    """The terminal's width now (the toolbar follows a resize)."""
    try:
        return int(session.app.output.get_size().columns)
    except Exception:  # noqa: BLE001  (no terminal to ask: no limit)
        return 0


def draw(state: AppState, game: dict[str, Any], note: str = "") -> None:
    theme = board_theme(state)
    text = render_game(game, theme, me=state.profile.username)
    click.echo((note + "\n" if note else "") + text, color=theme is not None)


def start_game(state: AppState, watch: GameWatch) -> None:
    """``cq-shell -g N``: fetch the game to draw it at once. A game the server refuses
    (no such game, not yours to see) is dropped as ``use`` would; while the server
    cannot be reached it stays current and is drawn when the server answers."""
    watch.after_command()
    if watch.problem is not None:
        watch.problem.show()
    if isinstance(watch.problem, RefusedError):
        state.current_game = None
        watch.after_command()


async def interactive(state: AppState, interval: float) -> int:
    watch = GameWatch(state)

    def show(game: dict[str, Any], note: str = "") -> None:
        draw(state, game, note=note)
        watch.drew(game)
        session.app.invalidate()

    def say(text: str) -> None:
        click.echo(text)
        session.app.invalidate()

    def show_board() -> None:
        if watch.game is not None:
            draw(state, watch.game)
            watch.drew(watch.game)

    def show_help() -> None:
        dispatch(state, ["help"])

    session: PromptSession[str] = PromptSession(
        history=FileHistory(history_path()),
        completer=ShellCompleter(watch),
        complete_while_typing=False,
        bottom_toolbar=lambda: toolbar_text(state, watch, toolbar_width(session)),
        key_bindings=shell_bindings(show_board, show_help),
    )
    click.echo(f"Corridor Quest shell {__version__}. 'help' lists the commands, Ctrl-D leaves.")
    if state.current_game is not None:
        await asyncio.to_thread(start_game, state, watch)
        if (game := watch.undrawn_current()) is not None:
            draw(state, game)
            watch.drew(game)
    follow = StreamFollow(state, asyncio.get_running_loop())
    follow.switch(state.current_game)
    idle = asyncio.Event()  # no command runs: what the stream brings may be applied
    idle.set()
    with patch_stdout(raw=True):
        tasks = [
            asyncio.create_task(watch_loop(watch, show, interval, repaint=session.app.invalidate,
                                           should_poll=lambda: follow.polling)),
            asyncio.create_task(follow_loop(watch, follow, show, say, idle,
                                            repaint=session.app.invalidate)),
        ]
        try:
            while True:
                try:
                    line = await session.prompt_async(lambda: prompt_text(state))
                except KeyboardInterrupt:
                    continue
                except EOFError:
                    break
                idle.clear()
                try:
                    await asyncio.to_thread(run_line, state, line)
                    await asyncio.to_thread(watch.after_command)
                    redraw_if_changed(watch, show)  # a new current game, a bot's reply
                except EOFError:
                    break
                finally:
                    follow.switch(state.current_game)
                    idle.set()
        finally:
            follow.stop()
            for task in tasks:
                task.cancel()
    return 0


@click.command(context_settings={"help_option_names": ["-h", "--help"]})
@click.option("-e", "--execute", metavar="<COMMAND>",
              help="Run one command (as typed in the shell) and exit with its exit code")
@click.option("-g", "--game-id", type=GAME_ID, metavar="<GAME_ID>",
              help="Start with this current game (as 'use GAME_ID'), its board drawn")
@click.option("--poll-interval", type=click.FloatRange(min=0.2), default=1.5, show_default=True,
              help="Seconds between checks of the current game for changes, when the "
              "server offers no live stream of it")
@click.version_option(__version__, "-V", "--version", prog_name="cq-shell")
def shell(execute: str | None, game_id: int | None, poll_interval: float) -> None:
    """Corridor Quest shell: the cq commands without the 'cq' prefix (and the game
    commands without 'game': 'message send hi' acts on the current game), with
    completion, history, a toolbar and a board that redraws when the current game
    changes (the shell follows the game's live stream, and reconnects when it is lost).
    The toolbar says when the server cannot be reached."""
    color = not os.environ.get("NO_COLOR") and sys.stdout.isatty()
    state = AppState(force_color=color or bool(os.environ.get("CQ_FORCE_COLOR")))
    state.current_game = game_id
    if execute is not None:
        sys.exit(run_line(state, execute))
    sys.exit(asyncio.run(interactive(state, poll_interval)))


def main() -> None:
    """The ``cq-shell`` console script."""
    shell(prog_name="cq-shell")


if __name__ == "__main__":
    main()
