"""Markers (SPEC §4): half-walls a player notes in an invisible-walls game.

A marker covers ONE edge between two squares. ``e4v`` is the edge east of e4 (e4|f4),
``e4h`` the edge north of e4 (e4/e5). A vertical marker may sit on any square but the
eastmost column; a horizontal one on any square but the northmost row. A wall covers two
markers: ``c3v`` covers ``c3v`` and ``c4v``; ``c3h`` covers ``c3h`` and ``d3h``.
Markers block nothing: they are a player's notes, nothing more.
"""

from __future__ import annotations

import re
from typing import NamedTuple

from corridorquest.engine.errors import NotationError
from corridorquest.engine.geometry import Orientation, Wall

_MARKER = re.compile(r"([a-z])(\d{1,2})([hv])")


class Marker(NamedTuple):
    col: int
    row: int
    orientation: Orientation

    def __str__(self) -> str:
        return f"{chr(ord('a') + self.col)}{self.row + 1}{self.orientation}"


def parse_marker(text: str, size: int) -> Marker:
    """``"e4v"`` -> ``Marker(4, 3, "v")``; NotationError when it is no edge of the board."""
    label = text.strip()
    match = _MARKER.fullmatch(label.lower())
    if match is None:
        raise NotationError(
            f"{label}: not a marker (a square and h or v, e.g. e4v = the edge east of e4)"
        )
    col, row = ord(match[1]) - ord("a"), int(match[2]) - 1
    orientation: Orientation = "h" if match[3] == "h" else "v"
    if not (0 <= col < size and 0 <= row < size):
        raise NotationError(f"{label}: not a square on a {size}x{size} board")
    last = chr(ord("a") + size - 1)
    if orientation == "v" and col == size - 1:
        raise NotationError(f"{label}: column {last} is the east edge of the board")
    if orientation == "h" and row == size - 1:
        raise NotationError(f"{label}: row {size} is the north edge of the board")
    return Marker(col, row, orientation)


def format_marker(marker: Marker) -> str:
    return str(marker)


def markers_under(wall: Wall) -> tuple[Marker, Marker]:
    """The two edges a wall covers (``c3v`` -> c3v, c4v; ``c3h`` -> c3h, d3h)."""
    if wall.orientation == "v":
        return Marker(wall.col, wall.row, "v"), Marker(wall.col, wall.row + 1, "v")
    return Marker(wall.col, wall.row, "h"), Marker(wall.col + 1, wall.row, "h")


def is_under(marker: Marker, walls: list[Wall] | tuple[Wall, ...]) -> bool:
    """True when one of ``walls`` covers the marker's edge."""
    return any(marker in markers_under(wall) for wall in walls)
