"""Seats, squares, walls and the product's tables (SPEC §2 and §6).

Coordinates are 0-based: ``Square(0, 0)`` is a1, the south-west corner; columns grow to the
east, rows to the north. A wall ``Wall(col, row, "h"|"v")`` is named by the square of its 2x2
block closest to a1.
"""

from __future__ import annotations

import enum
from functools import lru_cache
from operator import attrgetter
from typing import TYPE_CHECKING, Literal, NamedTuple

SIZES: tuple[int, ...] = (5, 7, 9, 11, 13, 15, 17)
PLAYER_COUNTS: tuple[int, ...] = (2, 4)
Orientation = Literal["h", "v"]


class Seat(enum.Enum):
    """A side of the board; a pawn starts on its own edge and walks to the opposite one."""

    NORTH = "north"
    EAST = "east"
    SOUTH = "south"
    WEST = "west"

    # Speed: Enum's own ``value`` and ``__hash__`` are Python functions, run on every dict
    # lookup by seat and every ``seat.value``. These do the same in C (an Enum member is
    # only equal to itself, so the identity hash is as good as Enum's hash of the name).
    if TYPE_CHECKING:

        @property
        def value(self) -> str: ...

    else:
        value = property(attrgetter("_value_"))
    __hash__ = object.__hash__

    @property
    def title(self) -> str:
        return self.value.capitalize()

    @classmethod
    def parse(cls, text: str) -> Seat:
        try:
            return cls(text.strip().lower())
        except ValueError:
            raise ValueError(f"{text}: not a seat (north, east, south or west)") from None


CLOCKWISE: tuple[Seat, ...] = (Seat.NORTH, Seat.EAST, Seat.SOUTH, Seat.WEST)


class Square(NamedTuple):
    col: int
    row: int


class Wall(NamedTuple):
    col: int
    row: int
    orientation: Orientation


def _square_name(square: Square) -> str:
    return f"{chr(ord('a') + square.col)}{square.row + 1}"


def _wall_name(wall: Wall) -> str:
    return f"{chr(ord('a') + wall.col)}{wall.row + 1}{wall.orientation}"


# ``str(square)`` is "e4", ``str(wall)`` is "c3h". Squares and walls are immutable values, so
# their names are remembered. Speed: an lru_cache wrapper as ``__str__`` answers a hit in C
# (no Python frame); 4096 names is more than every square and wall of every board size.
Square.__str__ = lru_cache(maxsize=4096)(_square_name)  # type: ignore[method-assign]
Wall.__str__ = lru_cache(maxsize=4096)(_wall_name)  # type: ignore[method-assign]


_INITIAL_WALLS = {
    2: {5: 5, 7: 7, 9: 10, 11: 12, 13: 15, 15: 17, 17: 20},
    4: {5: 2, 7: 3, 9: 5, 11: 6, 13: 7, 15: 8, 17: 10},
}
_PROGRESS_WEIGHT = {
    2: {5: 60, 7: 65, 9: 70, 11: 72, 13: 74, 15: 76, 17: 78},
    4: {5: 50, 7: 55, 9: 60, 11: 62, 13: 64, 15: 66, 17: 68},
}


def check_variant(size: int, players: int) -> None:
    """Raise ValueError unless (size, players) is a board the game is played on."""
    if size not in SIZES:
        raise ValueError(f"{size}: board size must be one of 5, 7, 9, 11, 13, 15, 17")
    if players not in PLAYER_COUNTS:
        raise ValueError(f"{players}: number of players must be 2 or 4")


def seats_for(players: int) -> tuple[Seat, ...]:
    """The seats in play, in clockwise turn order."""
    return (Seat.NORTH, Seat.SOUTH) if players == 2 else CLOCKWISE


def initial_walls(size: int, players: int) -> int:
    check_variant(size, players)
    return _INITIAL_WALLS[players][size]


def progress_weight(size: int, players: int) -> int:
    check_variant(size, players)
    return _PROGRESS_WEIGHT[players][size]


def wall_cost(size: int, players: int) -> int:
    """SPEC §5: round(wall_weight / initial_walls), at least 1 (round half up)."""
    weight = 100 - progress_weight(size, players)
    walls = initial_walls(size, players)
    return max(1, (2 * weight + walls) // (2 * walls))


def start_square(seat: Seat, size: int) -> Square:
    mid = (size - 1) // 2
    return {
        Seat.NORTH: Square(mid, size - 1),
        Seat.EAST: Square(size - 1, mid),
        Seat.SOUTH: Square(mid, 0),
        Seat.WEST: Square(0, mid),
    }[seat]


def is_goal(seat: Seat, square: Square, size: int) -> bool:
    """True when ``square`` is on the edge opposite ``seat``."""
    if seat is Seat.NORTH:
        return square.row == 0
    if seat is Seat.SOUTH:
        return square.row == size - 1
    if seat is Seat.EAST:
        return square.col == 0
    return square.col == size - 1
