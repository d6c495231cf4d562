"""The actions a player takes on its turn: a pawn step (move or jump) or a wall."""

from __future__ import annotations

from typing import NamedTuple

from corridorquest.engine.geometry import Square, Wall


class Step(NamedTuple):
    """A pawn move (``jump`` False) or jump (``jump`` True) to the square ``to``."""

    to: Square
    jump: bool = False

    @property
    def kind(self) -> str:
        return "jump" if self.jump else "move"

    def __str__(self) -> str:
        return str(self.to)


class PlaceWall(NamedTuple):
    wall: Wall

    @property
    def kind(self) -> str:
        return "wall"

    def __str__(self) -> str:
        return str(self.wall)


Action = Step | PlaceWall


def format_action(action: Action) -> str:
    """Canonical notation: the destination square of a step, ``c3h``/``c3v`` of a wall."""
    return str(action)
