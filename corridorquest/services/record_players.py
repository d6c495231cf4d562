"""The players of an imported game: the names its record's tags give by seat (SPEC §16,
docs/records.md).

An imported game has no player rows: its players are names, not accounts. Every view
names them from the record (the seats, the winner, the list's names, the seat of every
history entry), marks the game `imported`, and links them to no user: a user with the
same name is somebody else, never credited with the game (no profile link, no rating, no
"you").
"""

from __future__ import annotations

import json
from functools import lru_cache
from types import MappingProxyType
from typing import Any

from corridorquest.engine import CLOCKWISE

# seat value -> the record's tag naming its player
SEAT_TAGS = {"north": "North", "east": "East", "south": "South", "west": "West"}
_NO_NAMES: MappingProxyType[str, str] = MappingProxyType({})


@lru_cache(maxsize=1024)  # the tags of a game never change; a view reads them each time
def _names_of(imported: str) -> MappingProxyType[str, str]:
    try:
        tags = json.loads(imported)
    except ValueError:
        return _NO_NAMES
    if not isinstance(tags, dict):
        return _NO_NAMES
    return MappingProxyType(
        {
            seat: name.strip()
            for seat, tag in SEAT_TAGS.items()
            if isinstance(name := tags.get(tag), str) and name.strip()
        }
    )


def record_names(imported: str | None) -> MappingProxyType[str, str] | None:
    """seat value -> the name the record gives that seat's player (seats without a name
    are left out); None for a game that was not imported (`imported`: `Game.imported`)."""
    return None if imported is None else _names_of(imported)


def names_in_seat_order(names: MappingProxyType[str, str]) -> list[str]:
    """The record's names clockwise from North (the order a game view lists its seats)."""
    return [names[seat.value] for seat in CLOCKWISE if seat.value in names]


def stored_winner(state: str | None) -> str | None:
    """The winner's seat value of a stored final state (`Game.state`), for a list's row
    that loads no engine state."""
    try:
        data: Any = json.loads(state) if state else None
    except ValueError:
        return None
    winner = data.get("winner") if isinstance(data, dict) else None
    return winner if isinstance(winner, str) else None
