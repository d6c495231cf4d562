"""``cq game analyse``: each ply of a finished game judged by the server's bot engine.

Asks the server for the analysis (computed once, in a worker, and stored), waits for it
a bounded time (``--wait``), and prints one row per ply: the player, the action, the
player's evaluation after it (and the change), the best action, and a mistake mark
(docs/players-guide.md, Analysis).
"""

from __future__ import annotations

import json
import time
from typing import Any

import click

from client.api import ApiClient
from client.commands.game_group import game
from client.commands.options import GAME_ID
from client.errors import CqError
from client.safe_text import visible
from client.state import AppState, pass_state

POLL_EVERY = 0.5  # seconds between two looks while the server computes
MAX_WAIT = 600


def _analysis(api: ApiClient, game_id: int, wait: float) -> dict[str, Any]:
    path = f"/games/{game_id}/analysis"
    answer = api.call("POST", path)
    deadline = time.monotonic() + wait
    while answer.get("status") == "pending":
        if time.monotonic() >= deadline:
            raise CqError(
                f"the analysis of game {game_id} is still being computed: "
                "run the command again in a moment",
                reason="analysis_pending",
            )
        time.sleep(POLL_EVERY)
        answer = api.call("GET", path)
    if answer.get("status") != "done":
        raise CqError(
            f"the analysis of game {game_id} failed ({answer.get('error') or 'no reason'}): "
            "run the command again to retry",
            reason="analysis_failed",
        )
    return answer


def _value(number: float) -> str:
    if number >= 1000:
        return "won"
    if number <= -1000:
        return "lost"
    return f"{number:+.2f}"


def table(analysis: dict[str, Any]) -> list[str]:
    """The analysis as lines of a table (mistakes marked ``??``)."""
    header = ("Ply", "Player", "Action", "Eval", "Change", "Best", "Mistake")
    rows = [header]
    for ply in analysis["plies"]:
        change = ply["after"] - ply["before"]
        rows.append((
            str(ply["ply"]),
            f"{visible(str(ply.get('player') or ''))} ({ply['seat']})",
            ply["action"],
            _value(ply["after"]),
            "" if abs(ply["after"]) >= 1000 else f"{change:+.2f}",
            "=" if ply["best"] == ply["action"] else ply["best"],
            "?? mistake" if ply["mistake"] else "",
        ))
    widths = [max(len(row[i]) for row in rows) for i in range(len(header))]
    lines = ["  ".join(cell.ljust(widths[i]) for i, cell in enumerate(row)).rstrip()
             for row in rows]
    mistakes = sum(1 for ply in analysis["plies"] if ply["mistake"])
    lines.append("")
    lines.append(
        f"{mistakes} mistake{'s' if mistakes != 1 else ''}. Eval: the player's evaluation "
        f"after its action, in steps (+ better); Best: the level-{analysis['level']} bot's "
        "action (= the one played); a mistake lost "
        f"{analysis['mistake_drop']} steps or more to it."
    )
    return lines


@game.command(name="analyse")
@click.option("-g", "--game-id", "game_id", type=GAME_ID, metavar="<GAME_ID>", required=True,
              help="The ID of the finished game to analyse")
@click.option("--wait", type=click.IntRange(0, MAX_WAIT), default=60, show_default=True,
              metavar="<SECONDS>", help="How long to wait for the server to compute it")
@click.option("--json", "as_json", is_flag=True, help="The server's answer as JSON")
@pass_state
def analyse(state: AppState, game_id: int, wait: int, as_json: bool) -> None:
    """Analyse a finished game: each ply's evaluation, the best action, mistakes.

    The server computes the analysis once and keeps it; a game in play has none.
    """
    with state.api() as api:
        analysis = _analysis(api, game_id, wait)
    if as_json:
        click.echo(json.dumps(analysis, indent=2))
        return
    for line in table(analysis):
        click.echo(line)
