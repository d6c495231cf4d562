"""The words of the notifications: lines, e-mail bodies and ntfy texts (no decisions).

Every line is built from what `audience` lets through (a wall without its notation
reads "placed a wall"); nothing here looks at a game's modes.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from corridorquest.notify.facts import GameFacts

_WHY = {
    "turn": "it is your turn",
    "action": "a move or wall in your games",
    "game": "your games start, finish or are cancelled",
}


def action_line(actor: str, kind: str, seen: Mapping[str, Any]) -> str | None:
    """What a receiver reads of one action (`seen`: the history entry it may see), or None
    when it may not learn of it (a masked wall: the entry names no player)."""
    if kind == "wall":
        if seen.get("username") is None:
            return None
        where = seen.get("notation")
        return f"{actor} placed wall {where}." if where else f"{actor} placed a wall."
    verb = "jumped" if kind == "jump" else "moved"
    return f"{actor} {verb} to {seen.get('notation')}."


def passes(name: str) -> str:
    return f"{name} cannot move and passes."


def turn_line(name: str, you: bool) -> str:
    return "It is your turn." if you else f"It is {name}'s turn."


def started_line(game_id: int, names: Sequence[str], variant: str) -> str:
    return f"Game {game_id} ({variant}) started: {', '.join(names)}."


def finished_line(game_id: int, winner: str, scores: Mapping[str, int]) -> str:
    listed = ", ".join(f"{name} {score}" for name, score in scores.items())
    return f"Game {game_id} finished: {winner} won. Scores: {listed}."


def cancelled_line(game_id: int, reason: str) -> str:
    return f"Game {game_id} was cancelled: {reason}."


def reminder_lines(game_id: int, since: str, removal_at: str) -> tuple[str, ...]:
    return (
        f"It has been your turn in game {game_id} since {since}.",
        f"If you have not moved by {removal_at}, you will be removed from the game, "
        "which cancels it.",
    )


def reminder_push(name: str, game_id: int, since: str) -> str:
    return f"It has been {name}'s turn in game {game_id} since {since}."


def game_mail(username: str, facts: GameFacts, lines: Sequence[str], kinds: Sequence[str]) -> str:
    why = " and ".join(_WHY[kind] for kind in kinds)
    return (
        f"Hello {username},\n\n"
        + "\n".join(lines)
        + f"\n\nSee the game with:\n  cq game show --game-id {facts.id}\n\n"
        f"You get this e-mail because you asked to hear when {why}. "
        "Change that with `cq user notify`.\n"
    )


def invitation_mail(
    invitee: str, inviter: str, facts: GameFacts, code: str
) -> tuple[str, str]:
    subject = f"Corridor Quest: {inviter} invites you to game {facts.id}"
    body = (
        f"Hello {invitee},\n\n"
        f"{inviter} invites you to Corridor Quest game {facts.id} ({facts.variant()}).\n\n"
        f"Invitation code: {code}\n\n"
        f"Join with:\n  cq game join --game-id {facts.id} --invitation-code {code}\n"
    )
    return subject, body


def invitation_push(inviter: str, facts: GameFacts) -> str:
    return (
        f"{inviter} invites you to game {facts.id} ({facts.variant()}); "
        "the invitation code is in your e-mail."
    )


def renamed(old: str, new: str) -> str:
    return (
        f"The player {old} is now called {new}: subscribe to the topic {new} to keep "
        "following their games."
    )


def digest_mail(username: str, games: Sequence[tuple[int, str, str]]) -> tuple[str, str]:
    """`games`: (id, the other players, since when it is the user's turn)."""
    count = len(games)
    subject = (
        f"Corridor Quest: {count} game{'s' if count != 1 else ''} waiting for your move"
    )
    listed = "\n".join(
        f"  game {game_id} with {others}: your turn since {since}"
        for game_id, others, since in games
    )
    body = (
        f"Hello {username},\n\nIt is your turn in these games:\n{listed}\n\n"
        "See one with `cq game show --game-id ID`.\n\n"
        "You get at most one such e-mail a day because you chose the daily digest "
        "(`cq user notify --digest` turns it off and brings back one e-mail per event).\n"
    )
    return subject, body
