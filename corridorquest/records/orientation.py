"""The orientation rule: a record is written with the first mover starting on the south
edge (e1 on a 9x9 board), as the common notation and other programs expect.

The server's board keeps its seats (north starts on e9, south on e1, east on i5, west on
a5). A game whose first mover sits elsewhere is turned, a quarter turn clockwise at a
time, until the first mover is in the south; the turn order (clockwise) is kept.
"""

from __future__ import annotations

from corridorquest.engine import NotationError, Seat, Square, Wall, parse_square, parse_wall
from corridorquest.engine.notation import is_wall_notation

_TURNS = {Seat.SOUTH: 0, Seat.EAST: 1, Seat.NORTH: 2, Seat.WEST: 3}


def turns_for(first: Seat) -> int:
    """Quarter turns clockwise that bring the server's board to the record's."""
    return _TURNS[first]


def _square_cw(square: Square, size: int) -> Square:
    return Square(square.row, size - 1 - square.col)


def _wall_cw(wall: Wall, size: int) -> Wall:
    return Wall(wall.row, size - 2 - wall.col, "v" if wall.orientation == "h" else "h")


def _turn(text: str, size: int, turns: int) -> str:
    """``text`` (a square or a wall) turned ``turns`` quarter turns clockwise."""
    turns %= 4
    if is_wall_notation(text):
        wall = parse_wall(text, size)
        for _ in range(turns):
            wall = _wall_cw(wall, size)
        return str(wall)
    square = parse_square(text, size)
    for _ in range(turns):
        square = _square_cw(square, size)
    return str(square)


def to_record(text: str, size: int, first: Seat) -> str:
    """An action in the server's notation -> the record's (NotationError if neither)."""
    return _turn(text, size, turns_for(first))


def from_record(text: str, size: int, first: Seat) -> str:
    """An action in the record's notation -> the server's."""
    return _turn(text, size, -turns_for(first))


__all__ = ["NotationError", "from_record", "to_record", "turns_for"]
