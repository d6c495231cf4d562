"""What the account commands of `cq` and `cq-admin` share: opening and ending a profile's
session, a verification code sent, the hint that names a profile that is not the current one."""

from __future__ import annotations

import contextlib

import click

from client.api import ApiClient, Json
from client.errors import AuthError, CqError, RefusedError
from client.profiles import Profile
from client.state import AppState

VERIFIED = {
    "signup": "{username} is verified. Log in with: cq login -u {username}",
    "password": "The password of {username} is changed.",
    "email": "The e-mail address of {username} is changed.",
}


def hint_for_profile(state: AppState, name: str) -> str:
    if name == state.store.current_name():
        return ""
    return f" (profile {name!r}: run 'cq profile switch {name}' or set CQ_PROFILE={name})"


def open_session(api: ApiClient, profile: Profile, username: str, password: str,
                 replace: bool, replace_hint: str) -> Json:
    """Log ``username`` in on ``api``'s server for ``profile`` (``cq login``, ``cq-admin
    login``); the server's answer.

    The session the profile holds on that server is sent along: when it is this user's,
    the server replaces it (it is this client's own, not one "elsewhere"); when it is
    another user's, it is ended after the login, as the profile no longer holds it.
    """
    held = profile.token if profile.token and profile.server_url == api.server_url else None
    try:
        session = api.login(username, password, replace=replace, held_token=held)
    except RefusedError as exc:
        if exc.reason == "session_active":
            raise AuthError(f"{exc.message} ({replace_hint})", reason=exc.reason) from exc
        if exc.reason in ("account_unverified", "account_locked", "forbidden"):
            raise AuthError(exc.message, reason=exc.reason) from exc
        raise
    if (profile.username or "").lower() != str(session.get("username", username)).lower():
        end_held_session(api, profile)
    return session


def end_held_session(api: ApiClient, profile: Profile) -> None:
    """End the session ``profile`` holds on ``api``'s server, which it is about to forget
    (a login as another user, a signup): left open, it would make that user's next login
    elsewhere answer "already logged in elsewhere" until it expired."""
    if profile.token and profile.server_url == api.server_url:
        with contextlib.suppress(CqError):  # ended already, or the server is gone
            api.logout_token(profile.token)


def end_session(state: AppState) -> None:
    """End the current profile's session on the server and forget its token (`cq logout`,
    `cq-admin logout`)."""
    profile = state.profile
    if not profile.token:
        raise AuthError("not logged in", reason="not_logged_in")
    ended = "Logged out."
    try:
        with state.api() as api:
            api.logout()
    except AuthError:
        ended = "Logged out (the session had already ended on the server)."
    profile.token = None
    state.save(profile)
    click.echo(ended)


def run_verify(state: AppState, code: str) -> None:
    profile = state.profile
    if not profile.verification_token:
        raise CqError(
            "nothing to verify in this profile: signup, 'cq user password' or "
            "'cq user email-address' first",
            reason="nothing_to_verify",
        )
    with state.api() as api:
        # A refusal (wrong code, void request, locked account, expired code) is shown as
        # the server words it: its message already says how many attempts are left.
        answer = api.verify(profile.verification_token, code)
    purpose = answer.get("purpose") or profile.verification_purpose or "signup"
    profile.verification_token = None
    profile.verification_purpose = None
    state.save(profile)
    username = answer.get("username") or profile.username or "the user"
    click.echo(VERIFIED.get(purpose, "Verified.").format(username=username))
