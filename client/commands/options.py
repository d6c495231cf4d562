"""Options shared by several commands, and the shell completion of game ids."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any, TypeVar

import click
from click.shell_completion import CompletionItem

from client.api import normalize_server_url
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


if TYPE_CHECKING:  # generic in recent click; the project supports click 8.1 too
    _IntParamType = click.ParamType[int]
else:
    _IntParamType = click.ParamType


class GameIdType(_IntParamType):
    """A game id: a whole number from 1 up (``cq game list`` shows them)."""

    name = "game id"

    def convert(self, value: Any, param: click.Parameter | None, ctx: click.Context | None) -> int:
        if isinstance(value, int) and not isinstance(value, bool) and value >= 1:
            return value
        text = str(value).strip()
        if text.isascii() and text.isdigit() and int(text) >= 1:
            return int(text)
        self.fail(f"{value!r} is not a game id: a game id is a whole number from 1 up, "
                  "as 'cq game list' shows", param, ctx)


GAME_ID = GameIdType()


def _shell_game(ctx: click.Context | None) -> int | None:
    state = ctx.find_object(AppState) if ctx is not None else None
    return state.current_game if state is not None else None


class GameIdOption(click.Option):
    """``-g/--game-id``: required in ``cq``; in ``cq-shell`` the current game (``use``) is
    its default, and its help says so instead of "required"."""

    def get_default(self, ctx: click.Context, call: bool = True) -> Any:
        current = _shell_game(ctx)
        return current if current is not None else super().get_default(ctx, call=call)

    def get_usage_pieces(self, ctx: click.Context) -> list[str]:
        return [] if _shell_game(ctx) is not None else [f"--game-id {self.metavar}"]

    def get_help_extra(self, ctx: click.Context) -> Any:
        extra = super().get_help_extra(ctx)
        current = _shell_game(ctx)
        if current is not None:
            extra.pop("required", None)
            extra["default"] = f"the current game, {current}"
        return extra


def game_id_option(help_text: str) -> Callable[[F], F]:
    """``-g/--game-id``: required in ``cq``; the shell's current game (``use``) otherwise."""
    return click.option(
        "-g",
        "--game-id",
        "game_id",
        cls=GameIdOption,
        type=GAME_ID,
        required=True,
        metavar="<GAME_ID>",
        help=help_text,
        shell_complete=complete_game_ids,
    )


def _server_url(ctx: click.Context, param: click.Parameter, value: str | None) -> str | None:
    if value is None:
        return None
    try:
        return normalize_server_url(value)
    except ValueError as exc:
        raise click.BadParameter(str(exc), ctx, param) from exc


def server_url_option(help_text: str = "The url of the game server") -> Callable[[F], F]:
    """``-s/--server-url``: ``http://`` is assumed when the URL has no scheme."""
    return click.option(
        "-s", "--server-url", "server_url", metavar="<SERVER_URL>", default=None,
        callback=_server_url,
        help=help_text + "; without a scheme http:// is meant (localhost:3000 is "
        "http://localhost:3000)",
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


class _HiddenAliasOption(click.Option):
    """An option with an old spelling that still works but is no longer shown in help."""

    def __init__(self, *args: Any, hidden_aliases: tuple[str, ...] = (), **kwargs: Any):
        super().__init__(*args, **kwargs)
        self.hidden_aliases = hidden_aliases

    def get_help_record(self, ctx: click.Context) -> tuple[str, str] | None:
        every = self.opts
        self.opts = [name for name in every if name not in self.hidden_aliases]
        try:
            return super().get_help_record(ctx)
        finally:
            self.opts = every


def invisible_walls_option(help_text: str, old_letter: bool = False) -> Callable[[F], F]:
    """-x/--invisible-walls, the one letter of every command (-i is an invitation code
    elsewhere); with `old_letter`, the command's former -i still works, unlisted."""
    aliases = ("-i",) if old_letter else ()
    return click.option(
        "-x", "--invisible-walls", *aliases, "invisible", cls=_HiddenAliasOption,
        hidden_aliases=aliases, is_flag=True, help=help_text,
    )
