"""``cq game leaderboard``: the 10 best users of a game variant."""

from __future__ import annotations

import click

from client.commands.game_group import game
from client.commands.options import board_size_option, players_option
from client.render.scores import render_leaderboard
from client.state import AppState, pass_state

LEADERBOARD_HELP = """Show Leaderboard.

\b
General:
Leaderboards are per unique combination of board size,
number of players, masked walls and invisible walls.
This is because scores must be comparable for a leaderboard

This command shows the max 10 users with the highest scores in a Game Variant. The
options specify the game variant, with a default for each one. Users with equal scores
share a rank; the one who reached the score first is listed first.
"""


@game.command(help=LEADERBOARD_HELP)
@board_size_option("Board size (5 to 17 uneven)", 9)
@players_option("Number of players (2 or 4)", 2)
@click.option("-m", "--masked-walls", "masked", is_flag=True, help="Masked walls")
@click.option("-i", "--invisible-walls", "invisible", is_flag=True, help="Invisible walls")
@pass_state
def leaderboard(state: AppState, size: int, players: str, masked: bool, invisible: bool) -> None:
    with state.api() as api:
        data = api.leaderboard(size, int(players), masked, invisible)
    click.echo(render_leaderboard(data))
