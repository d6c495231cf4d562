"""Walls scored by how much they lengthen the opponents' paths (for the search's candidates,
the opponents' model and the evaluation's check that a pawn can still be stopped)."""

from __future__ import annotations

from corridorquest.engine import GameState, PlaceWall, Seat
from corridorquest.engine.board import path_cuts, path_length, shortest_layers
from corridorquest.engine.walls import geometric_slots, with_h, with_v


def bits(mask: int) -> list[int]:
    found = []
    while mask:
        bit = mask & -mask
        mask ^= bit
        found.append(bit)
    return found


def scored_walls(
    state: GameState, seat: Seat, victim: Seat | None = None
) -> list[tuple[float, int, PlaceWall]]:
    """``(-gain, key, wall)`` of ``seat``'s legal walls with a positive gain, best first.

    The gain: how much a wall lengthens the opponents' paths (the one closest to winning
    fully, the others half; only ``victim``'s when given) minus how much it lengthens one's
    own. Only a wall that cuts an opponent's shortest path can lengthen it, and only a wall
    that cuts one's own can lengthen one's own: the new lengths are computed just for those.
    """
    board = state.board
    stride, goals, masks = board.stride, board.goal, state._masks
    positions = state._pos
    seats = state.seats
    before = {s: state.distance(s) for s in seats}
    others = [other for other in seats if other is not seat]
    # the opponent closest to winning counts fully, the others half
    danger = min(others, key=lambda other: before[other])
    cuts: list[tuple[Seat, float, int, int]] = []
    target_h = target_v = 0
    for s in seats:
        layers = shortest_layers(1 << positions[s], goals[s], masks, stride)
        if layers is None:  # cannot happen in a legal position
            continue
        cut_h, cut_v = path_cuts(layers, goals[s], masks, stride)
        if victim is not None:
            weight = -1.0 if s is seat else (1.0 if s is victim else 0.0)
        else:
            weight = -1.0 if s is seat else (1.0 if s is danger else 0.5)
        # a seat of weight 0 is measured for legality only (its path must stay open)
        cuts.append((s, weight, cut_h, cut_v))
        if weight > 0:
            target_h |= cut_h
            target_v |= cut_v
    # legal = fits (no overlap or crossing) and leaves every pawn a path; a wall that cuts no
    # edge of a pawn's shortest path leaves that path open, so only cut paths are measured
    # below (a wall that closes one is skipped): exact, without the engine's whole listing
    legal_h, legal_v = geometric_slots(board, state._h, state._v)
    scored: list[tuple[float, int, PlaceWall]] = []
    for is_h, slots in ((True, legal_h & target_h), (False, legal_v & target_v)):
        actions = board.h_actions if is_h else board.v_actions
        cut_index = 2 if is_h else 3
        for bit in bits(slots):
            trial = with_h(masks, bit, stride) if is_h else with_v(masks, bit, stride)
            gain = 0.0
            for cut in cuts:
                if cut[cut_index] & bit:
                    s = cut[0]
                    after = path_length(1 << positions[s], goals[s], trial, stride)
                    if after is None:  # the wall would close this pawn's way: illegal
                        gain = -1.0
                        break
                    gain += cut[1] * (after - before[s])
            if gain > 0:
                index = bit.bit_length() - 1
                scored.append((-gain, index * 2 + is_h, actions[index]))  # type: ignore[arg-type]
    scored.sort(key=lambda item: (item[0], item[1]))
    return scored
