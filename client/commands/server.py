"""``cq server``: operations on the game server."""

from __future__ import annotations

import click

from client.commands.options import server_url_option
from client.state import AppState, pass_state


@click.group()
def server() -> None:
    """Operations on the game server."""


@server.command()
@server_url_option("the url of the game service (default: the profile's)")
@click.option("-m", "--motd", is_flag=True, help="the message of the day")
@click.option("-a", "--admin", is_flag=True,
              help="the email-address of the main system administrator")
@click.option("-n", "--ntfy", "--nfty", "ntfy", is_flag=True,
              help="the url of the ntfy.sh service")
@pass_state
def info(state: AppState, server_url: str | None, motd: bool, admin: bool, ntfy: bool) -> None:
    """Get information about the server.

    Without options every item is shown. No login is needed.
    """
    with state.api(server_url) as api:
        data = api.server_info()
    everything = not (motd or admin or ntfy)
    if everything:
        click.echo(f"Server: {api.server_url}")
        click.echo(f"Version: {data.get('version')}")
    if everything or motd:
        click.echo(f"Message of the day: {data.get('motd') or '(none)'}")
    if everything or admin:
        click.echo(f"Administrator e-mail: {data.get('admin_email') or '(none)'}")
    if everything or ntfy:
        click.echo(f"ntfy.sh service: {data.get('ntfy_url') or '(not configured)'}")
