"""``cq-admin``: the administrator's tool of a Corridor Quest server.

It talks to the server's HTTP API only (/api/v1/admin/...), logged in as a user with
the system-admin flag; its profiles are apart from ``cq``'s (admin/profiles.py).

Exit codes (as ``cq``'s): 0 success, 1 unexpected server answer, 2 usage error (also:
no such profile, a bad server URL), 3 not logged in / session expired / wrong
credentials, 4 refused by the server (not an administrator, no such user, the last
administrator, ...), 5 server unreachable.
"""

from __future__ import annotations

import click

from admin import __version__
from admin.commands.account import login, logout, profile
from admin.commands.audit import audit
from admin.commands.games import game, player
from admin.commands.server import server
from admin.commands.users import user
from admin.state import AdminState

CONTEXT_SETTINGS = {"help_option_names": ["-h", "--help"]}


@click.group(context_settings=CONTEXT_SETTINGS)
@click.version_option(__version__, "-V", "--version", prog_name="cq-admin")
@click.pass_context
def cli(ctx: click.Context) -> None:
    """Corridor Quest administration: users, games and the server, over the API.

    Log in first with 'cq-admin login -s URL -u NAME' as a system administrator.
    Profiles (-P NAME, CQ_ADMIN_PROFILE) are apart from cq's. Every listing takes
    --json. Exit codes: 0 ok, 1 server error, 2 usage error, 3 not logged in, 4 refused
    by the server, 5 server unreachable.
    """
    ctx.ensure_object(AdminState)


for command in (login, logout, profile, user, game, player, server, audit):
    cli.add_command(command)


def main() -> None:
    """The ``cq-admin`` console script."""
    cli(prog_name="cq-admin", obj=AdminState())


if __name__ == "__main__":
    main()
