"""``cq-admin user``: list, inspect and manage accounts."""

from __future__ import annotations

from typing import Any

import click

from admin.output import emit, json_option, table, yes
from admin.state import AdminState, pass_admin


@click.group()
def user() -> None:
    """Manage user accounts."""


@user.command(name="list")
@click.option("--locked", is_flag=True, help="Only locked accounts")
@click.option("--unverified", is_flag=True, help="Only accounts whose signup is not verified")
@click.option("--admins", is_flag=True, help="Only system administrators")
@click.option("--search", metavar="<TEXT>", help="Text in the username or e-mail address")
@click.option("--limit", type=click.IntRange(1, 1000), default=200, show_default=True,
              help="At most this many accounts")
@json_option
@pass_admin
def list_users(state: AdminState, locked: bool, unverified: bool, admins: bool,
               search: str | None, limit: int, as_json: bool) -> None:
    """List accounts (the filters combine), by username."""
    with state.api() as api:
        users = api.users(locked=locked, unverified=unverified, admins=admins, search=search,
                          limit=limit)
    rows = [[u["username"], u["email"], yes(u["is_admin"]), yes(u["verified"]),
             yes(u["locked"]), u["created_at"]] for u in users]
    emit(users, as_json, lambda: table(
        ["Username", "E-mail", "Admin", "Verified", "Locked", "Created"], rows,
        "No users found."))


def _detail(u: dict[str, Any]) -> str:
    sessions = u["sessions"]
    failed = u["failed_logins"]
    games = ", ".join(f"{status} {count}" for status, count in u["games"].items())
    active = ", ".join(str(g) for g in u["active_games"]) or "none"
    return "\n".join([
        f"User {u['username']}",
        f"E-mail: {u['email']}",
        f"Description: {u['description'] or '-'}",
        f"Administrator: {yes(u['is_admin'])} · Verified: {yes(u['verified'])} · "
        f"Locked: {yes(u['locked'])}",
        f"Created: {u['created_at']} · Password changed: {u['password_changed_at']}",
        f"Sessions: {sessions['active']} active · last seen {sessions['last_seen_at'] or '-'}",
        f"Games: {games} · waiting or started: {active}",
        f"Failed logins: {failed['last_day']} in the last day · last {failed['last_at'] or '-'}",
    ])


@user.command()
@click.argument("name")
@json_option
@pass_admin
def show(state: AdminState, name: str, as_json: bool) -> None:
    """Everything about the account NAME: state, sessions, games, failed logins."""
    with state.api() as api:
        found = api.user_detail(name)
    emit(found, as_json, lambda: _detail(found))


@user.command()
@click.argument("name")
@click.argument("new_name")
@json_option
@pass_admin
def rename(state: AdminState, name: str, new_name: str, as_json: bool) -> None:
    """Rename the bot NAME to NEW_NAME (bots only: people choose their own names).

    The bot keeps its level; the rename is in the audit log.
    """
    with state.api() as api:
        answer = api.rename_bot(name, new_name)
    emit(answer, as_json, lambda: f"Renamed the bot {name} (level "
         f"{(answer.get('bot') or {}).get('level', '?')}) to {answer['username']}.")


def _change(change: str, doc: str, done: str) -> None:
    @user.command(name=change, help=doc)
    @click.argument("name")
    @json_option
    @pass_admin
    def command(state: AdminState, name: str, as_json: bool) -> None:
        with state.api() as api:
            answer = api.user_change(name, change)
        emit(answer, as_json, lambda: done.format(name=answer.get("username", name)))


_change("lock", "Lock the account NAME: its sessions end and it cannot log in.",
        "{name} is locked.")
_change("unlock", "Unlock the account NAME.", "{name} is unlocked.")
_change("verify", "Verify the account NAME (a signup whose code e-mail never came).",
        "{name} is verified and may log in.")
_change("promote", "Make NAME a system administrator.", "{name} is a system administrator.")
_change("demote", "Make NAME a plain user again (never the last administrator).",
        "{name} is no longer a system administrator.")


@user.command()
@click.argument("name")
@json_option
@pass_admin
def logout(state: AdminState, name: str, as_json: bool) -> None:
    """End every session of the account NAME."""
    with state.api() as api:
        answer = api.user_change(name, "logout")
    ended = answer["sessions_ended"]
    emit(answer, as_json,
         lambda: f"{answer['username']}: {ended} session{'' if ended == 1 else 's'} ended.")


@user.command()
@click.argument("name")
@click.argument("email")
@json_option
@pass_admin
def convert(state: AdminState, name: str, email: str, as_json: bool) -> None:
    """Turn the guest NAME into a full account with the e-mail address EMAIL.

    The guest mark goes (its games from now on are rated; the earlier ones stay
    unrated), its browser's session stays. It has no password yet: it sets one with
    `cq user password -u NAME` (or the web's forgotten password), whose code is mailed
    to EMAIL, then `cq verify`. To remove a guest: `cq-admin user delete NAME`.
    """
    with state.api() as api:
        answer = api.convert_guest(name, email)
    emit(answer, as_json, lambda: f"{answer['username']} is a full account now, with the "
         f"e-mail address {answer['email']}; it sets a password with a forgotten-password "
         "code mailed there.")


@user.command()
@click.argument("name")
@click.option("-y", "--yes", "assume_yes", is_flag=True, help="Do not ask for confirmation")
@json_option
@pass_admin
def delete(state: AdminState, name: str, assume_yes: bool, as_json: bool) -> None:
    """Delete the account NAME.

    Its waiting games are left (or cancelled where it is the game admin), its started
    games cancelled with a message; finished games and scores keep it as
    'deleted-user-<id>'. Asks for confirmation unless --yes.
    """
    if not assume_yes:
        click.confirm(f"Delete the account {name}? Its started games will be cancelled",
                      abort=True)
    with state.api() as api:
        answer = api.delete_user(name)

    def text() -> str:
        left = ", ".join(map(str, answer["games_left"])) or "none"
        cancelled = ", ".join(map(str, answer["games_cancelled"])) or "none"
        return (f"{answer['username']} is deleted (kept as {answer['deleted_as']} in "
                f"finished games). Games left: {left}. Games cancelled: {cancelled}.")

    emit(answer, as_json, text)
