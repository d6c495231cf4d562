"""``cq game leaderboard``: the 10 best users of a game variant, or by rating (--rating)."""

from __future__ import annotations

import click

from client.commands.game_group import game
from client.commands.options import board_size_option, invisible_walls_option, players_option
from client.render.ratings import render_rating_leaderboard
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

With --rating: the 10 highest ratings of a pool (--pool 2p or 4p, all sizes and
modes together) among users with at least 5 rated games, not provisional, who
played a rated game within 90 days.
"""


@game.command(help=LEADERBOARD_HELP)
@board_size_option("Board size (5 to 17 uneven)", 9)
@players_option("Number of players (2 or 4)", 2)
@click.option("-m", "--masked-walls", "masked", is_flag=True, help="Masked walls")
@invisible_walls_option("Invisible walls", old_letter=True)
@click.option("-r", "--rating", is_flag=True, help="By rating instead of best score")
@click.option("--pool", type=click.Choice(["2p", "4p"]), default=None,
              help="With --rating: the 2-player or 4-player pool (default 2p)")
@pass_state
def leaderboard(
    state: AppState, size: int, players: str, masked: bool, invisible: bool, rating: bool,
    pool: str | None,
) -> None:
    if pool is not None and not rating:
        raise click.UsageError("--pool goes with --rating")
    with state.api() as api:
        if rating:
            click.echo(render_rating_leaderboard(api.rating_leaderboard(pool or "2p")))
            return
        data = api.leaderboard(size, int(players), masked, invisible)
    click.echo(render_leaderboard(data))
