"""The `cq game` group and what its command modules share.

The group is defined here; the modules of its commands (game, play, messages, marks,
trade, watch, leaderboard) each import it and add their commands to it, and `client/cli.py`
imports them all. Also here: the board theme and `echo_game`, which draw a game, and the
statuses and relations of game lists (`cq game list`, `cq-admin games list`).
"""

from __future__ import annotations

from typing import Any

import click

from client.errors import CqError
from client.render.game_text import render_game
from client.render.themes import Theme, get_theme
from client.state import AppState

LIST_STATUSES = ("waiting", "active", "finished", "cancelled", "started")
STATUS_ALIASES = {"canceled": "cancelled"}  # the original manual's spelling, still accepted
STATUS_HELP = ("filter on game status [possible values: waiting, active, finished, "
               "cancelled]")


class StatusChoice(click.Choice):
    """The statuses of ``game list -s``: completes and lists "cancelled" (as the output
    spells it) and accepts the manual's "canceled" too."""

    def __init__(self) -> None:
        super().__init__(LIST_STATUSES)

    def convert(self, value: object, param: click.Parameter | None,
                ctx: click.Context | None) -> object:
        if isinstance(value, str):
            value = STATUS_ALIASES.get(value, value)
        return super().convert(value, param, ctx)


RELATIONS = ("admin", "player", "won", "current")


@click.group()
def game() -> None:
    """Operations on Games."""


def board_theme(state: AppState) -> Theme | None:
    """The user's theme (cached in the profile), or None when colour is off."""
    if not state.use_color():
        return None
    profile = state.profile
    if profile.theme is None and profile.token:
        try:
            with state.api() as api:
                profile.theme = api.me().get("theme") or "dark"
            state.save(profile)
        except CqError:
            pass
    return get_theme(profile.theme)


def echo_game(state: AppState, data: dict[str, Any]) -> None:
    theme = board_theme(state)
    click.echo(render_game(data, theme, me=state.profile.username), color=theme is not None)
    if data.get("at") is None and isinstance(data.get("id"), int):  # the game as it is now
        state.drawn_boards[data["id"]] = data


def bot_names(data: dict[str, Any]) -> str:
    """The bots of a game view, as "bot-2 (level 2), bot-5 (level 5)"."""
    bots = data.get("bots") or {}
    return ", ".join(f"{name} (level {mark['level']})" for name, mark in bots.items())
