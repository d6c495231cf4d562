"""The bots (SPEC §13): pure like the engine, deterministic given a seed, no I/O.

``choose(record, level, seed) -> str`` and ``evaluate(record) -> float``; ``seat_view`` builds
what one seat may know of a game, the input of a bot in masked and invisible games.
"""

from corridorquest.bots.choice import choose, evaluate, position_of
from corridorquest.bots.levels import LEVELS, Level, level_for
from corridorquest.bots.view import SeatView, knowledge, seat_view

__all__ = [
    "LEVELS",
    "Level",
    "SeatView",
    "choose",
    "evaluate",
    "knowledge",
    "level_for",
    "position_of",
    "seat_view",
]
