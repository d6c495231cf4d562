"""How a 4-player opponent is expected to act (the model of ``search.ModelSearch``).

``reply_aware_action``: a cheap imitation of an opponent that looks one reply ahead (the
depth-2 baselines of ``benchmarks/bots.py``): it takes the action after which its lead over
the nearest other pawn (that pawn's path minus its own) is best once the NEXT seat has
replied as badly for it as it can: that seat steps (and wins, when one step from its goal)
or places its best wall on the mover's path.
"""

from __future__ import annotations

from corridorquest.engine import GameState, PlaceWall, Seat, Step
from corridorquest.engine.board import path_cuts, path_length, shortest_layers
from corridorquest.engine.walls import geometric_slots, with_h, with_v

Action = Step | PlaceWall
LOST = -1000
RECHECKED = 3  # walls whose reply threat is worked out exactly


def _bits(mask: int) -> list[int]:
    found = []
    while mask:
        bit = mask & -mask
        mask ^= bit
        found.append(bit)
    return found


def best_cut(state: GameState, victim: Seat, extra: tuple[bool, int] | None = None) -> int:
    """The most steps one wall (that fits) adds to ``victim``'s path (0: none adds any);
    ``extra``: (horizontal, slot bit) of a wall placed first."""
    board = state.board
    stride, masks = board.stride, state._masks
    h, v = state._h, state._v
    if extra is not None:
        is_h, bit = extra
        if is_h:
            h |= bit
            masks = with_h(masks, bit, stride)
        else:
            v |= bit
            masks = with_v(masks, bit, stride)
    start, goal = 1 << state._pos[victim], board.goal[victim]
    layers = shortest_layers(start, goal, masks, stride)
    if layers is None:
        return 0
    before = len(layers) - 1
    cut_h, cut_v = path_cuts(layers, goal, masks, stride)
    legal_h, legal_v = geometric_slots(board, h, v)
    best = 0
    for bit in _bits(legal_h & cut_h):
        after = path_length(start, goal, with_h(masks, bit, stride), stride)
        if after is not None and after - before > best:
            best = after - before
    for bit in _bits(legal_v & cut_v):
        after = path_length(start, goal, with_v(masks, bit, stride), stride)
        if after is not None and after - before > best:
            best = after - before
    return best


def _reply_value(
    seat: Seat, following: Seat, lengths: dict[Seat, int], threat: int
) -> float:
    """``seat``'s lead after the next seat's worst reply: it steps (winning at one step) or
    walls ``seat`` for ``threat`` steps."""
    if lengths[following] <= 1:
        return LOST
    others = [length for other, length in lengths.items() if other is not seat]
    stepped = min(
        length - 1 if other is following else length
        for other, length in lengths.items()
        if other is not seat
    )
    own = lengths[seat]
    return min(stepped - own, min(others) - own - threat)


def reply_aware_action(state: GameState, seat: Seat, steps: list[Step]) -> Action:
    """The action an opponent that looks one reply ahead is expected to play (``steps``:
    its legal steps, the shortest-path step first; at least one)."""
    board = state.board
    stride, goals, masks, positions = board.stride, board.goal, state._masks, state._pos
    seats = state.seats
    following = state.next_seat(seat)
    lengths = {s: state.distance(s) for s in seats}
    walls_of_next = state.walls_left[following] > 0
    # the shortest-path step
    step = steps[0]
    stepped = dict(lengths)
    stepped[seat] = path_length(1 << board.index(step.to), goals[seat], masks, stride) or 0
    if walls_of_next:
        child = state.copy()
        child.turn = seat
        child.play(step)
        threat_after_step = best_cut(child, seat)
    else:
        threat_after_step = 0
    best_action: Action = step
    best = (_reply_value(seat, following, stepped, threat_after_step), _plain(seat, stepped), 1)
    if state.walls_left[seat] <= 0:
        return best_action
    # walls on an opponent's shortest path: the others' new lengths exactly, the next seat's
    # threat as it stands (the wall seldom changes it)
    threat = best_cut(state, seat) if walls_of_next else 0
    cuts = []
    target_h = target_v = 0
    for s in seats:
        layers = shortest_layers(1 << positions[s], goals[s], masks, stride)
        if layers is None:
            continue
        cut_h, cut_v = path_cuts(layers, goals[s], masks, stride)
        cuts.append((s, cut_h, cut_v))
        if s is not seat:
            target_h |= cut_h
            target_v |= cut_v
    legal_h, legal_v = geometric_slots(board, state._h, state._v)
    scored = []
    for is_h, slots in ((True, legal_h & target_h), (False, legal_v & target_v)):
        for bit in _bits(slots):
            trial = with_h(masks, bit, stride) if is_h else with_v(masks, bit, stride)
            after = dict(lengths)
            closed = False
            for s, cut_h, cut_v in cuts:
                if (cut_h if is_h else cut_v) & bit:
                    length = path_length(1 << positions[s], goals[s], trial, stride)
                    if length is None:
                        closed = True
                        break
                    after[s] = length
            if closed:
                continue
            key = (_reply_value(seat, following, after, threat), _plain(seat, after), 0)
            scored.append((key, is_h, bit, after))
    # the best few walls again, with the next seat's threat after them exactly
    scored.sort(key=lambda item: item[0], reverse=True)
    for _, is_h, bit, after in scored[:RECHECKED]:
        exact = best_cut(state, seat, (is_h, bit)) if walls_of_next else 0
        key = (_reply_value(seat, following, after, exact), _plain(seat, after), 0)
        if key > best:
            actions = board.h_actions if is_h else board.v_actions
            best, best_action = key, actions[bit.bit_length() - 1]
    return best_action


def _plain(seat: Seat, lengths: dict[Seat, int]) -> int:
    """The lead over the nearest other pawn, without replies (the tie-break)."""
    return min(length for other, length in lengths.items() if other is not seat) - lengths[seat]
