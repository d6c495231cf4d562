"""``cq-admin login``, ``logout`` and ``profile``: sessions and profiles as in ``cq``."""

from __future__ import annotations

import click

from admin.profiles import PROFILE_ENV
from admin.state import AdminState, pass_admin
from client.api import normalize_server_url
from client.commands.sessions import end_session, open_session
from client.errors import CqError, InputError
from client.profiles import DEFAULT_SERVER_URL, check_profile_name


def _server_url(value: str | None) -> str | None:
    if value is None:
        return None
    try:
        return normalize_server_url(value)
    except ValueError as exc:
        raise InputError(str(exc), reason="bad_server_url") from exc


@click.command()
@click.option("-s", "--server-url", metavar="<SERVER_URL>",
              help="The url of the game server (ie https://game.example.com:1234)")
@click.option("-u", "--user-name", "username", metavar="<USER_NAME>",
              help="The administrator's username (default: the profile's)")
@click.option("-p", "--password", metavar="<PASSWORD>",
              help="The password (prompted for when not given)")
@click.option("-P", "--profile", "profile_name", metavar="<PROFILE>",
              help=f"The admin profile to log in with (default: the current one, or "
              f"{PROFILE_ENV})")
@click.option("-r", "--replace", is_flag=True,
              help="End the session this user has elsewhere (cq, another cq-admin profile, "
              "the web) first; this profile's own session is replaced without it")
@pass_admin
def login(state: AdminState, server_url: str | None, username: str | None,
          password: str | None, profile_name: str | None, replace: bool) -> None:
    """Log in to a Corridor Quest server as a system administrator."""
    profile = state.store.load(check_profile_name(profile_name) if profile_name else None)
    username = username or profile.username or click.prompt("Username")
    if password is None:
        password = click.prompt("Password", hide_input=True)
    url = _server_url(server_url) or profile.server_url or DEFAULT_SERVER_URL
    with state.api(url, profile) as api:
        session = open_session(api, profile, username, password, replace,
                               "cq-admin login --replace")
        api.token = session["token"]
        try:
            is_admin = bool(api.me().get("is_admin"))
        except CqError:
            is_admin = True  # not known: the server will tell on the first command
    profile.server_url = url
    profile.username = session.get("username", username)
    profile.token = session["token"]
    state.save(profile)
    where = "" if profile.name == state.store.current_name() else (
        f" (admin profile {profile.name!r}: 'cq-admin profile switch {profile.name}' or "
        f"{PROFILE_ENV}={profile.name})")
    click.echo(f"Logged in as {profile.username} on {url}.{where}")
    if not is_admin:
        click.echo(f"Warning: {profile.username} is not a system administrator; the server "
                   "will refuse every cq-admin command.", err=True)


@click.command()
@pass_admin
def logout(state: AdminState) -> None:
    """Log out (end this profile's session)."""
    end_session(state)


@click.group()
def profile() -> None:
    """List and switch the admin profiles (apart from cq's).

    'default' is used unless 'cq-admin profile switch NAME' chose another one, or
    CQ_ADMIN_PROFILE=NAME is set for one command; 'cq-admin login -P NAME' creates one.
    """


@profile.command(name="list")
@pass_admin
def list_profiles(state: AdminState) -> None:
    """List the admin profiles (* marks the one in use)."""
    current = state.store.current_name()
    names = state.store.names()
    if not names:
        click.echo("No admin profiles yet: 'cq-admin login -s URL -u NAME' creates one.")
        return
    for name in names:
        p = state.store.load(name)
        session = "logged in" if p.token else "logged out"
        mark = "*" if name == current else " "
        click.echo(f"{mark} {name}: {p.username or '?'} on {p.server_url} ({session})")


@profile.command()
@click.argument("name")
@pass_admin
def switch(state: AdminState, name: str) -> None:
    """Use the admin profile NAME from now on."""
    state.store.switch(check_profile_name(name))
    click.echo(f"Now using the admin profile {name!r}.")
