"""``cq``: the Corridor Quest command line client.

Exit codes: 0 success, 1 unexpected server answer, 2 usage error (bad options or
values, a profile that does not exist, a server URL that is not http(s)), 3 not logged
in / session expired / wrong credentials, 4 refused by the server (not your turn,
illegal action, no such game, ...), 5 server unreachable (or not speaking HTTPS).
"""

from __future__ import annotations

import click

from client import __version__
from client.commands import (  # noqa: F401  (each adds its commands to the `game` group)
    analysis,
    bots,
    game,
    leaderboard,
    marks,
    messages,
    play,
    records,
    rematch,
    trade,
    watch,
)
from client.commands.account import login, logout, signup, verify
from client.commands.game_group import game as game_group
from client.commands.profiles_cmd import profile
from client.commands.server import server
from client.commands.tournament import tournament
from client.commands.user import user
from client.state import AppState

CONTEXT_SETTINGS = {"help_option_names": ["-h", "--help"]}


@click.group(context_settings=CONTEXT_SETTINGS)
@click.version_option(__version__, "-V", "--version", prog_name="cq")
@click.pass_context
def cli(ctx: click.Context) -> None:
    """Corridor Quest: play on a Corridor Quest server from the terminal.

    Exit codes: 0 ok, 1 server error, 2 usage error (also: no such profile, a bad
    server URL), 3 not logged in or session expired, 4 refused by the server, 5 server
    unreachable.
    """
    ctx.ensure_object(AppState)


user.add_command(profile)  # `cq user profile` is `cq profile`
for command in (signup, login, logout, verify, server, user, profile, game_group, tournament):
    cli.add_command(command)
cli.add_command(leaderboard.leaderboard)  # `cq leaderboard` is `cq game leaderboard`


def main() -> None:
    """The ``cq`` console script."""
    cli(prog_name="cq", obj=AppState())


if __name__ == "__main__":
    main()
