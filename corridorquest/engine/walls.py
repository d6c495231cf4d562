"""Wall legality: geometry (bounds, overlap, crossing) and the path rule, on bitboards.

Listing every legal wall stays cheap because few candidates need a path search:

* a wall that cuts no edge of a pawn's current shortest path cannot cut that pawn off;
* a wall closes a loop (and so may cut somebody off) only when two of its three lattice
  points already belong to one connected group of walls and border: any other wall is legal.

Only walls failing both tests get a flood fill, on the position with that wall added. Nothing is
cached between calls: every listing is computed from the position.
"""

from __future__ import annotations

from corridorquest.engine.board import Board, MoveMasks, path_cuts, reaches, shortest_layers
from corridorquest.engine.geometry import Seat, Wall


def _two_of_three(a: int, b: int, c: int) -> int:
    return (a & b) | (a & c) | (b & c)


def geometric_slots(board: Board, h: int, v: int) -> tuple[int, int]:
    """Slots where a horizontal / vertical wall fits: no overlap, no crossing."""
    w = board.stride
    free_h = board.all_slots & ~(h | (h << 1) | (h >> 1) | v)
    free_v = board.all_slots & ~(v | (v << w) | (v >> w) | h)
    return free_h, free_v


def with_h(masks: MoveMasks, bit: int, stride: int) -> MoveMasks:
    under = bit | (bit << 1)
    return MoveMasks(masks.n & ~under, masks.s & ~(under << stride), masks.e, masks.w)


def with_v(masks: MoveMasks, bit: int, stride: int) -> MoveMasks:
    left = bit | (bit << stride)
    return MoveMasks(masks.n, masks.s, masks.e & ~left, masks.w & ~(left << 1))


def legal_wall_slots(board: Board, h: int, v: int, pawns: list[tuple[int, int]]) -> tuple[int, int]:
    """(h_slots, v_slots) of every legal wall; ``pawns`` are (square bit, goal bits) pairs."""
    w = board.stride
    legal_h, legal_v = geometric_slots(board, h, v)
    risky_h = risky_v = 0
    for group in board.obstacle_components(h, v):
        risky_h |= _two_of_three(group >> w, group >> (w + 1), group >> (w + 2))
        risky_v |= _two_of_three(group >> 1, group >> (w + 1), group >> (2 * w + 1))
    risky_h &= legal_h
    risky_v &= legal_v
    if not (risky_h | risky_v):
        return legal_h, legal_v
    masks = board.move_masks(h, v)
    paths: list[tuple[int, int, int, int]] = []
    any_h = any_v = 0
    for start, goal in pawns:
        layers = shortest_layers(start, goal, masks, w)
        if layers is None:  # cannot happen in a legal position; be safe: check everything
            cut_h, cut_v = board.all_slots, board.all_slots
        else:
            cut_h, cut_v = path_cuts(layers, goal, masks, w)
        paths.append((start, goal, cut_h, cut_v))
        any_h |= cut_h
        any_v |= cut_v
    trials: list[tuple[int, int, int, MoveMasks]] = []  # (wall bit, is_h, start, goal, masks)
    for orientation, risky, paths_cut in ((1, risky_h & any_h, 2), (0, risky_v & any_v, 3)):
        while risky:
            bit = risky & -risky
            risky ^= bit
            trial = with_h(masks, bit, w) if orientation else with_v(masks, bit, w)
            for path in paths:
                if path[paths_cut] & bit:
                    trials.append((bit * 2 + orientation, path[0], path[1], trial))
    for key, ok in zip(trials, flood_together(trials, w, board.size * w), strict=True):
        if not ok:
            bit, orientation = key[0] >> 1, key[0] & 1
            if orientation:
                legal_h &= ~bit
            else:
                legal_v &= ~bit
    return legal_h, legal_v


def flood_together(
    trials: list[tuple[int, int, int, MoveMasks]], stride: int, span: int
) -> list[bool]:
    """For each (tag, start, goal, masks) trial: can the pawn on ``start`` reach ``goal``?

    The trial boards are packed side by side into one int (``span`` bits each) and flooded at
    once; a board stops growing as soon as it touches its goal.
    """
    n = s = e = w = starts = goals = 0
    for offset, (_, start, goal, masks) in zip(
        range(0, span * len(trials), span), trials, strict=False
    ):
        n |= masks.n << offset
        s |= masks.s << offset
        e |= masks.e << offset
        w |= masks.w << offset
        starts |= start << offset
        goals |= goal << offset
    found = [False] * len(trials)
    pending = list(range(len(trials)))
    whole = (1 << span) - 1
    reach = front = starts
    hit = front & goals
    while True:
        if hit:
            for index in list(pending):
                region = whole << (index * span)
                if hit & region:
                    found[index] = True
                    pending.remove(index)
                    front &= ~region
        if not front:
            return found
        front = (
            ((front & n) << stride)
            | ((front & s) >> stride)
            | ((front & e) << 1)
            | ((front & w) >> 1)
        ) & ~reach
        reach |= front
        hit = front & goals


def overlap_reason(board: Board, h: int, v: int, wall: Wall) -> str | None:
    """Why ``wall`` does not fit among the walls ``h``/``v``, or None when it fits."""
    w = board.stride
    slot = board.slot(wall)
    same, other = (h, v) if wall.orientation == "h" else (v, h)
    step = 1 if wall.orientation == "h" else w
    for neighbour in (slot, slot - step, slot + step):
        if neighbour >= 0 and same >> neighbour & 1:
            name = Wall(neighbour % w, neighbour // w, wall.orientation)
            return f"overlaps wall {name}"
    if other >> slot & 1:
        crossing = Wall(wall.col, wall.row, "v" if wall.orientation == "h" else "h")
        return f"crosses wall {crossing}"
    return None


def cut_off_seats(
    board: Board, h: int, v: int, wall: Wall, pawns: list[tuple[Seat, int, int]]
) -> list[Seat]:
    """The seats (of ``(seat, square bit, goal bits)``) left without a path if ``wall`` stood."""
    w = board.stride
    bit = 1 << board.slot(wall)
    masks = board.move_masks(h, v)
    trial = with_h(masks, bit, w) if wall.orientation == "h" else with_v(masks, bit, w)
    return [seat for seat, start, goal in pawns if not reaches(start, goal, trial, w)]
