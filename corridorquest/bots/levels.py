"""The six levels: each one a fixed search budget (nodes), never a time budget (SPEC §13).

A node is one position the search plays an action into (a copy of the position and the
engine's ``play``). The same level, position and seed give the same action on any machine.
"""

from __future__ import annotations

from typing import NamedTuple


class Level(NamedTuple):
    """How one level searches.

    nodes: positions the search may visit for one action on 9x9 with 2 players (iterative
        deepening stops there; see ``budget`` for the other variants).
    walls: wall candidates kept per position (the best by path-length gain), 0 = none.
    wide: at the root, every wall that gains is a candidate (not only the best ``walls``).
    noise: standard deviation (in steps) of a random term added to each root action's value.
    wall_chance: level 1 only: the chance it places a wall instead of walking.
    """

    nodes: int
    walls: int
    wide: bool
    noise: float
    wall_chance: float = 0.0

    def budget(self, size: int, players: int) -> int:
        """The node budget on a variant: ``nodes`` on 9x9 and smaller boards with 2 players;
        a node costs more on a bigger board and with four pawns, so the budget shrinks by
        9/size and by a third with 4 players (still fixed: never a time budget)."""
        scale = min(1.0, 9 / size) * (1.0 if players == 2 else 1 / 3)
        return max(1, round(self.nodes * scale))


LEVELS: dict[int, Level] = {
    # walks a shortest path and now and then drops a random wall near the opponent; adjacent
    # levels are meant to stand 100-250 Elo apart: the measured steps are in
    # benchmarks/README.md (benchmarks/bots.py; docs/contributing/bots.md)
    1: Level(nodes=0, walls=0, wide=False, noise=0.0, wall_chance=0.03),
    # one ply: the best-looking action of a few, with a lot of noise
    2: Level(nodes=8, walls=2, wide=False, noise=1.5),
    3: Level(nodes=30, walls=4, wide=False, noise=0.8),
    4: Level(nodes=200, walls=8, wide=False, noise=0.4),
    5: Level(nodes=500, walls=12, wide=True, noise=0.0),
    6: Level(nodes=4000, walls=16, wide=True, noise=0.0),
}


def level_for(level: int) -> Level:
    if isinstance(level, bool) or not isinstance(level, int) or level not in LEVELS:
        raise ValueError(f"{level!r}: a bot level is a whole number from 1 to 6")
    return LEVELS[level]
