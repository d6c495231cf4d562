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
    "turn": "when it is your turn",
    "action": "when another player moves or places a wall in your games",
    "game": "when your games start, finish or are cancelled",
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


def paired_line(
    tournament: str, number: int, others: Sequence[str], game_id: int, variant: str
) -> str:
    return (f"Tournament {tournament}, round {number}: you play {_listed(others)} "
            f"in game {game_id} ({variant}).")


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


def _listed(parts: Sequence[str]) -> str:
    """`a`, `a and b`, `a, b and c`."""
    if len(parts) < 2:
        return "".join(parts)
    return ", ".join(parts[:-1]) + " and " + parts[-1]


def see_game(game_id: int, page: str | None) -> str:
    """Where to see a game: its web page (when there is one to link) and the command."""
    command = f"cq game show --game-id {game_id}"
    if page:
        return f"See the game at {page}\nor in a terminal with: {command}"
    return f"See the game with: {command}"


def game_mail(
    username: str, facts: GameFacts, lines: Sequence[str], kinds: Sequence[str],
    page: str | None = None,
) -> str:
    why = _listed([_WHY[kind] for kind in kinds])
    return (
        f"Hello {username},\n\n"
        + "\n".join(lines)
        + f"\n\n{see_game(facts.id, page)}\n\n"
        f"You get this e-mail because you asked for e-mails {why}. "
        "To change that, use `cq user notify`.\n"
    )


def invitation_mail(
    invitee: str,
    inviter: str,
    facts: GameFacts,
    code: str,
    page: str | None = None,
    join_link: str | None = None,
) -> tuple[str, str]:
    subject = f"Corridor Quest: {inviter} invites you to game {facts.id}"
    seen = f"See the game at {page}\n\n" if page else ""
    browser = f"Join in a web browser: {join_link}\n\n" if join_link else ""
    body = (
        f"Hello {invitee},\n\n"
        f"{inviter} invites you to Corridor Quest game {facts.id} ({facts.variant()}).\n\n"
        f"Invitation code: {code}\n\n"
        f"{seen}"
        f"{browser}"
        f"Join in a terminal with:\n  cq game join --game-id {facts.id} --invitation-code {code}\n"
    )
    return subject, body


def signature(server: str) -> str:
    """The end of every e-mail: which server sent it (a standard `-- ` signature)."""
    return f"-- \nCorridor Quest server at {server}\n"


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


def digest_mail(
    username: str, games: Sequence[tuple[int, str, str, str | None]]
) -> tuple[str, str]:
    """`games`: (id, the other players, since when it is the user's turn, its web page
    or None)."""
    count = len(games)
    subject = (
        f"Corridor Quest: {count} game{'s' if count != 1 else ''} waiting for your move"
    )
    listed = "\n".join(
        f"  game {game_id} with {others}: your turn since {since}"
        + (f"\n    {page}" if page else "")
        for game_id, others, since, page in games
    )
    body = (
        f"Hello {username},\n\nIt is your turn in these games:\n{listed}\n\n"
        "See one in a terminal with: cq game show --game-id ID\n\n"
        "You get this e-mail, at most one a day, because you chose the daily digest. "
        "To get one e-mail per event instead, turn the digest off with "
        "`cq user notify --digest`.\n"
    )
    return subject, body
