"""``cq game message``: send, list and mute in-game messages."""

from __future__ import annotations

import click

from client.commands.game_group import game
from client.commands.options import game_id_option
from client.render.message_text import message_line
from client.state import AppState, pass_state


@game.group(name="message")
def message() -> None:
    """Operation on game messages.

    Every change of a game and every action writes a system message. Players send
    broadcasts (everybody reads them) and DMs (only sender and receiver read them).
    Users who do not play a public game read its system messages and broadcasts.
    """


@message.command()
@game_id_option("The ID of the game to send a message to")
@click.option(
    "-t",
    "--to",
    "to",
    metavar="<USER_NAME>",
    help="Send a Direct Message to this player only (default: a broadcast)",
)
@click.argument("text", nargs=-1, required=True, metavar="<TEXT>...")
@pass_state
def send(state: AppState, game_id: int, to: str | None, text: tuple[str, ...]) -> None:
    """Send a message to a game.

    A player writes at most a server-wide number of messages per game (100 by default).
    """
    with state.api() as api:
        sent = api.send_message(game_id, " ".join(text), to)
    target = f"DM to {sent.get('to')}" if sent.get("kind") == "dm" else "Broadcast"
    click.echo(f"{target} sent to game {game_id} (message #{sent.get('id')}).")


@message.command(name="list")
@game_id_option("The ID of the game to list messages of")
@click.option(
    "-a",
    "--after",
    type=click.IntRange(min=0),
    default=0,
    metavar="<MESSAGE_ID>",
    help="Only messages after this message id",
)
@pass_state
def list_messages(state: AppState, game_id: int, after: int) -> None:
    """List messages of a game.

    Players read every system message and broadcast and their own DMs (not those of
    players they muted); others read the system messages and broadcasts of public games.
    """
    with state.api() as api:
        found = api.messages(game_id, after)
    lines = [message_line(m) for m in found.get("messages") or []]
    click.echo("\n".join(lines) if lines else f"No messages in game {game_id}.")
    if found.get("muted"):
        click.echo(f"Muted: {', '.join(found['muted'])}")


@message.command()
@game_id_option("The ID of the game to mute a player in")
@click.argument("username", metavar="<USER_NAME>")
@click.option("--off", is_flag=True, help="Unmute: show the player's messages again")
@pass_state
def mute(state: AppState, game_id: int, username: str, off: bool) -> None:
    """Set the mute state for a player in a game.

    The messages of a muted player are hidden from you in that game (system messages
    stay). Use --off to unmute.
    """
    with state.api() as api:
        result = api.mute(game_id, username, muted=not off)
    state_word = "unmuted" if off else "muted"
    muted = ", ".join(result.get("muted") or []) or "nobody"
    click.echo(f"{username} is {state_word} in game {game_id}. Muted: {muted}.")
