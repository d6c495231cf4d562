"""``cq server``: operations on the game server."""

from __future__ import annotations

import click

from client.commands.options import server_url_option
from client.discovery import FIND_WAIT, describe, find_servers
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


@server.command()
@click.option("-w", "--wait", type=click.FloatRange(0.1, 30), default=FIND_WAIT,
              show_default=True, metavar="<SECONDS>", help="how long to listen")
def find(wait: float) -> None:
    """List the Corridor Quest servers on the local network.

    Servers announce themselves by mDNS/DNS-SD (the server's DISCOVERY setting); each
    one heard within the wait is shown with its name, URL and version. Use the URL with
    -s, as in `cq signup -s URL ...`.
    """
    servers = find_servers(wait)
    if not servers:
        click.echo(f"No Corridor Quest server answered within {wait:g} s (a server announces "
                   "itself when it listens on the network, or with DISCOVERY=on).")
        return
    for number, found in enumerate(servers, 1):
        click.echo(f"{number}. {describe(found)}")
