"""Pawn moves and jumps (SPEC §2) and the reasons a step is refused."""

from __future__ import annotations

from corridorquest.engine.actions import Step
from corridorquest.engine.board import Board, MoveMasks
from corridorquest.engine.geometry import Square


def _directions(board: Board, masks: MoveMasks) -> tuple[tuple[int, int], ...]:
    w = board.stride
    return ((masks.n, w), (masks.e, 1), (masks.s, -w), (masks.w, -1))


def legal_steps(board: Board, masks: MoveMasks, pawn: int, occupied: int) -> list[Step]:
    """Every move and jump of the pawn on square index ``pawn``; ``occupied`` = pawn bits."""
    w = board.stride
    can_n, can_s, can_e, can_w = masks
    bit = 1 << pawn
    near = ((bit & can_n) << w) | ((bit & can_s) >> w) | ((bit & can_e) << 1) | ((bit & can_w) >> 1)
    if not near & occupied:  # speed: the usual case, no pawn to jump over
        return _plain_moves(board, masks, pawn)
    found: dict[int, Step] = {}
    directions = _directions(board, masks)
    moves, jumps = board.moves, board.jumps
    for can, delta in directions:
        if not can >> pawn & 1:
            continue
        target = pawn + delta
        if not occupied >> target & 1:
            found[target] = moves[target]  # type: ignore[assignment]
            continue
        behind = target + delta
        if can >> target & 1 and not occupied >> behind & 1:
            found[behind] = jumps[behind]  # type: ignore[assignment]
            continue
        for side_can, side in directions:
            if side in (delta, -delta) or not side_can >> target & 1:
                continue
            landing = target + side
            if not occupied >> landing & 1:
                found[landing] = jumps[landing]  # type: ignore[assignment]
    return list(found.values())


def _plain_moves(board: Board, masks: MoveMasks, pawn: int) -> list[Step]:
    """The moves to the open sides of ``pawn`` (north, east, south, west: as legal_steps)."""
    w = board.stride
    bit = 1 << pawn
    moves = board.moves
    steps: list[Step] = []
    if bit & masks.n:
        steps.append(moves[pawn + w])  # type: ignore[arg-type]
    if bit & masks.e:
        steps.append(moves[pawn + 1])  # type: ignore[arg-type]
    if bit & masks.s:
        steps.append(moves[pawn - w])  # type: ignore[arg-type]
    if bit & masks.w:
        steps.append(moves[pawn - 1])  # type: ignore[arg-type]
    return steps


def wall_between(board: Board, masks: MoveMasks, a: Square, b: Square) -> bool:
    """True when a wall stands on the edge between the adjacent squares ``a`` and ``b``."""
    index = board.index(a)
    can = {(0, 1): masks.n, (0, -1): masks.s, (1, 0): masks.e, (-1, 0): masks.w}
    delta = (b.col - a.col, b.row - a.row)
    if not board.on_board(b.col, b.row):
        return False
    return not can[delta] >> index & 1


def explain_illegal_step(
    board: Board,
    masks: MoveMasks,
    pawn: Square,
    step: Step,
    occupant: dict[Square, str],
) -> str:
    """A player-facing reason why ``step`` is not legal for the pawn on ``pawn``.

    ``occupant`` maps occupied squares to the seat title standing there.
    """
    target = step.to
    dcol, drow = target.col - pawn.col, target.row - pawn.row
    if target in occupant:
        who = occupant[target]
        return (
            "that is where your pawn stands" if target == pawn else f"{target} is occupied by {who}"
        )
    if not step.jump:
        if abs(dcol) + abs(drow) != 1:
            return f"not next to {pawn}: a move goes one square north, east, south or west"
        if wall_between(board, masks, pawn, target):
            return f"wall between {pawn} and {target}"
        return f"{target} cannot be reached from {pawn}"
    if (abs(dcol), abs(drow)) in ((2, 0), (0, 2)):
        mid = Square(pawn.col + dcol // 2, pawn.row + drow // 2)
        if mid not in occupant:
            return f"no pawn on {mid} to jump over"
        if wall_between(board, masks, pawn, mid):
            return f"wall between {pawn} and {mid}"
        if wall_between(board, masks, mid, target):
            return f"wall between {mid} and {target}"
        return f"{target} cannot be reached by a jump from {pawn}"
    if abs(dcol) == 1 and abs(drow) == 1:
        reasons: list[str] = []
        for mid in (Square(pawn.col, target.row), Square(target.col, pawn.row)):
            if mid not in occupant:
                continue
            if wall_between(board, masks, pawn, mid):
                reasons.append(f"wall between {pawn} and {mid}")
                continue
            if wall_between(board, masks, mid, target):
                reasons.append(f"wall between {mid} and {target}")
                continue
            reasons.append(
                f"a diagonal jump is allowed only when the straight jump over {mid} is blocked"
            )
        if not reasons:
            return f"no pawn next to {pawn} to jump over towards {target}"
        return reasons[0]
    if abs(dcol) + abs(drow) == 1:
        return f"{target} is next to {pawn}: that is a move, not a jump"
    return "a jump lands two squares away in a straight line, or one square diagonally"
