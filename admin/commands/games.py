"""``cq-admin game`` and ``cq-admin player``: every game, private ones too."""

from __future__ import annotations

import click

from admin.output import emit, json_option
from admin.state import AdminState, pass_admin
from client.commands.game_group import RELATIONS, STATUS_HELP, StatusChoice
from client.commands.options import GAME_ID
from client.render.game_text import render_game, render_game_list


@click.group()
def game() -> None:
    """Inspect and cancel games (every game, private ones too)."""


@game.command(name="list")
@click.option("-s", "--status", type=StatusChoice(), metavar="<STATUS>", help=STATUS_HELP)
@click.option("-u", "--user", metavar="<USER>", help="filter on user")
@click.option("-g", "--game", "--relation", "relation", type=click.Choice(RELATIONS),
              metavar="<GAME>",
              help="filter on player relation [possible values: admin, player, won, current]")
@click.option("--limit", type=click.IntRange(1, 500), default=100, show_default=True,
              help="At most this many games (newest first)")
@json_option
@pass_admin
def list_games(state: AdminState, status: str | None, user: str | None, relation: str | None,
               limit: int, as_json: bool) -> None:
    """List every game, newest first (the filters of 'cq game list')."""
    with state.api() as api:
        games = api.all_games(status=status, user=user, relation=relation, limit=limit)
    emit(games, as_json, lambda: render_game_list(games))


@game.command()
@click.argument("game_id", type=GAME_ID, metavar="ID")
@json_option
@pass_admin
def show(state: AdminState, game_id: int, as_json: bool) -> None:
    """Show the game ID as a spectator sees it, with its invitation code."""
    with state.api() as api:
        found = api.admin_game(game_id)

    def text() -> str:
        code = found.get("invitation_code")
        return render_game(found, None) + (f"\nInvitation code: {code}" if code else "")

    emit(found, as_json, text)


@game.command()
@click.argument("game_id", type=GAME_ID, metavar="ID")
@json_option
@pass_admin
def cancel(state: AdminState, game_id: int, as_json: bool) -> None:
    """Cancel the waiting or started game ID (its players read that an admin did)."""
    with state.api() as api:
        found = api.cancel_game(game_id)
    emit(found, as_json, lambda: f"Game {game_id} is cancelled.")


@click.group()
def player() -> None:
    """Remove players from games."""


@player.command()
@click.option("-g", "--game", "game_id", type=GAME_ID, required=True, metavar="<ID>",
              help="The game")
@click.argument("name")
@json_option
@pass_admin
def remove(state: AdminState, game_id: int, name: str, as_json: bool) -> None:
    """Remove the player NAME from a game.

    From a waiting game the seat is freed; a started game is cancelled, with a message
    saying that an administrator removed the player.
    """
    with state.api() as api:
        answer = api.remove_player(game_id, name)
    if answer["outcome"] == "left":
        done = f"{name} was removed from game {game_id}; the seat is free."
    else:
        done = f"{name} was removed from game {game_id}; the game is cancelled."
    emit(answer, as_json, lambda: done)
