"""Parsing and formatting of squares (``e4``), walls (``c3h``) and directions.

Directions name where a pawn lands, seen from the pawn: compass (``north``, ``north-west``,
``northwest``, ``north,west``, ``west-north`` ...) or directional (``up``, ``down-left``,
``upright``, ``left,up`` ...), with up = north. A direction is returned as ``(dcol, drow)``.
"""

from __future__ import annotations

import re

from corridorquest.engine.errors import NotationError
from corridorquest.engine.geometry import Orientation, Square, Wall

_SQUARE = re.compile(r"([a-z])([0-9]{1,2})")  # ASCII digits only (\d takes any script's)
_WALL = re.compile(r"([a-z])([0-9]{1,2})([hv])")
_WORDS: dict[str, tuple[int, int]] = {
    "north": (0, 1),
    "south": (0, -1),
    "east": (1, 0),
    "west": (-1, 0),
    "up": (0, 1),
    "down": (0, -1),
    "right": (1, 0),
    "left": (-1, 0),
}
_WORD_RE = re.compile("|".join(sorted(_WORDS, key=len, reverse=True)))
_DIRECTION_RE = re.compile(rf"({_WORD_RE.pattern})(?:\s*[,_-]?\s*({_WORD_RE.pattern}))?")


def _clean(text: str) -> str:
    return text.strip().lower()


def is_wall_notation(text: str) -> bool:
    return _WALL.fullmatch(_clean(text)) is not None


def is_square_notation(text: str) -> bool:
    return _SQUARE.fullmatch(_clean(text)) is not None


def parse_square(text: str, size: int) -> Square:
    """``"e4"`` -> ``Square(4, 3)``; NotationError when not a square of a ``size`` board."""
    match = _SQUARE.fullmatch(_clean(text))
    if match is None:
        raise NotationError(f"{text.strip()}: not a square (a column letter and a row, e.g. e4)")
    col, row = ord(match[1]) - ord("a"), int(match[2]) - 1
    if not (0 <= col < size and 0 <= row < size):
        raise NotationError(f"{text.strip()}: not a square on a {size}x{size} board")
    return Square(col, row)


def format_square(square: Square) -> str:
    return str(square)


def parse_wall(text: str, size: int) -> Wall:
    """``"c3h"`` -> ``Wall(2, 2, "h")``; NotationError when it is not a wall on the board."""
    cleaned = _clean(text)
    match = _WALL.fullmatch(cleaned)
    if match is None:
        if _SQUARE.fullmatch(cleaned):
            raise NotationError(
                f"{text.strip()}: a wall needs an orientation, e.g. {cleaned}h or {cleaned}v"
            )
        raise NotationError(f"{text.strip()}: not a wall (a square and h or v, e.g. c3h)")
    col, row = ord(match[1]) - ord("a"), int(match[2]) - 1
    orientation: Orientation = "h" if match[3] == "h" else "v"
    if not (0 <= col < size - 1 and 0 <= row < size - 1):
        raise NotationError(
            f"{text.strip()}: does not fit on a {size}x{size} board "
            f"(walls run from a1 to {chr(ord('a') + size - 2)}{size - 1})"
        )
    return Wall(col, row, orientation)


def format_wall(wall: Wall) -> str:
    return str(wall)


def parse_direction(text: str) -> tuple[int, int] | None:
    """``"north-west"`` -> ``(-1, 1)``. None when the text is not a direction at all.

    Raises NotationError for words that do not combine (``north-south``, ``up-up``).
    """
    cleaned = _clean(text)
    match = _DIRECTION_RE.fullmatch(cleaned)
    if match is None:
        if _WORD_RE.match(cleaned) and len(_WORD_RE.findall(cleaned)) > 2:
            raise NotationError(f"{text.strip()}: a direction has at most two parts")
        return None
    words = [word for word in (match[1], match[2]) if word]
    if len(words) > 2:
        raise NotationError(f"{text.strip()}: a direction has at most two parts")
    if len(words) == 2:
        (a_col, a_row), (b_col, b_row) = _WORDS[words[0]], _WORDS[words[1]]
        if (a_col == 0) == (b_col == 0):
            raise NotationError(
                f"{text.strip()}: a diagonal combines one of north/south (up/down) "
                "with one of east/west (left/right)"
            )
        return (a_col + b_col, a_row + b_row)
    return _WORDS[words[0]]


def direction_name(delta: tuple[int, int]) -> str:
    """``(-1, 1)`` -> ``"north-west"``; ``(0, 2)`` -> ``"north"``."""
    dcol, drow = delta
    vertical = "north" if drow > 0 else "south" if drow < 0 else ""
    horizontal = "east" if dcol > 0 else "west" if dcol < 0 else ""
    return "-".join(part for part in (vertical, horizontal) if part)
