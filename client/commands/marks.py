"""``cq game mark`` and ``cq game unmark``: markers in invisible-walls games."""

from __future__ import annotations

import click

from client.commands.game_group import echo_game, game
from client.commands.options import game_id_option
from client.state import AppState, pass_state

NOTATION_HELP = """
\b
General:
You need to use algebraic notation for {verb} an edge.
For example: e4v means column e, row 4, orientation vertical
e4v is the edge east of e4 (between e4 and f4)
e4h is the edge north of e4 (between e4 and e5)
"""

MARK_HELP = (
    "Mark an edge.\n"
    + NOTATION_HELP.format(verb="marking")
    + """
This command is only available if the game is active and has Invisible Walls enabled:
opponents' walls are not visible on the game board. To keep track of where you think
their walls are, you can mark edges. A mark is one square long, half a wall. Only you see
your marks, whenever you show the game. You can mark edges whenever you like (you do not
have to wait for your turn) and as many as you like. You cannot mark one of your own
walls, and placing a wall removes your marks under it. When the game is Finished all walls
are shown, coloured by player, with everyone's marks as an overlay.
"""
)

UNMARK_HELP = (
    "Unmark an edge.\n"
    + NOTATION_HELP.format(verb="unmarking")
    + """
This is the opposite of mark: it removes one of your marks. Here too, you can do this any
time.
"""
)


@game.command(help=MARK_HELP)
@game_id_option("The ID of the game to mark an edge")
@click.argument("coordinate", metavar="<COORDINATE>")
@pass_state
def mark(state: AppState, game_id: int, coordinate: str) -> None:
    with state.api() as api:
        data = api.mark(game_id, coordinate)
    click.echo(f"Marked {coordinate.strip().lower()} in game {game_id}.")
    echo_game(state, data)


@game.command(help=UNMARK_HELP)
@game_id_option("The ID of the game to unmark an edge")
@click.argument("coordinate", metavar="<COORDINATE>")
@pass_state
def unmark(state: AppState, game_id: int, coordinate: str) -> None:
    with state.api() as api:
        data = api.unmark(game_id, coordinate)
    click.echo(f"Unmarked {coordinate.strip().lower()} in game {game_id}.")
    echo_game(state, data)
