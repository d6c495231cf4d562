"""Bitboards: the board of one size as Python ints, one bit per square.

A square ``(col, row)`` is bit ``row * W + col`` with ``W = size + 1``; the spare column keeps
shifts from wrapping. Wall slots use the same index as the square of their 2x2 block closest to
a1, and wall corners (lattice points, ``0..size`` both ways) the index ``y * W + x``, so that a
shift turns a slot into the squares or corners it touches.

A move mask ``can_n`` holds the squares whose pawn may step north (not on the top row, no wall
on that edge); ``(bits & can_n) << W`` moves every such square north at once. A flood fill is a
few such shifts per step.
"""

from __future__ import annotations

from functools import cache
from typing import NamedTuple

from corridorquest.engine.actions import PlaceWall, Step
from corridorquest.engine.geometry import CLOCKWISE, Seat, Square, Wall, check_variant


class MoveMasks(NamedTuple):
    """For each direction, the squares a pawn may leave in that direction."""

    n: int
    s: int
    e: int
    w: int


class Board:
    """Constant tables of one board size (built once per size)."""

    def __init__(self, size: int) -> None:
        check_variant(size, 2)
        self.size = size
        self.stride = w = size + 1
        squares = [r * w + c for r in range(size) for c in range(size)]
        self.all_squares = sum(1 << i for i in squares)
        self.not_top = sum(1 << (r * w + c) for r in range(size - 1) for c in range(size))
        self.not_bottom = self.all_squares & ~sum(1 << c for c in range(size))
        self.not_right = sum(1 << (r * w + c) for r in range(size) for c in range(size - 1))
        self.not_left = self.all_squares & ~sum(1 << (r * w) for r in range(size))
        self.slots = [r * w + c for r in range(size - 1) for c in range(size - 1)]
        self.all_slots = sum(1 << i for i in self.slots)
        self.border_corners = sum(
            1 << (y * w + x)
            for y in range(size + 1)
            for x in range(size + 1)
            if x in (0, size) or y in (0, size)
        )
        self.square_at: list[Square | None] = [None] * (size * w)
        for i in squares:
            self.square_at[i] = Square(i % w, i // w)
        self.goal: dict[Seat, int] = {
            Seat.NORTH: sum(1 << c for c in range(size)),
            Seat.SOUTH: sum(1 << ((size - 1) * w + c) for c in range(size)),
            Seat.EAST: sum(1 << (r * w) for r in range(size)),
            Seat.WEST: sum(1 << (r * w + size - 1) for r in range(size)),
        }
        assert set(self.goal) == set(CLOCKWISE)
        self.moves: list[Step | None] = [None] * (size * w)
        self.jumps: list[Step | None] = [None] * (size * w)
        # Canonical notation (str) of the squares and walls of this board, both ways.
        self.square_names: list[str | None] = [None] * (size * w)
        self.square_indexes: dict[str, int] = {}
        self.move_actions: dict[str, Step] = {}
        self.jump_actions: dict[str, Step] = {}
        for i in squares:
            square = Square(i % w, i // w)
            name = str(square)
            self.moves[i] = self.move_actions[name] = Step(square, False)
            self.jumps[i] = self.jump_actions[name] = Step(square, True)
            self.square_names[i] = name
            self.square_indexes[name] = i
        table_size = size * w
        self.h_actions: list[PlaceWall | None] = [None] * table_size
        self.v_actions: list[PlaceWall | None] = [None] * table_size
        self.wall_actions: dict[str, PlaceWall] = {}
        for i in self.slots:
            h_wall, v_wall = Wall(i % w, i // w, "h"), Wall(i % w, i // w, "v")
            self.h_actions[i] = self.wall_actions[str(h_wall)] = PlaceWall(h_wall)
            self.v_actions[i] = self.wall_actions[str(v_wall)] = PlaceWall(v_wall)
        # The JSON of a placed wall and its owner, as GameState.to_json writes it.
        self.wall_json: dict[tuple[Wall, Seat], str] = {
            (action.wall, seat): f'["{name}","{seat.value}"]'
            for name, action in self.wall_actions.items()
            for seat in CLOCKWISE
        }

    def index(self, square: Square) -> int:
        return square.row * self.stride + square.col

    def slot(self, wall: Wall) -> int:
        return wall.row * self.stride + wall.col

    def on_board(self, col: int, row: int) -> bool:
        return 0 <= col < self.size and 0 <= row < self.size

    def move_masks(self, h: int, v: int) -> MoveMasks:
        """The move masks with horizontal walls ``h`` and vertical walls ``v`` (slot bitsets)."""
        w = self.stride
        h_under = h | (h << 1)
        v_left = v | (v << w)
        return MoveMasks(
            self.not_top & ~h_under,
            self.not_bottom & ~(h_under << w),
            self.not_right & ~v_left,
            self.not_left & ~(v_left << 1),
        )

    def obstacle_components(self, h: int, v: int) -> list[int]:
        """Lattice points grouped by what connects them: the border, and chains of walls.

        Each group is a bitset of corner points; walls that touch (end to end, T or L) and
        walls that touch the border join the same group. Only groups of two or more walls,
        or walls on the border, are returned: a lone wall off the border closes no loop.
        """
        w = self.stride
        groups: list[int] = [self.border_corners]
        points: list[int] = []
        while h:
            bit = h & -h
            h ^= bit
            points.append((bit << w) | (bit << (w + 1)) | (bit << (w + 2)))
        while v:
            bit = v & -v
            v ^= bit
            points.append((bit << 1) | (bit << (w + 1)) | (bit << (2 * w + 1)))
        lone: list[int] = []
        for wall_points in points:
            merged = wall_points
            joined = False
            kept_groups: list[int] = []
            for group in groups:
                if group & wall_points:
                    merged |= group
                    joined = True
                else:
                    kept_groups.append(group)
            kept_lone: list[int] = []
            for group in lone:
                if group & wall_points:
                    merged |= group
                    joined = True
                else:
                    kept_lone.append(group)
            if joined:
                groups, lone = kept_groups + [merged], kept_lone
            else:
                groups, lone = kept_groups, kept_lone + [merged]
        return groups


@cache
def board_for(size: int) -> Board:
    return Board(size)


def reaches(start: int, goal: int, masks: MoveMasks, stride: int) -> bool:
    """True when a pawn on the bits ``start`` can walk to any bit of ``goal``."""
    n, s, e, w = masks
    reach = front = start
    while not reach & goal:
        front = (
            ((front & n) << stride)
            | ((front & s) >> stride)
            | ((front & e) << 1)
            | ((front & w) >> 1)
        ) & ~reach
        if not front:
            return False
        reach |= front
    return True


def path_length(start: int, goal: int, masks: MoveMasks, stride: int) -> int | None:
    """Steps from ``start`` to the nearest bit of ``goal``; None when unreachable.

    The number of ``shortest_layers`` minus one, without keeping the layers.
    """
    n, s, e, w = masks
    reach = start
    steps = 0
    while not reach & goal:
        # speed: growing the whole reached set takes fewer operations than a frontier
        grown = (
            reach
            | ((reach & n) << stride)
            | ((reach & s) >> stride)
            | ((reach & e) << 1)
            | ((reach & w) >> 1)
        )
        if grown == reach:
            return None
        reach = grown
        steps += 1
    return steps


def shortest_layers(start: int, goal: int, masks: MoveMasks, stride: int) -> list[int] | None:
    """Breadth-first layers from ``start`` until one touches ``goal``; None when unreachable."""
    n, s, e, w = masks
    layers = [start]
    seen = front = start
    while not front & goal:
        front = (
            ((front & n) << stride)
            | ((front & s) >> stride)
            | ((front & e) << 1)
            | ((front & w) >> 1)
        ) & ~seen
        if not front:
            return None
        seen |= front
        layers.append(front)
    return layers


def path_cuts(layers: list[int], goal: int, masks: MoveMasks, stride: int) -> tuple[int, int]:
    """(h_slots, v_slots) that would cut an edge of one shortest path found in ``layers``."""
    n, s, e, w = masks
    last = layers[-1] & goal
    cur = last & -last
    cut_h = cut_v = 0
    for layer in reversed(layers[:-1]):
        below = cur >> stride
        if below & layer & n:
            cut_h |= below | (below >> 1)
            cur = below
            continue
        above = cur << stride
        if above & layer & s:
            cut_h |= cur | (cur >> 1)
            cur = above
            continue
        west = cur >> 1
        if west & layer & e:
            cut_v |= west | (west >> stride)
            cur = west
            continue
        cut_v |= cur | (cur >> stride)
        cur = cur << 1
    return cut_h, cut_v
