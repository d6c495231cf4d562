"""A move's system message, made from its action when the messages are read (SPEC §8).

Every action has a system message: "alice (North) moved to e5", "bob (South) placed
wall c3h" (none for a wall in a masked game, and in an invisible game the square only
for its player until the game is finished: SPEC §4, `system_messages.action_line`).
Since migration step 24 that message is not written: the action's `game_action` row
holds all it says, and a move that writes one row less is a faster move (issue 26;
benchmarks/README.md, "A move's message made when read"). It is made here from the row
whenever messages are read, by the rule that wrote it before. Actions played before
step 24 keep the message they stored (`GameAction.message_derived` is False for them).

Order. A game's messages are numbered in the order they were written
(`services.messages`). A stored message remembers the game's revision when it was
written (None: before step 24, so before every message made here): it comes after the
messages of the actions up to that revision and before the next action's. An action's
message comes first among the messages of the revision it made (its write's "has no
legal action and passes" and "won the game" follow it).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from corridorquest.services.system_messages import SYSTEM, action_line
from corridorquest.store.game_rows import (
    ActionRow,
    MessageRow,
    actions_with_derived_messages,
)
from corridorquest.store.models import Game


def made_from(game: Game, actions: Iterable[tuple[int | None, ActionRow]]) -> list[MessageRow]:
    """The messages of `actions` (each with the revision it made), oldest first; actions
    that stored their message, or have none, give none."""
    made = []
    for revision, action in actions:
        if not action.message_derived:
            continue
        line = action_line(game, action.user_id, action.seat, action.type, action.notation)
        if line is not None:
            text, about, detail = line
            made.append(MessageRow(None, about, None, SYSTEM, text, detail, action.at, revision))
    return made


def of_game(game: Game) -> list[MessageRow]:
    """Every message made from the game's actions, oldest first."""
    return made_from(game, actions_with_derived_messages(game.id))


def place(row: MessageRow) -> tuple[int, int, int]:
    """Where a message stands among the game's messages (see the module docstring)."""
    if row.id is None:
        return (row.revision or 0, 0, 0)
    return (row.revision or 0, 1, row.id)


def in_order(stored: Sequence[MessageRow], made: Sequence[MessageRow]) -> list[MessageRow]:
    """Stored messages (by row id) and messages made from actions, in the order they
    were written."""
    if not made:
        return list(stored)
    return sorted([*stored, *made], key=place)
