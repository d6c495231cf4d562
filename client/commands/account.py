"""Root commands for the account: signup, login, logout, verify."""

from __future__ import annotations

import sys
from collections.abc import Iterator
from contextlib import contextmanager

import click

from client.commands.options import profile_option, server_url_option
from client.commands.sessions import (
    end_held_session,
    end_session,
    hint_for_profile,
    open_session,
    run_verify,
)
from client.discovery import offer_found_server
from client.errors import ConnectionFailed, CqError
from client.profiles import DEFAULT_SERVER_URL, Profile, check_profile_name
from client.state import AppState, pass_state


def _server_url(state: AppState, profile: Profile, given: str | None) -> str:
    """-s, else the profile's server; a new profile at a terminal is offered the servers
    found on the local network (`cq server find`) first."""
    if given:
        return given
    if not state.store.exists(profile.name) and sys.stdin.isatty():
        return offer_found_server(DEFAULT_SERVER_URL)
    return profile.server_url or DEFAULT_SERVER_URL


@contextmanager
def named_server_hint(url: str, given: str | None) -> Iterator[None]:
    """A server that does not answer at the default address, tried because no -s was
    given (without a terminal, nothing is looked for on the network): say how to name
    one, rather than a bare "connection refused"."""
    try:
        yield
    except ConnectionFailed as error:
        if given or url != DEFAULT_SERVER_URL:
            raise
        raise ConnectionFailed(
            f"{error.message}. No server was named, so cq tried its default, {url}: give "
            "the server's address with -s URL (e.g. -s http://192.168.1.23:3000), or list "
            "the servers on the local network with: cq server find",
            error.reason, error.data,
        ) from None


@click.command()
@server_url_option("the url of the game service")
@click.option("-u", "--user-name", "username", required=True, metavar="<USER_NAME>",
              help="the unique identifier of the user")
@click.option("-d", "--description", metavar="<DESCRIPTION>",
              help="An optional description of the user")
@click.option("-e", "--email-address", "email", required=True, metavar="<EMAIL_ADDRESS>",
              help="Email Address of the user")
@click.option("-p", "--password", metavar="<PASSWORD>", help="The password for the user "
              "(prompted for when not given)")
@click.option("-n", "--ntfy-dm-topic", metavar="<NTFY_DM_TOPIC>",
              help="The optional ntfy DM topic")
@profile_option()
@pass_state
def signup(
    state: AppState,
    server_url: str | None,
    username: str,
    description: str | None,
    email: str,
    password: str | None,
    ntfy_dm_topic: str | None,
    profile_name: str | None,
) -> None:
    """Signup to a Corridor Quest server (create a user)."""
    profile = state.store.load(check_profile_name(profile_name) if profile_name else None)
    url = _server_url(state, profile, server_url)
    if password is None:
        password = click.prompt("Password", hide_input=True, confirmation_prompt=True)
    body = {"username": username, "email": email, "password": password}
    if description is not None:
        body["description"] = description
    if ntfy_dm_topic is not None:
        body["ntfy_dm_topic"] = ntfy_dm_topic
    with named_server_hint(url, server_url), state.api(url, profile) as api:
        answer = api.signup(body)
        end_held_session(api, profile)  # the profile forgets it: end it, not leave it open
    profile.server_url = url
    profile.username = answer.get("username", username)
    profile.token = None
    profile.verification_token = answer["verification_token"]
    profile.verification_purpose = answer.get("purpose", "signup")
    state.save(profile)
    click.echo(f"Signed up as {profile.username} on {url}.")
    click.echo(
        f"A verification code was e-mailed to {email}; confirm with: cq verify -c <CODE>"
        + hint_for_profile(state, profile.name)
    )


@click.command()
@server_url_option("The url of the game server (ie https://game.example.com:1234)")
@click.option("-u", "--user-name", "username", metavar="<USER_NAME>",
              help="The username (default: the profile's)")
@click.option("-p", "--password", metavar="<PASSWORD>",
              help="The password (prompted for when not given)")
@profile_option()
@click.option("-r", "--replace", is_flag=True,
              help="End the session this user has elsewhere (another profile, computer or "
              "the web) and start a new one; this profile's own session is replaced "
              "without it")
@pass_state
def login(
    state: AppState,
    server_url: str | None,
    username: str | None,
    password: str | None,
    profile_name: str | None,
    replace: bool,
) -> None:
    """Login to a Corridor Quest server."""
    profile = state.store.load(check_profile_name(profile_name) if profile_name else None)
    url = _server_url(state, profile, server_url)
    username = username or profile.username
    if not username:
        username = click.prompt("Username")
    if password is None:
        password = click.prompt("Password", hide_input=True)
    with named_server_hint(url, server_url), state.api(url, profile) as api:
        session = open_session(api, profile, username, password, replace, "cq login --replace")
        api.token = session["token"]
        try:
            profile.theme = api.me().get("theme")
        except CqError:
            profile.theme = None
    if profile.username != session.get("username", username):
        profile.verification_token = None
        profile.verification_purpose = None
    profile.server_url = url
    profile.username = session.get("username", username)
    profile.token = session["token"]
    state.save(profile)
    click.echo(f"Logged in as {profile.username} on {url}." + hint_for_profile(state, profile.name))


@click.command()
@pass_state
def logout(state: AppState) -> None:
    """Logout from a Corridor Quest server."""
    end_session(state)


@click.command()
@click.option("-c", "--code", required=True, metavar="<VERIFICATION_CODE>",
              help="The verification code")
@pass_state
def verify(state: AppState, code: str) -> None:
    """Validate security sensitive actions."""
    run_verify(state, code)
