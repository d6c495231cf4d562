"""``cq-admin server``: MOTD, message limit, broadcast, statistics, settings."""

from __future__ import annotations

from typing import Any

import click

from admin.output import emit, json_option, table
from admin.state import AdminState, pass_admin
from client.errors import InputError


@click.group()
def server() -> None:
    """Manage the server: MOTD, message limit, broadcasts, statistics, settings."""


@server.command()
@click.argument("text", required=False)
@click.option("--clear", is_flag=True, help="Remove the MOTD set here (the MOTD setting, "
              "if any, applies again)")
@json_option
@pass_admin
def motd(state: AdminState, text: str | None, clear: bool, as_json: bool) -> None:
    """Set the message of the day to TEXT, or --clear it."""
    if clear == (text is not None):
        raise InputError("give the new message of the day, or --clear (not both)",
                         reason="bad_usage")
    with state.api() as api:
        answer = api.clear_motd() if clear else api.set_motd(text or "")
    shown = answer.get("motd")
    emit(answer, as_json, lambda: f"Message of the day: {shown}" if shown
         else "No message of the day.")


@server.command(name="message-limit")
@click.argument("limit", type=click.IntRange(min=0), metavar="N")
@json_option
@pass_admin
def message_limit(state: AdminState, limit: int, as_json: bool) -> None:
    """Let each player write at most N messages per game (from now on)."""
    with state.api() as api:
        answer = api.set_message_limit(limit)
    emit(answer, as_json,
         lambda: f"Message limit: {answer['message_limit']} messages per player and game.")


@server.command()
@click.argument("text")
@json_option
@pass_admin
def broadcast(state: AdminState, text: str, as_json: bool) -> None:
    """Post TEXT as a system message to every waiting and started game."""
    with state.api() as api:
        answer = api.broadcast(text)
    emit(answer, as_json, lambda: f"Sent to {len(answer['games'])} game(s).")


def _stats(s: dict[str, Any]) -> str:
    users = ", ".join(f"{k} {v}" for k, v in s["users"].items())
    games = ", ".join(f"{k} {v}" for k, v in s["games"].items())
    outbox = ", ".join(f"{k} {v}" for k, v in s["outbox_pending"].items()) or "nothing"
    rows = [[f"{v['size']}x{v['size']}", v["players"], "yes" if v["masked"] else "no",
             "yes" if v["invisible"] else "no", v["status"], v["games"]] for v in s["variants"]]
    return "\n".join([
        f"Users: {users}",
        f"Games: {games}",
        f"Actions in the last day: {s['actions_last_day']}",
        f"Active sessions: {s['active_sessions']}",
        f"Outbox pending: {outbox}",
        f"Message of the day: {s['motd'] or '-'}",
        f"Message limit: {s['message_limit']}",
        "",
        table(["Size", "Players", "Masked", "Invisible", "Status", "Games"], rows,
              "No games yet."),
    ])


@server.command()
@json_option
@pass_admin
def stats(state: AdminState, as_json: bool) -> None:
    """Users by state, games by state and variant, activity, sessions, outbox."""
    with state.api() as api:
        answer = api.stats()
    emit(answer, as_json, lambda: _stats(answer))


@server.command()
@json_option
@pass_admin
def maintenance(state: AdminState, as_json: bool) -> None:
    """Run the scheduler's sweeps now and print what each did.

    Removes stalled players, sends the reminders and digests due, and purges what is past
    its retention, as the scheduler does on its own every SCHEDULER_INTERVAL.
    """
    with state.api() as api:
        answer = api.maintenance()
    emit(answer, as_json, lambda: "\n".join(
        f"{step['what']}: {step['count']}" for step in answer["steps"]))


@server.command()
@json_option
@pass_admin
def settings(state: AdminState, as_json: bool) -> None:
    """The server's effective settings (secrets hidden)."""
    with state.api() as api:
        answer = api.settings()
    values = answer["settings"]
    emit(values, as_json, lambda: "\n".join(
        f"{name.upper()}={_env_value(value)}" for name, value in values.items()))


def _env_value(value: object) -> str:
    """A setting as corridorquest.env writes it (`true`, not Python's `True`)."""
    if value is None:
        return ""
    if isinstance(value, bool):
        return "true" if value else "false"
    return str(value)
