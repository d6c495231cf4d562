"""``cq game export``: games as records in the common Quoridor notation (docs/records.md).

One game (``-g ID``) or several (``--user NAME --finished``: that user's finished games,
oldest first) as one file; text (tag lines and movetext) or ``--json``.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import click

from client.api import ApiClient
from client.commands.game_group import game
from client.commands.options import GAME_ID
from client.errors import CqError, InputError
from client.safe_text import visible
from client.state import AppState, pass_state

MAX_GAMES = 500  # the most games one list answers (the newest ones)


def record_of(api: ApiClient, game_id: int, as_json: bool) -> Any:
    """The record of one game: its text, or its JSON (the server refuses as for a game)."""
    path = f"/games/{game_id}/record"
    if as_json:
        return api.call("GET", path, params={"format": "json"})
    response = api._send("GET", path, headers=api._auth_headers())
    if not response.is_success:
        api._decode(response)  # raises the server's refusal
    if not response.headers.get("content-type", "").startswith("text/plain"):
        raise CqError(f"the server sent no record for game {game_id}", reason="not_a_record")
    return response.text


def _write(text: str, target: str | None) -> None:
    if target is None or target == "-":
        click.echo("\n".join(visible(line) for line in text.split("\n")), nl=False)
        return
    try:
        Path(target).write_text(text, encoding="utf-8")
    except OSError as error:
        raise InputError(f"cannot write {target}: {error.strerror}") from None
    click.echo(f"Written to {target}.", err=True)


@game.command(name="export")
@click.option("-g", "--game-id", "game_id", type=GAME_ID, metavar="<GAME_ID>",
              help="The ID of the game to export")
@click.option("-u", "--user", metavar="<USER>",
              help="Export the games of this user ('me': yourself); with --finished")
@click.option("--finished", is_flag=True, help="With --user: that user's finished games")
@click.option("-o", "--output", "output", type=click.Path(dir_okay=False, allow_dash=True),
              metavar="<FILE>", help="Write to FILE instead of standard output")
@click.option("--json", "as_json", is_flag=True,
              help="JSON instead of tag lines and movetext")
@pass_state
def export(state: AppState, game_id: int | None, user: str | None, finished: bool,
           output: str | None, as_json: bool) -> None:
    """Export games as records (tags and movetext in the common notation).

    A game in play is exported as you may see it (docs/records.md).
    """
    if (game_id is None) == (user is None):
        raise click.UsageError("give either -g GAME_ID or --user NAME --finished")
    if user is not None and not finished:
        raise click.UsageError("--user exports finished games only: add --finished")
    with state.api() as api:
        if game_id is not None:
            found = [record_of(api, game_id, as_json)]
        else:
            params = {"status": "finished", "user": user, "limit": MAX_GAMES}
            games = api.call("GET", "/games", params=params)["games"]
            ids = sorted(int(g["id"]) for g in games)
            found = [record_of(api, number, as_json) for number in ids]
    if as_json:
        body: Any = found[0] if game_id is not None else {"records": found}
        text = json.dumps(body, indent=2) + "\n"
    else:
        text = "\n".join(found)
    if game_id is None and not found:
        click.echo(f"No finished games of {user}.", err=True)
    _write(text, output)


@game.command(name="import")
@click.argument("file", type=click.Path(dir_okay=False, allow_dash=True), metavar="<FILE>")
@pass_state
def import_(state: AppState, file: str) -> None:
    """Import finished games from a record file ('-': standard input).

    The server replays each record; at the first illegal action nothing is stored and
    the error names the action's number and the reason. Imported games are unrated.
    """
    try:
        if file == "-":
            text = click.get_text_stream("stdin").read()
        else:
            text = Path(file).read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as error:
        reason = getattr(error, "strerror", None) or str(error)
        raise InputError(f"cannot read {file}: {reason}") from None
    with state.api() as api:
        answer = api.call("POST", "/games/imported", json={"record": text})
    for game_id in answer.get("games", []):
        click.echo(f"Imported game {int(game_id)}.")
