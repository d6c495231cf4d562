"""The actions of play: ``cq game move``, ``jump`` and ``place``."""

from __future__ import annotations

from collections.abc import Callable

import click

from client.commands.game_group import echo_game, game
from client.commands.options import game_id_option
from client.errors import CqError
from client.legal import legal_targets
from client.render.game_text import action_text
from client.state import AppState, pass_state

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


def act(state: AppState, game_id: int, kind: str, to: str) -> None:
    with state.api() as api:
        data = api.act(game_id, kind, to)
    actions = data.get("last_actions") or []
    if actions:
        click.echo(action_text(actions[-1]))
    echo_game(state, data)


@game.command(help=MOVE_HELP)
@game_id_option("The ID of the game to move the pawn")
@click.argument("to", metavar="<TO>", shell_complete=complete_targets("move"))
@pass_state
def move(state: AppState, game_id: int, to: str) -> None:
    act(state, game_id, "move", to)


@game.command(help=JUMP_HELP)
@game_id_option("The ID of the game to move the pawn")
@click.argument("to", metavar="<TO>", shell_complete=complete_targets("jump"))
@pass_state
def jump(state: AppState, game_id: int, to: str) -> None:
    act(state, game_id, "jump", to)


@game.command(help=PLACE_HELP)
@game_id_option("The ID of the game to place the wall")
@click.argument("on", metavar="<ON>", shell_complete=complete_targets("wall"))
@pass_state
def place(state: AppState, game_id: int, on: str) -> None:
    act(state, game_id, "wall", on)
