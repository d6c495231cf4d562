"""``cq game rematch``: the same game again, after it finished."""

from __future__ import annotations

from typing import Any

import click

from client.commands.game_group import bot_names, echo_game, game
from client.commands.options import game_id_option
from client.state import AppState, pass_state


def opponents(data: dict[str, Any], me: str | None) -> str:
    """The other players of a game view: its people ("bob"), then its bots ("bot-2 (level
    2)", as `bot_names` says them)."""
    bots = data.get("bots") or {}
    people = [
        str(seat["username"]) for seat in data.get("seats") or ()
        if seat["username"] != me and seat["username"] not in bots
    ]
    return ", ".join([*people, bot_names(data)] if bots else people)


@game.command()
@game_id_option("The ID of the finished game to play again")
@pass_state
def rematch(state: AppState, game_id: int) -> None:
    """Play a finished game again.

    Creates the same game (size, players, modes, privacy) with you as its admin: its bots
    take their seats again and its other players are invited (by e-mail and ntfy, as they
    chose). Against bots only, the new game starts at once. When another player of the
    game asked first, you join that rematch instead; when you are in it already, this
    shows it.
    """
    with state.api() as api:
        data = api.rematch(game_id)
    made = f"Rematch of game {game_id}: game {data['id']}"
    if data["status"] == "started":
        click.echo(f"{made} with {opponents(data, state.profile.username)}; it has started.")
        echo_game(state, data)
        return
    click.echo(f"{made}. Waiting for players: the others of game {game_id} are invited.")
    if data.get("invitation_code"):
        click.echo(f"Invitation code: {data['invitation_code']}")
