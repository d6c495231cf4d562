"""``cq game bot``: seat one of the server's bots in a waiting game you created."""

from __future__ import annotations

import click

from client.commands.game_group import bot_names, echo_game, game
from client.commands.options import game_id_option
from client.state import AppState, pass_state


@game.command()
@game_id_option("The ID of the waiting game to seat the bot in")
@click.argument("level", type=click.IntRange(1, 6), metavar="LEVEL")
@pass_state
def bot(state: AppState, game_id: int, level: int) -> None:
    """Seat a bot.

    Seats a server's bot of LEVEL (1 weakest to 6 strongest) in a waiting game you
    created; a level seated again is another bot of it (bot-1, then bot-1b, ...). The game
    starts when its seats are full.
    """
    with state.api() as api:
        data = api.seat_bot(game_id, level)
    seated = f"Seated the bot of level {level} in game {game_id}"
    if data["status"] == "started":
        click.echo(f"{seated}; it has started ({bot_names(data)}).")
        echo_game(state, data)
    else:
        click.echo(f"{seated}. Waiting for players.")
