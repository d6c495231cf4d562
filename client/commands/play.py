"""The actions of play: ``cq game move``, ``jump`` and ``place``."""

from __future__ import annotations

import threading
from collections.abc import Callable
from typing import Any, TypeVar

import click

from client.commands.game_group import echo_game, game
from client.commands.options import game_id_option
from client.errors import CqError
from client.legal import legal_targets
from client.live_follow import GameStream
from client.render.game_text import action_text
from client.state import AppState, pass_state

F = TypeVar("F", bound=Callable[..., Any])
WAIT_DEFAULT = 300.0  # seconds `--wait` waits when it is given no number

MOVE_HELP = """Move your pawn.

\b
You can use 3 methods to specify the move:
1. algebraic notation. For example: 'e4' means column e, row 4
2. compass notation ('north', 'south', 'west', 'east')
3. directional notation ('up', 'down', 'left', 'right')
"""

JUMP_HELP = """Jump your pawn over another pawn.

\b
You can use several methods to specify the jump:
1. algebraic notation. For example: 'e4' means column e, row 4
2. compass notation ('north', 'south', 'west', 'east')
3. compass diagonal notation ('north-west', 'north,east', 'southwest', 'east-south', etc)
4. directional notation ('up', 'down', 'left', 'right')
5. directional diagonal notation ('up-left', 'up,right', 'down-left', 'downright', etc)
"""

PLACE_HELP = """Place a wall.

\b
You need to use algebraic notation for the placement.
For example: 'e4v' means column e, row 4, orientation vertical
The coordinate is the square of the wall's 2x2 block closest to a1:
e4v is a vertical wall between columns e and f spanning rows 4 to 5
c3h is a horizontal wall between rows 3 and 4 spanning columns c to d
"""


def complete_targets(kind: str) -> Callable[[click.Context, click.Parameter, str], list[str]]:
    """Shell completion of the squares or walls that are legal now (best effort)."""

    def complete(ctx: click.Context, param: click.Parameter, incomplete: str) -> list[str]:
        state = ctx.find_object(AppState) or AppState()
        game_id = ctx.params.get("game_id") or state.current_game
        if not game_id:
            return []
        try:
            with state.api() as api:
                data = api.game(int(game_id))
        except (CqError, OSError):
            return []
        return [t for t in legal_targets(data, kind) if t.startswith(incomplete)]

    return complete


def wait_option(f: F) -> F:
    """``-w/--wait [SECONDS]``: after the action, wait for the players after you."""
    return click.option(
        "-w", "--wait", "wait",
        type=click.FloatRange(min=1, max=86400), is_flag=False, flag_value=WAIT_DEFAULT,
        default=None, metavar="[SECONDS]",
        help="Then wait, up to SECONDS (300 when none is given; put it after <TO>), for "
        "the players after you (bots or people), and print the board when it is your "
        "turn again or the game is over.",
    )(f)


def act(state: AppState, game_id: int, kind: str, to: str, wait: float | None = None) -> None:
    with state.api() as api:
        data = api.act(game_id, kind, to)
    actions = data.get("last_actions") or []
    if actions:
        click.echo(action_text(actions[-1]))
    echo_game(state, data)
    if wait is not None:
        wait_for_turn(state, game_id, data, wait)


def _settled(view: dict[str, Any], me: str | None) -> bool:
    """Whether the waiting is over: the game ended, or it is `me` to play."""
    return view.get("status") != "started" or view.get("turn_username") == me


def wait_for_turn(state: AppState, game_id: int, shown: dict[str, Any], seconds: float) -> None:
    """Follow the game's live stream until it is this user's turn again or the game is
    over, and print the board then; after `seconds`, say whose turn it still is."""
    me = state.profile.username
    if _settled(shown, me):
        return
    stream = GameStream(
        state.api, game_id,
        on_lost=lambda problem: click.echo(f"connection lost ({problem.message})", err=True),
        on_back=lambda: click.echo("connection back", err=True),
    )
    timer = threading.Timer(seconds, stream.close)
    timer.daemon = True
    timer.start()
    latest = shown
    try:
        for event in stream.events():
            view = event.data
            if event.name != "game" or not isinstance(view, dict):
                continue
            if int(view.get("revision") or 0) < int(latest.get("revision") or 0):
                continue
            latest = view
            if _settled(view, me):
                echo_game(state, view)
                return
    finally:
        timer.cancel()
        stream.close()
    click.echo(f"Still {latest.get('turn_username')}'s turn after waiting {seconds:g} s.")


@game.command(help=MOVE_HELP)
@game_id_option("The ID of the game to move the pawn")
@click.argument("to", metavar="<TO>", shell_complete=complete_targets("move"))
@wait_option
@pass_state
def move(state: AppState, game_id: int, to: str, wait: float | None) -> None:
    act(state, game_id, "move", to, wait)


@game.command(help=JUMP_HELP)
@game_id_option("The ID of the game to move the pawn")
@click.argument("to", metavar="<TO>", shell_complete=complete_targets("jump"))
@wait_option
@pass_state
def jump(state: AppState, game_id: int, to: str, wait: float | None) -> None:
    act(state, game_id, "jump", to, wait)


@game.command(help=PLACE_HELP)
@game_id_option("The ID of the game to place the wall")
@click.argument("on", metavar="<ON>", shell_complete=complete_targets("wall"))
@wait_option
@pass_state
def place(state: AppState, game_id: int, on: str, wait: float | None) -> None:
    act(state, game_id, "wall", on, wait)
