"""The actions a player takes on its turn: a pawn step (move or jump) or a wall."""

from __future__ import annotations

from functools import lru_cache
from typing import NamedTuple

from corridorquest.engine.geometry import Square, Wall


class Step(NamedTuple):
    """A pawn move (``jump`` False) or jump (``jump`` True) to the square ``to``."""

    to: Square
    jump: bool = False

    @property
    def kind(self) -> str:
        return "jump" if self.jump else "move"


class PlaceWall(NamedTuple):
    wall: Wall

    @property
    def kind(self) -> str:
        return "wall"


def _step_name(step: Step) -> str:
    return str(step.to)


def _wall_action_name(action: PlaceWall) -> str:
    return str(action.wall)


# ``str(action)`` is the canonical notation, remembered like the names of squares and walls
# (geometry.py): an lru_cache wrapper as ``__str__`` answers a hit in C.
Step.__str__ = lru_cache(maxsize=8192)(_step_name)  # type: ignore[method-assign]
PlaceWall.__str__ = lru_cache(maxsize=4096)(_wall_action_name)  # type: ignore[method-assign]

Action = Step | PlaceWall


def format_action(action: Action) -> str:
    """Canonical notation: the destination square of a step, ``c3h``/``c3v`` of a wall."""
    return str(action)
