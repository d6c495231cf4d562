"""``cq game``: show, create, list, join, change and cancel games.

The group itself is :mod:`client.commands.game_group`'s; the actions of play (move,
jump, place), messages, marks, trading, watching and leaderboards live in modules of
their own that add their commands to it (`client/cli.py` imports them all).
"""

from __future__ import annotations

import json
import os
from typing import Any

import click

from client.commands.game_group import (
    RELATIONS,
    STATUS_HELP,
    StatusChoice,
    bot_names,
    echo_game,
    game,
)
from client.commands.options import (
    board_size_option,
    game_id_option,
    invisible_walls_option,
    players_option,
)
from client.errors import InputError, RefusedError
from client.join_qr import join_link, qr_text
from client.render.game_text import render_game_list
from client.render.ratings import render_game_ratings, unknown_route
from client.safe_text import visible
from client.state import AppState, pass_state


@game.command()
@game_id_option("The ID of the game to show")
@click.option("--json", "as_json", is_flag=True,
              help="Print the game as the server's JSON (for scripts and bots)")
@click.option("-a", "--at", "at", type=click.IntRange(min=0), metavar="<N>",
              help="Show the board after the first N actions (0: the start)")
@click.option("--svg", "svg_file", type=click.Path(dir_okay=False, allow_dash=True),
              metavar="<FILE>",
              help="Write the board as an SVG picture to FILE ('-': standard output) "
              "instead of drawing it")
@click.option("--qr", "qr", is_flag=True,
              help="Print the join link of a waiting game and its QR code, for a phone to "
              "scan (a private game's: its players only)")
@pass_state
def show(
    state: AppState, game_id: int, as_json: bool, at: int | None, svg_file: str | None,
    qr: bool,
) -> None:
    """Show Game.

    The board, the players, whose turn it is and the last actions. With --at N, the board
    as it was after N actions (during play you see only what you could see). With --svg
    FILE, the board as the server draws it (what you may see of it) is written to FILE.
    With --qr, the link that opens a waiting game's web page from a phone (the server's
    PUBLIC_URL, else the address this profile uses, localhost replaced by the server's
    network address) and its QR code; a private game's link carries its code.
    """
    if qr:
        if as_json or svg_file is not None or at is not None:
            raise click.UsageError("--qr goes alone: not with --json, --svg or --at")
        with state.api() as api:
            data = api.game(game_id)
        link = join_link(data)
        click.echo(qr_text(link), nl=False)
        click.echo(f"Join game {game_id}: {link}")
        return
    if svg_file is not None:
        if as_json:
            raise click.UsageError("--svg and --json do not go together: choose one")
        with state.api() as api:
            picture = api.board_svg(game_id, at=at)
        write_svg(picture, svg_file, game_id, at)
        return
    with state.api() as api:
        data = api.game(game_id, at=at)
    if as_json:
        click.echo(json.dumps(data, indent=2, sort_keys=True))
        return
    echo_game(state, data)
    if data.get("status") == "finished" and at is None:  # each player's rating change
        with state.api() as api:
            try:
                click.echo(render_game_ratings(api.game_ratings(game_id)))
            except RefusedError as error:
                if not unknown_route(error):
                    raise


def write_svg(picture: str, target: str, game_id: int, at: int | None) -> None:
    """Write the SVG `picture` to the file `target` ('-': standard output, made safe for
    a terminal as every server text is) and say where it went."""
    if target == "-":
        click.echo("\n".join(visible(line) for line in picture.splitlines()))
        return
    try:
        with open(target, "w", encoding="utf-8", newline="\n") as file:
            file.write(picture)
    except OSError as exc:
        raise InputError(f"cannot write {target}: {exc.strerror or exc}",
                         reason="cannot_write_file") from exc
    moment = f" after {at} action{'' if at == 1 else 's'}" if at is not None else ""
    click.echo(f"Wrote the board of game {game_id}{moment} to {os.path.abspath(target)}.")


@game.command()
@click.option("--invite", "invite", is_flag=False, flag_value="", multiple=True,
              metavar="[<USER_NAME>]",
              help="Specify one or more times with a user name to send an invitation code "
              "to those users (alone: just create an invitation code)")
@click.option("-p", "--private", is_flag=True,
              help="Make this game private. Only players will see it, not others")
@players_option("Number of players (2 or 4)", 2)
@board_size_option("Board size (5 to 17 uneven)", 9)
@click.option("-m", "--masked-walls", "masked", is_flag=True,
              help="Players can not see who has placed walls and how many are left")
@invisible_walls_option("Placed walls are invisible")
@click.option("--bot", "bots", type=click.IntRange(1, 6), multiple=True,
              metavar="<LEVEL>",
              help="Seat a bot of LEVEL (1 weakest to 6) at once; repeat for more bots "
              "(the same level too: bot-1, bot-1b, ...)")
@click.option("--watch-only", "watch_only", is_flag=True,
              help="Take no seat yourself: the bots (one --bot per seat) play, you watch")
@pass_state
def new(
    state: AppState,
    invite: tuple[str, ...],
    private: bool,
    players: str,
    size: int,
    masked: bool,
    invisible: bool,
    bots: tuple[int, ...],
    watch_only: bool,
) -> None:
    """New Game.

    You become its game admin and first player. With --bot the server's bots take seats
    too; a game whose seats are all taken starts at once.
    """
    invitees = [name for name in invite if name]
    body = {
        "players": int(players),
        "size": size,
        "masked": masked,
        "invisible": invisible,
        "private": private,
        "invite": bool(invite),
        "invitees": invitees,
    }
    if bots:
        body["bots"] = list(bots)
    if watch_only:
        body["join"] = False
    with state.api() as api:
        data = api.new_game(body)
    if data["status"] == "started":
        click.echo(f"Created game {data['id']} ({data['size']}x{data['size']}, "
                   f"{data['players']} players) with {bot_names(data)}; it has started.")
        echo_game(state, data)
        return
    waiting = f" with {bot_names(data)}" if data.get("bots") else ""
    click.echo(f"Created game {data['id']} ({data['size']}x{data['size']}, "
               f"{data['players']} players){waiting}. Waiting for players.")
    if data.get("invitation_code"):
        click.echo(f"Invitation code: {data['invitation_code']}")
    if invitees:
        click.echo(f"Invitations e-mailed to: {', '.join(invitees)}")


@game.command(name="list")
@click.option("-s", "--status", type=StatusChoice(), metavar="<STATUS>", help=STATUS_HELP)
@click.option("-u", "--user", metavar="<USER>",
              help="filter on user, use 'me' for filtering on yourself")
@click.option("-g", "--game", "--relation", "relation", type=click.Choice(RELATIONS),
              metavar="<GAME>",
              help="filter on player relation [possible values: admin, player, won, current]")
@pass_state
def list_games(
    state: AppState, status: str | None, user: str | None, relation: str | None
) -> None:
    """List games.

    For example 'cq game list -u me -g won' lists the games you have won.
    """
    with state.api() as api:
        games = api.games(status=status, user=user, relation=relation)
    click.echo(render_game_list(games))


@game.command()
@game_id_option("The ID of the game to join")
@click.option("-i", "--invitation-code", metavar="<INVITATION_CODE>",
              help="The invitation code of an invite-only game to join")
@pass_state
def join(state: AppState, game_id: int, invitation_code: str | None) -> None:
    """Join game."""
    with state.api() as api:
        data = api.join_game(game_id, invitation_code)
    if data["status"] == "started":
        click.echo(f"Joined game {game_id}; it has started.")
        echo_game(state, data)
    else:
        waiting = data.get("waiting_players") or []
        click.echo(f"Joined game {game_id}; {len(waiting)} of {data['players']} players "
                   "are here, waiting for more.")


@game.command()
@game_id_option("The ID of the game to change")
@players_option("Change Number of Players (2 or 4)", None)
@board_size_option("Change Board Size (5 to 17 uneven)", None)
@click.option("-m", "--masked-walls", "masked", is_flag=True, help="Toggle Masked Walls setting")
@invisible_walls_option("Toggle Invisible Walls setting")
@click.option("-p", "--private", is_flag=True, help="Toggle Private setting")
@click.option("--invite", "invite", multiple=True, metavar="[<USER_NAME>]",
              help="Specify one or more times with a user name to send an invitation code "
              "to those users")
@pass_state
def change(
    state: AppState,
    game_id: int,
    players: str | None,
    size: int | None,
    masked: bool,
    invisible: bool,
    private: bool,
    invite: tuple[str, ...],
) -> None:
    """Change a game (GAME ADMIN only).

    Only a Waiting game changes. Going from 4 to 2 players is refused with more than two
    players waiting; with exactly two the game starts.
    """
    with state.api() as api:
        changes: dict[str, Any] = {}
        if players is not None:
            changes["players"] = int(players)
        if size is not None:
            changes["size"] = size
        if masked or invisible or private:
            current = api.game(game_id)
            for name, toggle in (("masked", masked), ("invisible", invisible),
                                 ("private", private)):
                if toggle:
                    changes[name] = not current.get(name)
        if invite:
            changes["invitees"] = list(invite)
        if not changes:
            raise click.UsageError("nothing to change: give at least one option")
        data = api.change_game(game_id, changes)
    click.echo(f"Changed game {game_id}.")
    echo_game(state, data)


@game.command()
@game_id_option("The ID of the game to cancel")
@pass_state
def cancel(state: AppState, game_id: int) -> None:
    """Cancel (participation in) a game.

    In a Waiting game that you do not administer you just leave it. An Active game, or
    any game you administer, is Cancelled.
    """
    with state.api() as api:
        data = api.withdraw(game_id)
    if data["status"] == "cancelled":
        click.echo(f"Game {game_id} is cancelled.")
    else:
        click.echo(f"You left game {game_id}; it waits for another player.")

