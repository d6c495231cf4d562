"""``cq profile``: list and switch the client's profiles.

``cq profile list`` asks each profile's server whether its session still works (a
session ends when it expires or when the user logs in elsewhere with ``--replace``), a
few seconds at most and all profiles at once; ``--offline`` shows what the files say
without asking.
"""

from __future__ import annotations

from concurrent.futures import ThreadPoolExecutor

import click

from client.api import ApiClient
from client.commands.options import complete_profiles
from client.errors import AuthError, ConnectionFailed, CqError
from client.profiles import Profile, ProfileStore
from client.state import AppState, pass_state

CHECK_TIMEOUT = 5.0


@click.group()
def profile() -> None:
    """Operation on profiles.

    A profile remembers a server URL, a username and its session. 'default' is used
    unless 'cq profile switch NAME' chose another one, or CQ_PROFILE=NAME is set for one
    command. 'cq signup' and 'cq login' take -P/--profile NAME.
    """


def session_status(p: Profile) -> str:
    """What the server says about the profile's session, in a few words."""
    try:
        with ApiClient(p.server_url, p.token, timeout=CHECK_TIMEOUT) as api:
            api.me()
    except AuthError:
        return "session ended (expired, or replaced by a login elsewhere): 'cq login'"
    except ConnectionFailed:
        return "has a session, not checked: the server cannot be reached"
    except CqError as exc:
        return f"has a session, not checked: {exc.message}"
    return "logged in"


def missing_line(store: ProfileStore, name: str) -> str:
    source = store.current_source()
    if source == "CQ_PROFILE":
        why = f"chosen by CQ_PROFILE={name}; 'cq login -P {name}' creates it"
    elif source == "switch":
        why = ("chosen with 'cq profile switch'; 'cq profile switch NAME' picks another, "
               "'cq login' creates it")
    else:
        return f"{name}: does not exist yet ('cq login' or 'cq signup' creates it)"
    return f"{name}: does not exist ({why})"


@profile.command(name="list")
@click.option("--offline", is_flag=True,
              help="Do not ask the servers whether the sessions still work")
@pass_state
def list_profiles(state: AppState, offline: bool) -> None:
    """List Profiles.

    '*' marks the profile in use (also when it does not exist). Unless --offline is
    given, each profile with a session asks its server whether the session still works:
    a session ends when it expires or when the user logs in elsewhere with --replace.
    """
    store = state.store
    names = store.names()
    if not names and store.current_source() is None:
        click.echo("No profiles yet: 'cq signup' or 'cq login' creates one.")
        return
    current = store.current_name()
    profiles = {name: store.load(name) for name in names}
    with_session = [p for p in profiles.values() if p.token]
    statuses: dict[str, str] = {}
    if offline:
        statuses = {p.name: "has a session, not checked" for p in with_session}
    elif with_session:
        with ThreadPoolExecutor(max_workers=min(8, len(with_session))) as pool:
            statuses = dict(zip([p.name for p in with_session],
                                pool.map(session_status, with_session), strict=True))
    for name in sorted({*names, current}):
        mark = "*" if name == current else " "
        if name not in profiles:
            click.echo(f"{mark} {missing_line(store, name)}")
            continue
        p = profiles[name]
        who = p.username or "(no user)"
        status = statuses.get(name, "logged out")
        if p.verification_token:
            status += f", {p.verification_purpose or 'a'} verification pending"
        click.echo(f"{mark} {name}: {who} on {p.server_url} ({status})")


@profile.command()
@click.argument("name", metavar="<NAME>", shell_complete=complete_profiles)
@pass_state
def switch(state: AppState, name: str) -> None:
    """Switch Profile (permanently, for every later command).

    The profile must exist ('cq login -P NAME' creates one); otherwise the exit code is
    2 and the existing profiles are listed.
    """
    state.store.switch(name)
    state.profile_name = None
    state.reload()
    click.echo(f"Switched to profile {name!r}.")
