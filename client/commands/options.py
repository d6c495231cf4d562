"""Options shared by several commands, and the shell completion of game ids."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, TypeVar

import click
from click.shell_completion import CompletionItem

from client.errors import CqError
from client.state import AppState

F = TypeVar("F", bound=Callable[..., Any])
BOARD_SIZES = (5, 7, 9, 11, 13, 15, 17)


def complete_game_ids(ctx: click.Context, param: click.Parameter, incomplete: str) -> list[Any]:
    """Game ids from the server (the games the user can see), best effort."""
    state = ctx.find_object(AppState) or AppState()
    try:
        with state.api() as api:
            games = api.games()
    except (CqError, OSError):
        return []
    return [
        CompletionItem(str(g["id"]), help=f"{g['status']} {g['size']}x{g['size']} "
                       f"{', '.join(g.get('usernames') or [])}")
        for g in games
        if str(g["id"]).startswith(incomplete)
    ]


def _default_game(ctx: click.Context, param: click.Parameter, value: int | None) -> int:
    if value is None:
        state = ctx.find_object(AppState)
        if state is not None and state.current_game is not None:
            return state.current_game
        raise click.MissingParameter(ctx=ctx, param=param)
    return value


def game_id_option(help_text: str) -> Callable[[F], F]:
    """``-g/--game-id``: required in ``cq``; the shell's current game (``use``) otherwise."""
    return click.option(
        "-g",
        "--game-id",
        "game_id",
        type=click.IntRange(min=1),
        callback=_default_game,
        metavar="<GAME_ID>",
        help=help_text,
        shell_complete=complete_game_ids,
    )


def server_url_option(help_text: str = "The url of the game server") -> Callable[[F], F]:
    return click.option(
        "-s", "--server-url", "server_url", metavar="<SERVER_URL>", help=help_text, default=None
    )


def profile_option() -> Callable[[F], F]:
    return click.option(
        "-P",
        "--profile",
        "profile_name",
        metavar="<PROFILE>",
        help="The optional profile name",
        shell_complete=complete_profiles,
    )


def complete_profiles(ctx: click.Context, param: click.Parameter, incomplete: str) -> list[Any]:
    state = ctx.find_object(AppState) or AppState()
    return [CompletionItem(n) for n in state.store.names() if n.startswith(incomplete)]


def check_board_size(ctx: click.Context, param: click.Parameter, value: int | None) -> int | None:
    if value is not None and value not in BOARD_SIZES:
        raise click.BadParameter(f"{value} is not a board size (5 to 17 uneven)", ctx, param)
    return value


def board_size_option(help_text: str, default: int | None) -> Callable[[F], F]:
    return click.option(
        "-b",
        "--board-size",
        "size",
        type=int,
        default=default,
        show_default=default is not None,
        callback=check_board_size,
        metavar="<BOARD_SIZE>",
        help=help_text,
    )


def players_option(help_text: str, default: int | None) -> Callable[[F], F]:
    return click.option(
        "-n",
        "--number-of-players",
        "players",
        type=click.Choice(["2", "4"]),
        default=None if default is None else str(default),
        show_default=default is not None,
        metavar="<NUMBER_OF_PLAYERS>",
        help=help_text,
    )
