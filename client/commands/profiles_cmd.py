"""``cq profile``: list and switch the client's profiles."""

from __future__ import annotations

import click

from client.commands.options import complete_profiles
from client.state import AppState, pass_state


@click.group()
def profile() -> None:
    """Operation on profiles.

    A profile remembers a server URL, a username and its session. 'default' is used
    unless 'cq profile switch NAME' chose another one, or CQ_PROFILE=NAME is set for one
    command. 'cq signup' and 'cq login' take -P/--profile NAME.
    """


@profile.command(name="list")
@pass_state
def list_profiles(state: AppState) -> None:
    """List Profiles."""
    names = state.store.names()
    if not names:
        click.echo("No profiles yet: 'cq signup' or 'cq login' creates one.")
        return
    current = state.store.current_name()
    for name in names:
        p = state.store.load(name)
        mark = "*" if name == current else " "
        who = p.username or "(no user)"
        status = "logged in" if p.token else "logged out"
        if p.verification_token:
            status += f", {p.verification_purpose or 'a'} verification pending"
        click.echo(f"{mark} {name}: {who} on {p.server_url} ({status})")


@profile.command()
@click.argument("name", metavar="<NAME>", shell_complete=complete_profiles)
@pass_state
def switch(state: AppState, name: str) -> None:
    """Switch Profile (permanently, for every later command)."""
    state.store.switch(name)
    state.profile_name = None
    state.reload()
    click.echo(f"Switched to profile {name!r}.")
